import LuaHost
import ReflectCore

// What an author probably meant when a flow calls a session function that
// does not exist (`s:intensty { … }`): Lua only says "attempt to call a nil
// value (method 'intensty')"; the engine adds the function it was near.

extension FlowAPI {
    /// The functions of the session table a flow's `run` receives (`s:ask`,
    /// `s:intensity`, …), exactly those ``installSession(in:host:flow:)``
    /// installs (`MisspelledFunctionTests` holds the two together).
    static let sessionFunctionNames: [String] = [
        "ask", "intensity", "number", "yesno", "choose", "choose_many", "checklist", "action", "message",
        "quote", "text", "distortion", "mood", "locale", "now", "generate", "feedback", "related", "facts",
        "prep_marks", "prep_add", "craving_note", "variant", "celebrate", "random",
    ]

    /// `error`, with "(did you mean s:NAME?)" after its message when Lua
    /// could not call a method or field whose name is a near miss of a
    /// session function (at most a third of its letters, and 3, apart);
    /// any other error unchanged. Only the message changes: the kind, file,
    /// line and frames stay what Lua reported.
    static func withSuggestion(_ error: LuaError) -> LuaError {
        guard error.kind == .runtime, let name = calledName(in: error.message),
              !sessionFunctionNames.contains(name),
              let near = Suggestion.nearest(to: name, among: sessionFunctionNames) else { return error }
        var explained = error
        explained.message += " (did you mean s:\(near)?)"
        return explained
    }

    /// The name in Lua's "attempt to call a nil value (method 'NAME')" (or
    /// `field 'NAME'`, for `s.NAME(s, …)`), else nil.
    static func calledName(in message: String) -> String? {
        for kind in ["(method '", "(field '"] {
            guard message.contains("attempt to call a nil value " + kind),
                  let start = message.range(of: kind)?.upperBound,
                  let end = message[start...].firstIndex(of: "'") else { continue }
            return String(message[start..<end])
        }
        return nil
    }
}

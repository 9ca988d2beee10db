import LuaHost
import ReflectCore

/// Why the engine could not run or continue a flow. Each case has a stable
/// ``code`` (the `error` event's `code` field, documented in docs/events.md)
/// and carries the file and line an author needs.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No flow with this id or path under the content root; `hint` says
    /// what was probably meant ("did you mean …", "add --mood").
    case flowNotFound(String, searched: String, hint: String? = nil)
    /// The flow file ran but did not define a valid flow.
    case invalidFlow(file: String, line: Int?, message: String)
    /// Lua failed: syntax, runtime, memory, budget (see ``LuaError``).
    case lua(LuaError)
    /// A saved session no longer fits the flow (a step was added, removed or
    /// retyped before the point the person had reached).
    case flowChanged(step: StepID, message: String)
    /// A save or answer file is malformed.
    case invalidSave(SaveValidationError)
    /// A content file (locale, personality) is malformed.
    case invalidContent(file: String, line: Int?, message: String)
    /// The flow already finished; nothing more can be answered.
    case sessionFinished
    /// Recording the session failed (the answer was not taken).
    case journal(String)
    /// No locale file for this tag (nor its language); the available tags.
    case unknownLocale(String, available: [String])
    /// No content directory (one holding `flows/` and `locales/`) was found
    /// where Reflect looked.
    case noContent(looked: String)

    public var code: String {
        switch self {
        case .flowNotFound: "flow.not_found"
        case .invalidFlow: "flow.invalid"
        case .lua(let e):
            switch e.kind {
            case .syntax: "lua.syntax"
            case .runtime: "lua.runtime"
            case .memoryLimit: "lua.memory_limit"
            case .budgetExceeded(.cancelled): "lua.cancelled"
            case .budgetExceeded: "lua.budget"
            case .host: "lua.host"
            }
        case .flowChanged: "flow.changed"
        case .invalidSave: "save.invalid"
        case .invalidContent: "content.invalid"
        case .sessionFinished: "session.finished"
        case .journal: "store.write_failed"
        case .unknownLocale: "locale.unknown"
        case .noContent: "content.not_found"
        }
    }

    public var file: String? {
        switch self {
        case .invalidFlow(let file, _, _), .invalidContent(let file, _, _): file
        case .lua(let e): e.chunk
        default: nil
        }
    }

    public var line: Int? {
        switch self {
        case .invalidFlow(_, let line, _), .invalidContent(_, let line, _): line
        case .lua(let e): e.line
        default: nil
        }
    }

    /// The message without the location.
    public var message: String {
        switch self {
        case .flowNotFound(let id, let searched, let hint): "flow '\(id)' not found (searched \(searched))" + (hint.map { "; \($0)" } ?? "")
        case .invalidFlow(_, _, let m), .invalidContent(_, _, let m): m
        case .lua(let e): e.message
        case .flowChanged(_, let m): m
        case .invalidSave(let e): e.description
        case .sessionFinished: "the session has already finished"
        case .journal(let m): "could not save the answer: \(m)"
        case .unknownLocale(let tag, let available):
            "there is no locale '\(tag)'; available: \(available.joined(separator: ", ")) (use one with --locale; "
                + "to start a new language, see docs/localization.md)"
        case .noContent(let looked):
            "no content directory found (a directory holding flows/ and locales/; looked in \(looked)); "
                + "run reflect inside one, or point at it with --content DIR or REFLECT_CONTENT=DIR"
        }
    }

    public var description: String {
        switch (file, line) {
        case (let f?, let l?): "\(f):\(l): \(message)"
        case (let f?, nil): "\(f): \(message)"
        default: message
        }
    }

    /// The `error` event for this error.
    public var event: FlowEvent { .error(code: code, message: message, file: file, line: line) }

    /// Any error from loading or starting the flow in `file`, typed: Lua's
    /// own (with its chunk and line; one that knows no chunk is this
    /// file's), the engine's as is, anything else as an invalid flow naming
    /// the file.
    static func loading(_ error: any Error, file: String) -> EngineError {
        switch error {
        case var e as LuaError:
            if e.chunk == nil { e.chunk = file }
            return .lua(e)
        case let e as EngineError: return e
        default: return .invalidFlow(file: file, line: nil, message: "\(error)")
        }
    }
}

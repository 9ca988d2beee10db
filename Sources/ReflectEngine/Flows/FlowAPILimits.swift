import LuaHost
import ReflectCore

/// Bounds on the work and memory a flow can make the *host* spend, outside
/// its Lua budget: every text a flow hands to the API is measured before
/// the host normalises, matches, quotes or parses it, and every count that
/// becomes host state (events, rows) is capped. Limits that a save must
/// also respect live in ``SessionLimits`` (one definition for both ends);
/// these are the API's own. docs/sandbox.md lists them.
public enum FlowAPILimits {
    /// A locale key or literal text given as `text`, `fallback`, `hint`,
    /// an option's text, or `s:text`'s key, before rendering.
    public static let maxSourceTextBytes = SessionLimits.maxPromptTextBytes
    /// Any text the API renders (a prompt's text, `s:text`'s result),
    /// checked before it is built.
    public static let maxRenderedBytes = SessionLimits.maxPromptTextBytes
    /// Answers passed in `args` (a prompt's or `s:text`'s). Templates
    /// number their placeholders up to 99; real prompts quote one or two.
    public static let maxArguments = 20
    /// `s:distortion` calls in one step (each records an event and a row;
    /// only the step's last result is kept).
    public static let maxDistortionCallsPerStep = 20
    /// One `print` line kept for the author's log; the rest is cut with "…".
    public static let maxPrintBytes = 4_096
    /// `print` lines kept per step (then one notice; the rest are dropped).
    public static let maxPrintLinesPerStep = 1_000

    /// Refuses a named field that is not one of `known` (a misspelling such
    /// as `requried` or `titel` would otherwise be ignored silently), with
    /// the nearest known field.
    static func knownFields(_ t: LuaTable, _ known: [String], _ what: @autoclosure () -> String) throws(LuaHostError) {
        var allKnown = true
        t.forEachField { key, _ in
            if allKnown, case .string(let n) = key, !known.contains(n) { allKnown = false }
        }
        if allKnown { return }
        // The first unknown field in alphabetical order is the one named.
        var names: [String] = []
        t.forEachField { key, _ in if case .string(let n) = key { names.append(n) } }
        names.sort()
        for name in names where !known.contains(name) {
            let guess = Suggestion.nearest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw LuaHostError("\(what()): unknown field '\(name.prefix(60))'\(guess); the fields are \(known.joined(separator: ", "))")
        }
    }

    /// A flow-supplied text, or a clear error naming the limit.
    static func text(_ s: String, max: Int, _ what: @autoclosure () -> String) throws(LuaHostError) -> String {
        let n = s.utf8.count
        guard n <= max else { throw LuaHostError("\(what()) is \(n) bytes (at most \(max))") }
        return s
    }

    /// `text` cut to at most `max` UTF-8 bytes on a character boundary, with "…".
    static func truncated(_ text: String, max: Int) -> String {
        guard text.utf8.count > max else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: max)
        while end > text.startIndex, String.Index(end, within: text.unicodeScalars) == nil { end = text.utf8.index(before: end) }
        return String(text.unicodeScalars[..<end]) + "…"
    }
}

import LuaHost
import ReflectCore

/// Why the engine could not run or continue a flow. Each case has a stable
/// ``code`` (the `error` event's `code` field, documented in docs/events.md)
/// and carries the file and line an author needs.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No flow with this id or path under the content root.
    case flowNotFound(String, searched: String)
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
        case .flowNotFound(let id, let searched): "flow '\(id)' not found (searched \(searched))"
        case .invalidFlow(_, _, let m), .invalidContent(_, _, let m): m
        case .lua(let e): e.message
        case .flowChanged(_, let m): m
        case .invalidSave(let e): e.description
        case .sessionFinished: "the session has already finished"
        case .journal(let m): "could not save the answer: \(m)"
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
    /// own (with its chunk and line), the engine's as is, anything else as
    /// an invalid flow naming the file.
    static func loading(_ error: any Error, file: String) -> EngineError {
        switch error {
        case let e as LuaError: .lua(e)
        case let e as EngineError: e
        default: .invalidFlow(file: file, line: nil, message: "\(error)")
        }
    }
}

import LuaHost
import ReflectCore

/// What a flow file declares with `return flow { ... }`.
public struct FlowDefinition: Sendable, Equatable {
    /// Dotted id, e.g. `reflection.negative`.
    public var id: String
    /// Bumped by authors when steps change; stored with every session.
    public var version: Int
    /// Locale key (or text) of the flow's name, for `reflect flows`.
    public var title: String?
    /// Moods this flow is offered for (`reflect run reflection --mood bad`).
    public var moods: [Mood]
    /// Number of counted questions a person sees (drives "2/5" progress).
    public var total: Int?
    /// The file it came from (display name).
    public var file: String
    let run: LuaFunction

    /// The fields of `flow { ... }`; any other is a misspelling and an error.
    static let fields = ["id", "version", "title", "moods", "total", "run"]

    /// Checks a `flow { ... }` table; the message names the field at fault.
    static func validate(_ t: LuaTable) throws(LuaHostError) -> (id: String, version: Int, title: String?, moods: [Mood], total: Int?, run: LuaFunction) {
        guard let id = t["id"].stringValue, isValidID(id) else {
            throw LuaHostError("flow: 'id' must be a dotted lowercase name such as \"reflection.negative\"")
        }
        try FlowAPILimits.knownFields(t, FlowDefinition.fields, "flow '\(id)'")
        guard let version = t["version"].integerValue, version >= 1, version <= Int64(Int32.max) else {
            throw LuaHostError("flow '\(id)': 'version' must be a positive integer")
        }
        guard let run = t["run"].functionValue else { throw LuaHostError("flow '\(id)': 'run' must be a function(s)") }
        var title: String?
        if !t["title"].isNil {
            guard let s = t["title"].stringValue else { throw LuaHostError("flow '\(id)': 'title' must be a locale key or text") }
            // Shown at the top of every run and in `reflect flows`.
            title = try FlowAPILimits.text(s, max: SessionLimits.maxOptionTextBytes, "flow '\(id)': 'title'")
        }
        var moods: [Mood] = []
        if !t["moods"].isNil {
            guard let list = t["moods"].tableValue?.sequence, list.count <= Mood.allCases.count else {
                throw LuaHostError("flow '\(id)': 'moods' must be a list of at most \(Mood.allCases.count) moods")
            }
            for m in list {
                guard let s = m.stringValue, let mood = Mood(rawValue: s) else {
                    throw LuaHostError("flow '\(id)': unknown mood in 'moods' (use \(Mood.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                moods.append(mood)
            }
        }
        var total: Int?
        if !t["total"].isNil {
            guard let n = t["total"].integerValue, n >= 1, n <= 1000 else {
                throw LuaHostError("flow '\(id)': 'total' must be a positive integer")
            }
            total = Int(n)
        }
        return (id, Int(version), title, moods, total, run)
    }

    /// Reads the table a flow file returned.
    static func parse(_ value: LuaValue?, file: String) throws(EngineError) -> FlowDefinition {
        guard let t = value?.tableValue else {
            throw .invalidFlow(file: file, line: nil, message: "the file must end with `return flow { id = ..., version = ..., run = function(s) ... end }`")
        }
        do {
            let v = try validate(t)
            return FlowDefinition(id: v.id, version: v.version, title: v.title, moods: v.moods, total: v.total, file: file, run: v.run)
        } catch {
            throw .invalidFlow(file: file, line: nil, message: error.message)
        }
    }

    /// Dot-separated parts, each a lowercase letter then lowercase
    /// letters, digits, `_` or `-` (checked on the UTF-8 bytes: every
    /// allowed character is ASCII).
    static func isValidID(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= SessionLimits.maxFlowIDBytes else { return false }
        var atPartStart = true
        for b in id.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): atPartStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                if atPartStart { return false }
            case UInt8(ascii: "."):
                if atPartStart { return false }
                atPartStart = true
            default: return false
            }
        }
        return !atPartStart
    }
}

import LuaHost

/// What a flow file declares with `return flow { ... }`.
public struct FlowDefinition: Sendable, Equatable {
    /// Dotted id, e.g. `reflection.negative`.
    public var id: String
    /// Bumped by authors when steps change; stored with every session.
    public var version: Int
    /// Number of prompts a person sees, when the author declares it (drives
    /// "3 of 5" progress).
    public var total: Int?
    /// The file it came from (display name).
    public var file: String
    let run: LuaFunction

    /// Reads the table a flow file returned. Errors name the file.
    static func parse(_ value: LuaValue?, file: String) throws(EngineError) -> FlowDefinition {
        guard let t = value?.tableValue else {
            throw .invalidFlow(file: file, line: nil, message: "the file must end with `return flow { id = ..., version = ..., run = function(s) ... end }`")
        }
        guard let id = t["id"].stringValue, FlowDefinition.isValidID(id) else {
            throw .invalidFlow(file: file, line: nil, message: "flow id must be a dotted lowercase name such as \"reflection.negative\"")
        }
        guard let version = t["version"].integerValue, version >= 1, version <= Int64(Int32.max) else {
            throw .invalidFlow(file: file, line: nil, message: "flow '\(id)': version must be a positive integer")
        }
        guard let run = t["run"].functionValue else {
            throw .invalidFlow(file: file, line: nil, message: "flow '\(id)': run must be a function(s)")
        }
        var total: Int?
        if !t["total"].isNil {
            guard let n = t["total"].integerValue, n >= 1, n <= 1000 else {
                throw .invalidFlow(file: file, line: nil, message: "flow '\(id)': total must be a positive integer")
            }
            total = Int(n)
        }
        return FlowDefinition(id: id, version: Int(version), total: total, file: file, run: run)
    }

    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, first.isASCII, first.isLowercase else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == "-") }
        }
    }
}

import Foundation

/// A flow's Lua source and the display name its errors will carry.
public struct FlowSource: Sendable, Equatable {
    public var name: String
    public var text: String
    /// The celebration rules of the flow's directory
    /// (`flows/<dir>/celebrations.lua`), if there is one: content that
    /// decides which answer earns which tier (docs/progress.md).
    public var celebrationRules: RulesSource?

    public init(name: String, text: String, celebrationRules: RulesSource? = nil) {
        self.name = name
        self.text = text
        self.celebrationRules = celebrationRules
    }

    /// The file name reserved for a directory's celebration rules: never a flow.
    public static let celebrationRulesFile = "celebrations.lua"

    /// Largest flow file read (a flow is a page of Lua; this bounds every
    /// scan the host makes of its text).
    public static let maxBytes = 1 << 20

    /// Reads a flow file. A file that is not UTF-8 text, or larger than
    /// ``maxBytes``, is refused here, before Lua sees it.
    public static func read(_ url: URL, displayName: String) throws(EngineError) -> FlowSource {
        let data: Data
        switch ContentText.bytes(url, limit: maxBytes) {
        case .success(let read): data = read
        case .failure(.unreadable): throw .flowNotFound(displayName, searched: displayName)
        case .failure(.tooLarge(let size, _)):
            throw .invalidFlow(file: displayName, line: nil, message: "the file is \(size) bytes (at most \(maxBytes)); split the flow")
        case .failure(let other): throw .invalidFlow(file: displayName, line: nil, message: other.message)
        }
        var text: String
        switch ContentText.decode(data) {
        case .success(let decoded): text = decoded
        case .failure(let invalid):
            if data.first == 0x1B {
                throw .invalidFlow(file: displayName, line: nil, message: "binary chunks (precompiled Lua) are not allowed; ship the .lua source")
            }
            throw .invalidFlow(file: displayName, line: invalid.line, message: invalid.message)
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var source = FlowSource(name: displayName, text: text)
        let rules = url.deletingLastPathComponent().appendingPathComponent(celebrationRulesFile)
        if url.lastPathComponent != celebrationRulesFile, FileManager.default.fileExists(atPath: rules.path) {
            let rulesName = (displayName as NSString).deletingLastPathComponent
            let read = try FlowSource.read(rules, displayName: rulesName.isEmpty ? celebrationRulesFile : rulesName + "/" + celebrationRulesFile)
            source.celebrationRules = RulesSource(name: read.name, text: read.text)
        }
        return source
    }
}

/// A Lua file of rules that runs beside a flow (not a flow itself).
public struct RulesSource: Sendable, Equatable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}

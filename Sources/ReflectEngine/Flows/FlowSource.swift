import Foundation

/// A flow's Lua source and the display name its errors will carry.
public struct FlowSource: Sendable, Equatable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Reads a flow file. A file that is not UTF-8 text is refused here,
    /// before Lua sees it.
    public static func read(_ url: URL, displayName: String) throws(EngineError) -> FlowSource {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .flowNotFound(displayName, searched: displayName)
        }
        guard var text = String(data: data, encoding: .utf8) else {
            if data.first == 0x1B {
                throw .invalidFlow(file: displayName, line: nil, message: "binary chunks (precompiled Lua) are not allowed; ship the .lua source")
            }
            throw .invalidFlow(file: displayName, line: nil, message: "the file is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return FlowSource(name: displayName, text: text)
    }
}

import Foundation

/// A flow's Lua source and the display name its errors will carry.
public struct FlowSource: Sendable, Equatable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Largest flow file read (a flow is a page of Lua; this bounds every
    /// scan the host makes of its text).
    public static let maxBytes = 1 << 20

    /// Reads a flow file. A file that is not UTF-8 text, or larger than
    /// ``maxBytes``, is refused here, before Lua sees it.
    public static func read(_ url: URL, displayName: String) throws(EngineError) -> FlowSource {
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > maxBytes {
            throw .invalidFlow(file: displayName, line: nil, message: "the file is \(size) bytes (at most \(maxBytes)); split the flow")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .flowNotFound(displayName, searched: displayName)
        }
        guard data.count <= maxBytes else {
            throw .invalidFlow(file: displayName, line: nil, message: "the file is \(data.count) bytes (at most \(maxBytes)); split the flow")
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

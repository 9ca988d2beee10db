import Foundation

/// The directory holding `flows/`, `personalities/` and `locales/`.
///
/// Every path shown to a person or an author is relative to it
/// (`flows/reflection/negative.lua`), never absolute.
public struct ContentRoot: Sendable, Equatable {
    public let url: URL

    public init(_ url: URL) { self.url = url.standardizedFileURL }

    public var flowsDirectory: URL { url.appendingPathComponent("flows", isDirectory: true) }

    /// The default: `$REFLECT_CONTENT`, else the nearest directory holding
    /// `flows/` from the working directory up, else from the executable up
    /// (so `swift run reflect` and `.build/debug/reflect` find the repo's
    /// content).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> ContentRoot? {
        if let env = environment["REFLECT_CONTENT"], !env.isEmpty {
            return ContentRoot(URL(fileURLWithPath: env, isDirectory: true))
        }
        let starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
                      URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()]
        for start in starts {
            var dir = start.standardizedFileURL
            for _ in 0..<8 {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: dir.appendingPathComponent("flows").path, isDirectory: &isDir), isDir.boolValue {
                    return ContentRoot(dir)
                }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }

    /// The name a file is shown under: relative to the root when inside it;
    /// otherwise the path as the user typed it if relative, or its last two
    /// components.
    public func displayName(for file: URL, asTyped typed: String? = nil) -> String {
        let path = file.standardizedFileURL.path
        let root = url.path.hasSuffix("/") ? url.path : url.path + "/"
        if path.hasPrefix(root) { return String(path.dropFirst(root.count)) }
        if let typed, !typed.hasPrefix("/") { return typed }
        return file.pathComponents.suffix(2).joined(separator: "/")
    }

    /// All flow files under `flows/` (every `.lua` but the reserved
    /// `celebrations.lua` rules files), sorted, as (url, display name).
    public func flowFiles() -> [(url: URL, name: String)] {
        guard let walker = FileManager.default.enumerator(at: flowsDirectory, includingPropertiesForKeys: nil) else { return [] }
        var out: [(URL, String)] = []
        for case let file as URL in walker where file.pathExtension == "lua" && file.lastPathComponent != FlowSource.celebrationRulesFile {
            out.append((file, displayName(for: file)))
        }
        return out.sorted { $0.1 < $1.1 }
    }
}

import Foundation
import ReflectCore

/// A content directory, opened: flows by id, locales by tag.
public struct ContentLibrary: Sendable {
    public let root: ContentRoot
    public var catalog: FlowCatalog { FlowCatalog(root: root) }

    public init(root: ContentRoot) { self.root = root }

    public var localesDirectory: URL { root.url.appendingPathComponent("locales", isDirectory: true) }

    /// Tags that have a `locales/<tag>.yaml`, sorted.
    public func availableLocales() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: localesDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The locale file for `tag`, or nil when there is none. Malformed files
    /// throw with file and line.
    public func locale(_ tag: String) throws(EngineError) -> LocaleData? {
        let url = localesDirectory.appendingPathComponent("\(tag).yaml")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try LocaleFile.load(url, displayName: "locales/\(tag).yaml")
        guard data.tag == tag else {
            throw .invalidContent(file: "locales/\(tag).yaml", line: 1, message: "declares 'locale: \(data.tag)', expected '\(tag)'")
        }
        return data
    }

    /// The language for `tag` along its fallback chain (`pt-BR → pt → en`);
    /// tags without a file are skipped.
    public func language(for tag: String) throws(EngineError) -> Language {
        var chain: [LocaleData] = []
        for t in Localizer.fallbackTags(for: tag) {
            if let data = try locale(t) { chain.append(data) }
        }
        return try Language(chain: chain)
    }
}

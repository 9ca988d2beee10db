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

    /// The locale file for `tag` as written, or nil when there is none.
    /// Malformed files throw with file and line.
    public func document(_ tag: String) throws(EngineError) -> LocaleDocument? {
        let url = localesDirectory.appendingPathComponent("\(tag).yaml")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let doc = try LocaleFile.load(url, displayName: "locales/\(tag).yaml")
        guard doc.tag == tag else {
            throw .invalidContent(file: "locales/\(tag).yaml", line: 1, message: "declares 'locale: \(doc.tag)', expected '\(tag)'")
        }
        return doc
    }

    /// What the runtime shows for `tag`: for a translation, only its
    /// translated entries (judged against English); nil when there is no file.
    public func locale(_ tag: String) throws(EngineError) -> LocaleData? {
        guard let doc = try document(tag) else { return nil }
        if doc.isSource { return doc.runtimeData(source: nil) }
        return doc.runtimeData(source: try document("en"))
    }

    /// The language for `tag` along its fallback chain (`pt-BR → pt → en`);
    /// tags without a file are skipped. A personality's overrides sit above
    /// the locale strings; overrides whose placeholders differ from the
    /// string they replace are dropped (and reported by `reflect check`).
    public func language(for tag: String, personality id: String? = nil) throws(EngineError) -> Language {
        var chain: [LocaleData] = []
        for t in Localizer.fallbackTags(for: tag) {
            if let data = try locale(t) { chain.append(data) }
        }
        guard chain.contains(where: { $0.safety != nil }) else {
            // Safety is not optional: without lists, crisis language would go unnoticed.
            throw .invalidContent(file: "locales/en.yaml", line: nil, message: "no locale on \(tag)'s chain has a safety section; "
                + "Reflect does not run without crisis lists (add `safety:` to locales/en.yaml, see docs/safety.md)")
        }
        // The engine's own lines (validation messages, the safety notice,
        // the terminal's hints) have no English copy in code: a chain
        // without them cannot run.
        let missing = EngineString.missing(in: chain)
        guard missing.isEmpty else {
            throw .invalidContent(file: "locales/en.yaml", line: nil, message: "no locale on \(tag)'s chain has the string"
                + (missing.count == 1 ? " " : "s ") + missing.map { "'\($0.key)'" }.joined(separator: ", ")
                + " that Reflect shows itself (add it under `strings:` in locales/en.yaml, see docs/localization.md)")
        }
        guard let id else { return try Language(chain: chain) }
        var pack = try personality(id)
        for (t, strings) in pack.strings {
            guard let base = chain.first(where: { $0.tag == t }) else { continue }
            pack.strings[t] = strings.filter { key, text in
                base.strings[key].map { Template($0).arguments == Template(text).arguments } ?? false
            }
        }
        return try Language(chain: chain, personality: pack)
    }

    public var personalitiesDirectory: URL { root.url.appendingPathComponent("personalities", isDirectory: true) }

    /// Ids that have a `personalities/<id>.yaml`, sorted.
    public func availablePersonalities() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: personalitiesDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    public func personality(_ id: String) throws(EngineError) -> Personality {
        let url = personalitiesDirectory.appendingPathComponent("\(id).yaml")
        guard StepID.isValid(id), FileManager.default.fileExists(atPath: url.path) else {
            throw .invalidContent(file: "personalities/\(id).yaml", line: nil,
                                  message: "no personality '\(id)' (available: \(availablePersonalities().joined(separator: ", ")))")
        }
        return try Personality.load(url, displayName: "personalities/\(id).yaml")
    }
}

import Foundation
import ReflectCore
import ReflectEngine

/// The English texts translations were made from, by their lock
/// (`locales/history/en.yaml`), so that a stale translation can show what
/// the English said when it was translated (`#| msgid` in PO, a note in
/// XLIFF, `reflect locales status --verbose`). A lock alone (8 hex digits
/// of a SHA-256) cannot be turned back into text.
///
/// Written by the tools that write locks (`reflect locales confirm`,
/// `reflect locales import`): every English text current at that moment,
/// and the English of an imported file, is added; nothing is ever removed.
/// One line per text, `"3f2a91bc": "English text"` (a YAML map whose keys
/// and values are JSON strings), so the file diffs and merges line by line.
/// A missing or unreadable file is an empty history: the previous English
/// is then simply not shown.
public struct EnglishHistory: Sendable, Equatable {
    public private(set) var texts: [String: String] = [:]

    public static func url(in library: ContentLibrary) -> URL {
        library.localesDirectory.appendingPathComponent("history/en.yaml")
    }

    public init(texts: [String: String] = [:]) { self.texts = texts }

    /// Reads the history of `library` (empty when there is none).
    public init(library: ContentLibrary) {
        guard let text = try? String(contentsOf: EnglishHistory.url(in: library), encoding: .utf8) else { return }
        for line in LineEndings.normalized(text).split(separator: "\n") where line.hasPrefix("\"") {
            guard let data = "{\(line)}".data(using: .utf8),
                  let pair = try? JSONDecoder().decode([String: String].self, from: data) else { continue }
            texts.merge(pair) { old, _ in old }
        }
    }

    /// The English a lock was taken from, if it was recorded.
    public func text(of lock: String?) -> String? { lock.flatMap { texts[$0] } }

    /// Adds `english` texts (by their locks); true when any was new.
    @discardableResult
    public mutating func record<S: Sequence>(_ english: S) -> Bool where S.Element == String {
        var added = false
        for text in english {
            let lock = SourceLock.of(text)
            if texts[lock] == nil {
                texts[lock] = text
                added = true
            }
        }
        return added
    }

    /// The file's text: a header, then one line per lock, sorted.
    public var fileText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        func quoted(_ s: String) -> String { (try? encoder.encode(s)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\"" }
        var lines = [
            "# The English texts translations were made from, by their source lock.",
            "# Written by `reflect locales confirm` and `reflect locales import`; shows what changed",
            "# when a translation goes stale (docs/localization.md). Safe to delete; never edited by hand.",
        ]
        for (lock, text) in texts.sorted(by: { $0.key < $1.key }) { lines.append("\(quoted(lock)): \(quoted(text))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the history of `library`.
    public func save(in library: ContentLibrary) throws(EngineError) {
        let url = EnglishHistory.url(in: library)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileText.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            throw .invalidContent(file: "locales/history/en.yaml", line: nil, message: "cannot write: \(error.localizedDescription)")
        }
    }
}

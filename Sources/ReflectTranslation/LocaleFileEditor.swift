import Foundation
import ReflectCore
import ReflectEngine

/// Changes a locale file in place, line by line, so a translator's layout
/// and comments survive `confirm` and `import`: only the lines of the keys
/// that change are rewritten (as `key: { text: ..., source: ..., note: ... }`),
/// new keys are inserted after the previous key in English order, and a
/// list section's lock is a `source:` line right under its header.
///
/// When a changed value spans several lines (a block scalar), the edit is
/// not attempted and the caller falls back to ``LocaleWriter``.
struct LocaleFileEditor {
    private(set) var lines: [String]
    private let doc: LocaleDocument
    /// Lines inserted so far before each original line (to shift positions).
    private var inserted: [(at: Int, count: Int)] = []

    init(text: String, document: LocaleDocument) {
        var l = LineEndings.normalized(text).components(separatedBy: "\n")
        if l.last == "" { l.removeLast() }
        lines = l
        doc = document
    }

    var text: String { lines.joined(separator: "\n") + "\n" }

    /// The current index of an original 1-based line.
    private func index(_ originalLine: Int) -> Int {
        originalLine - 1 + inserted.filter { $0.at <= originalLine - 1 }.reduce(0) { $0 + $1.count }
    }

    private mutating func insert(_ newLines: [String], beforeOriginal line: Int) {
        let i = index(line)
        lines.insert(contentsOf: newLines, at: i)
        inserted.append((line - 1, newLines.count))
    }

    private static func indent(_ s: String) -> Int { s.prefix { $0 == " " }.count }

    /// Whether the value of the key on `originalLine` is on that line alone.
    private func singleLine(_ originalLine: Int) -> Bool {
        let i = index(originalLine)
        guard i < lines.count else { return false }
        let own = LocaleFileEditor.indent(lines[i])
        var j = i + 1
        while j < lines.count {
            let t = lines[j].trimmingCharacters(in: .whitespaces)
            if t.isEmpty || t.hasPrefix("#") { j += 1; continue }
            return LocaleFileEditor.indent(lines[j]) <= own
        }
        return true
    }

    static func entryLine(indent: Int, key: String, _ e: LocaleDocument.Entry) -> String {
        let pad = String(repeating: " ", count: indent)
        if e.source == nil && e.note == nil { return "\(pad)\(key): \(LocaleWriter.quote(e.text))" }
        var fields = ["text: \(LocaleWriter.quote(e.text))"]
        if let s = e.source { fields.append("source: \(LocaleWriter.quote(s))") }
        if let n = e.note { fields.append("note: \(LocaleWriter.quote(n))") }
        return "\(pad)\(key): { \(fields.joined(separator: ", ")) }"
    }

    /// Rewrites or inserts one entry. Returns false if it cannot be done in place.
    mutating func set(_ key: String, _ entry: LocaleDocument.Entry, englishOrder: [String]) -> Bool {
        if let line = doc.lines[key] {
            guard singleLine(line) else { return false }
            let i = index(line)
            lines[i] = LocaleFileEditor.entryLine(indent: LocaleFileEditor.indent(lines[i]), key: key, entry)
            return true
        }
        // A new key goes right after the nearest earlier key (in English
        // order) that the file has, or before its first key.
        guard let pos = englishOrder.firstIndex(of: key) else { return false }
        let line: Int
        if let previous = englishOrder[..<pos].reversed().compactMap({ doc.lines[$0] }).first {
            line = previous + 1
        } else if let first = doc.order.first.flatMap({ doc.lines[$0] }) {
            line = first
        } else {
            return false
        }
        let pad = LocaleFileEditor.indent(lines[index(min(line, lines.count))])
        insert([LocaleFileEditor.entryLine(indent: max(pad, 2), key: key, entry)], beforeOriginal: line)
        return true
    }

    /// Sets the `source:` line of a list section (probe, distortions, answer_words, themes).
    mutating func setSectionSource(_ section: String, _ lock: String) -> Bool {
        guard let header = doc.sectionLines[section] else { return false }
        let h = index(header)
        var j = h + 1
        var childIndent: Int?
        while j < lines.count {
            let t = lines[j].trimmingCharacters(in: .whitespaces)
            if t.isEmpty || t.hasPrefix("#") { j += 1; continue }
            let ind = LocaleFileEditor.indent(lines[j])
            if ind == 0 { break }
            if childIndent == nil { childIndent = ind }
            if ind == childIndent, t.hasPrefix("source:") {
                lines[j] = String(repeating: " ", count: ind) + "source: \(LocaleWriter.quote(lock))"
                return true
            }
            j += 1
        }
        insert([String(repeating: " ", count: childIndent ?? 2) + "source: \(LocaleWriter.quote(lock))"], beforeOriginal: header + 1)
        return true
    }
}

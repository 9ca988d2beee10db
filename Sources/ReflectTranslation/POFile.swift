import Foundation
import ReflectCore
import ReflectEngine

/// gettext PO export and import of a locale's strings.
///
/// One entry per English key, in English order: `msgctxt` = key,
/// `msgid` = English, `msgstr` = translation (empty when missing),
/// `#, fuzzy` when stale or broken, `#, objc-format` when the string has
/// `%@` placeholders (so `msgfmt -c` checks them), `#.` the English file's
/// comments plus `reflect-key: KEY` (kept by po2xliff, which drops
/// msgctxt), `#` the translator's note. Word lists are not strings and stay
/// in the YAML files.
public enum POFile {
    /// A stale entry whose earlier English is in `history` carries it as
    /// gettext's previous msgid (`#| msgid "…"`), so the translator sees
    /// what changed.
    public static func export(_ doc: LocaleDocument, english: LocaleDocument, revisionDate: String,
                              history: EnglishHistory = EnglishHistory()) -> String {
        var out = [
            "# Reflect — \(doc.name) (\(doc.tag)) translation of locales/en.yaml",
            "# Import back with: reflect locales import FILE",
            "msgid \"\"",
            "msgstr \"\"",
            "\"Project-Id-Version: Reflect\\n\"",
            "\"PO-Revision-Date: \(revisionDate)\\n\"",
            "\"Last-Translator: \\n\"",
            "\"Language-Team: \(escape(doc.name))\\n\"",
            "\"Language: \(doc.tag)\\n\"",
            "\"MIME-Version: 1.0\\n\"",
            "\"Content-Type: text/plain; charset=UTF-8\\n\"",
            "\"Content-Transfer-Encoding: 8bit\\n\"",
            "\"X-Reflect-Locale: \(doc.tag)\\n\"",
        ]
        for key in english.order {
            guard let source = english.entries[key] else { continue }
            let entry = doc.entries[key]
            let state = TranslationState.of(key: key, entry: entry, english: english)
            out.append("")
            for c in english.comments[key] ?? [] { out.append("#. \(c)") }
            out.append("#. reflect-key: \(key)")
            for line in (entry?.note ?? "").split(separator: "\n", omittingEmptySubsequences: false) where entry?.note != nil {
                out.append("# \(line)")
            }
            var flags: [String] = []
            if entry != nil, state != .translated { flags.append("fuzzy") }
            if Template(source.text).hasPlaceholders { flags.append("objc-format") }
            if !flags.isEmpty { out.append("#, " + flags.joined(separator: ", ")) }
            if state == .stale, let was = history.text(of: entry?.source), was != source.text {
                out.append("#| msgid \"\(escape(was))\"")
            }
            out.append("msgctxt \"\(escape(key))\"")
            out.append("msgid \"\(escape(source.text))\"")
            out.append("msgstr \"\(escape(entry?.text ?? ""))\"")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// One parsed PO entry.
    struct Entry {
        var context: String?
        var id = ""
        var str = ""
        var flags: Set<String> = []
        var translatorComments: [String] = []
        var extracted: [String] = []
        /// The line of its `msgstr`, for messages.
        var line = 0

        var key: String? {
            context ?? extracted.first { $0.hasPrefix("reflect-key: ") }.map { String($0.dropFirst("reflect-key: ".count)) }
        }
    }

    /// Parses a PO file; errors name the line.
    static func parse(_ text: String, file: String) throws(EngineError) -> (language: String?, languageLine: Int?, entries: [Entry]) {
        // CRLF endings (a PO saved on Windows, as msgfmt accepts it) and a byte-order mark read as plain lines.
        let text = LineEndings.normalized(text)
        var entries: [Entry] = []
        var current = Entry()
        var field: WritableKeyPath<Entry, String>?
        var contextSeen = false
        var language: String?
        var languageLine: Int?
        var headerLine = 0
        func flush() {
            if contextSeen || !current.id.isEmpty || !current.str.isEmpty {
                if current.id.isEmpty && current.context == nil {
                    // The header: read the language from it.
                    // `Language:` is what tools and people set; Reflect's own
                    // `X-Reflect-Locale:` only when there is none.
                    for (offset, line) in current.str.split(separator: "\n").enumerated() {
                        for prefix in ["Language: ", "X-Reflect-Locale: "] where line.hasPrefix(prefix) {
                            let value = line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
                            if !value.isEmpty, language == nil || prefix == "Language: " {
                                language = value
                                languageLine = headerLine + 1 + offset
                            }
                        }
                    }
                } else {
                    entries.append(current)
                }
            }
            current = Entry()
            field = nil
            contextSeen = false
        }
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let lineNo = n + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if field != nil { flush() }
                if line.hasPrefix("#,") {
                    for f in line.dropFirst(2).split(separator: ",") { current.flags.insert(f.trimmingCharacters(in: .whitespaces)) }
                } else if line.hasPrefix("#.") {
                    current.extracted.append(line.dropFirst(2).trimmingCharacters(in: .whitespaces))
                } else if line.hasPrefix("#|") || line.hasPrefix("#:") || line.hasPrefix("#~") {
                    continue
                } else {
                    current.translatorComments.append(String(line.dropFirst(line.hasPrefix("# ") ? 2 : 1)))
                }
                continue
            }
            func value(after keyword: String) throws(EngineError) -> String {
                try unquote(line.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces), file: file, line: lineNo)
            }
            if line.hasPrefix("msgctxt ") {
                if field != nil { flush() }
                current.context = try value(after: "msgctxt")
                contextSeen = true
                field = nil
            } else if line.hasPrefix("msgid_plural") {
                throw .invalidContent(file: file, line: lineNo, message: "plural forms are not used by Reflect")
            } else if line.hasPrefix("msgid ") {
                if field == \Entry.str { flush() }
                current.id = try value(after: "msgid")
                field = \Entry.id
            } else if line.hasPrefix("msgstr ") {
                current.str = try value(after: "msgstr")
                current.line = lineNo
                if current.id.isEmpty && current.context == nil { headerLine = lineNo }
                field = \Entry.str
            } else if line.hasPrefix("\"") {
                guard let f = field else { throw .invalidContent(file: file, line: lineNo, message: "a string continuation without msgid/msgstr") }
                current[keyPath: f] += try unquote(line, file: file, line: lineNo)
            } else {
                throw .invalidContent(file: file, line: lineNo, message: "not PO syntax: \(line.prefix(40))")
            }
        }
        flush()
        return (language, languageLine, entries)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func unquote(_ s: String, file: String, line: Int) throws(EngineError) -> String {
        guard s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") else {
            throw .invalidContent(file: file, line: line, message: "expected a quoted string")
        }
        var out = ""
        var escaping = false
        for c in s.dropFirst().dropLast() {
            if escaping {
                switch c {
                case "n": out += "\n"
                case "t": out += "\t"
                case "r": out += "\r"
                case "\\": out += "\\"
                case "\"": out += "\""
                default: throw .invalidContent(file: file, line: line, message: "unknown escape \\\(c)")
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

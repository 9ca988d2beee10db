import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReflectCore
import ReflectEngine

/// XLIFF 1.2 export and import of a locale's strings.
///
/// A `trans-unit` per English key: `id` and `resname` = key, `source` =
/// English, `target` with `state` = `translated`, `needs-review-translation`
/// (stale or broken) or `new` (missing), `note from="developer"` = the
/// English comments, `note from="translator"` = the translator's note.
/// Import also reads what translate-toolkit's po2xliff writes from our PO
/// files (XLIFF 1.1, key in the `reflect-key:` developer note).
public enum XLIFFFile {
    public static func export(_ doc: LocaleDocument, english: LocaleDocument) -> String {
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">",
            "  <file original=\"locales/en.yaml\" source-language=\"en\" target-language=\"\(xml(doc.tag))\" datatype=\"plaintext\">",
            "    <body>",
        ]
        for key in english.order {
            guard let source = english.entries[key] else { continue }
            let entry = doc.entries[key]
            let state: String
            switch TranslationState.of(key: key, entry: entry, english: english) {
            case .translated: state = "translated"
            case .missing: state = "new"
            default: state = "needs-review-translation"
            }
            out.append("      <trans-unit id=\"\(xml(key))\" resname=\"\(xml(key))\" xml:space=\"preserve\">")
            out.append("        <source>\(xml(source.text))</source>")
            out.append("        <target state=\"\(state)\">\(xml(entry?.text ?? ""))</target>")
            for c in english.comments[key] ?? [] { out.append("        <note from=\"developer\">\(xml(c))</note>") }
            if let note = entry?.note { out.append("        <note from=\"translator\">\(xml(note))</note>") }
            out.append("      </trans-unit>")
        }
        out += ["    </body>", "  </file>", "</xliff>"]
        return out.joined(separator: "\n") + "\n"
    }

    static func xml(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// One trans-unit as read.
    struct Unit {
        var id = ""
        var resname: String?
        var source = ""
        var target: String?
        var state: String?
        var approved: String?
        var restype: String?
        var notes: [(from: String?, text: String)] = []
        var contexts: [String] = []

        var key: String? {
            if let resname { return resname }
            for text in notes.map(\.text) + contexts {
                for line in text.split(separator: "\n") where line.hasPrefix("reflect-key: ") {
                    return String(line.dropFirst("reflect-key: ".count))
                }
            }
            return id.isEmpty || id.allSatisfy(\.isNumber) ? nil : id
        }

        /// Confirmed by the translator (vs. needing review).
        var isFinal: Bool {
            switch state {
            case "translated", "final", "signed-off": return approved != "no"
            case nil: return approved == "yes"
            default: return false
            }
        }
    }

    static func parse(_ data: Data, file: String) throws(EngineError) -> (language: String?, units: [Unit]) {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else {
            throw .invalidContent(file: file, line: parser.lineNumber, message: "malformed XLIFF: \(parser.parserError.map { "\($0)" } ?? "parse error")")
        }
        var language = reader.targetLanguage
        if language == nil, let header = reader.units.first(where: { $0.restype == "x-gettext-domain-header" }) {
            for line in (header.target ?? header.source).split(separator: "\n") {
                for prefix in ["X-Reflect-Locale: ", "Language: "] where line.hasPrefix(prefix) && language == nil {
                    language = line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return (language, reader.units.filter { $0.restype != "x-gettext-domain-header" })
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var units: [Unit] = []
        var targetLanguage: String?
        private var unit: Unit?
        private var text = ""
        private var noteFrom: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            switch name {
            case "file": targetLanguage = attributes["target-language"]
            case "trans-unit":
                unit = Unit(id: attributes["id"] ?? "", resname: attributes["resname"], approved: attributes["approved"],
                            restype: attributes["restype"])
            case "target": unit?.state = attributes["state"]
            case "note": noteFrom = attributes["from"]
            default: break
            }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "source": unit?.source = text
            case "target": unit?.target = text
            case "note": unit?.notes.append((noteFrom, text))
            case "context": unit?.contexts.append(text)
            case "trans-unit":
                if let u = unit { units.append(u) }
                unit = nil
            default: break
            }
        }
    }
}

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
    /// A stale unit whose earlier English is in `history` carries it as
    /// `<note from="previous-source">` (XLIFF 1.2 has no field of its own
    /// for it; import ignores the note).
    public static func export(_ doc: LocaleDocument, english: LocaleDocument, history: EnglishHistory = EnglishHistory()) -> String {
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
            let translation = TranslationState.of(key: key, entry: entry, english: english)
            switch translation {
            case .translated: state = "translated"
            case .missing: state = "new"
            default: state = "needs-review-translation"
            }
            out.append("      <trans-unit id=\"\(xml(key))\" resname=\"\(xml(key))\" xml:space=\"preserve\">")
            out.append("        <source>\(xml(source.text))</source>")
            out.append("        <target state=\"\(state)\">\(xml(entry?.text ?? ""))</target>")
            for c in english.comments[key] ?? [] { out.append("        <note from=\"developer\">\(xml(c))</note>") }
            if let note = entry?.note { out.append("        <note from=\"translator\">\(xml(note))</note>") }
            if translation == .stale, let was = history.text(of: entry?.source), was != source.text {
                out.append("        <note from=\"previous-source\">\(xml(was))</note>")
            }
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
        /// The line of its `<target>` (else of the `<trans-unit>`), for messages.
        var line = 0

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

    /// Parses an XLIFF file. A file that is not well-formed XML, or that
    /// ends before its `</xliff>` (cut off), is refused naming the line
    /// where the problem is and what it is, in words; nothing is imported.
    static func parse(_ data: Data, file: String) throws(EngineError) -> (language: String?, units: [Unit]) {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        let lines = max(1, data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
                           - (data.last == UInt8(ascii: "\n") ? 1 : 0))
        // The parser's own line after a failure can point past the end: the
        // line seen when the error was reported, within the file, is used.
        func at(_ line: Int?) -> Int { min(max(line ?? parser.lineNumber, 1), lines) }
        guard parser.parse(), reader.error == nil else {
            let code = (reader.error ?? parser.parserError).map { ($0 as NSError).code } ?? 0
            throw .invalidContent(file: file, line: at(reader.errorLine), message: "malformed XLIFF: " + XLIFFFile.explain(code))
        }
        guard reader.closed else {
            throw .invalidContent(file: file, line: lines, message: "malformed XLIFF: the file ends before </xliff> (was it cut off?); nothing was imported")
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

    /// An XML error, in words a translator can act on.
    static func explain(_ code: Int) -> String {
        // libxml2's codes, as NSXMLParserErrorDomain reports them.
        switch code {
        case 76: "a closing tag does not match the tag it closes (a misspelt or missing </target>, </source> or </trans-unit>?)"
        case 38, 68, 72: "a '<' that does not start a tag: write it as &lt; in the text"
        case 22, 23, 26: "an '&' that does not start an entity: write it as &amp; in the text"
        case 5, 85: "the file ends before its elements are closed (was it cut off?)"
        case 73, 77: "a tag is not closed with '>'"
        case 39, 40, 41: "an attribute's value is not in matching quotes"
        case 86: "there is text after the end of the document"
        case 3, 4: "the file is empty or is not XML"
        default: "the file is not well-formed XML (XML error \(code))"
        }
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var units: [Unit] = []
        var targetLanguage: String?
        /// The first error the parser reported, and the line it was at then.
        var error: (any Error)?
        var errorLine: Int?
        /// Whether `</xliff>` was seen.
        var closed = false

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            guard error == nil else { return }
            error = parseError
            errorLine = parser.lineNumber
        }

        func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
            self.parser(parser, parseErrorOccurred: validationError)
        }
        private var unit: Unit?
        private var text = ""
        private var noteFrom: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            switch name {
            case "file": targetLanguage = attributes["target-language"]
            case "trans-unit":
                unit = Unit(id: attributes["id"] ?? "", resname: attributes["resname"], approved: attributes["approved"],
                            restype: attributes["restype"], line: parser.lineNumber)
            case "target":
                unit?.state = attributes["state"]
                unit?.line = parser.lineNumber
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
            case "xliff": closed = true
            default: break
            }
        }
    }
}

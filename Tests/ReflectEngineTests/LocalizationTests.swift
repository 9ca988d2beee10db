import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine
@testable import ReflectTranslation

/// A copy of the repository's flows and locales in a temporary directory,
/// so a test can edit content freely.
func contentCopy() throws -> ContentLibrary {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-content-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for sub in ["flows", "locales", "personalities"] {
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(sub), to: dir.appendingPathComponent(sub))
    }
    return ContentLibrary(root: ContentRoot(dir))
}

func replaceInFile(_ url: URL, _ old: String, _ new: String) throws {
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains(old), "\(url.lastPathComponent) does not contain \(old)")
    try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
}

@Suite("Localization")
struct LocalizationTests {
    func negativeRun(_ tag: String, situation: String, thought: String) throws -> [String] {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        let session = try FlowSession.open(try library.catalog.source(for: "reflection", mood: .bad),
                                           language: try library.language(for: tag), options: options())
        return try drive(session, [.number(6), .text(situation), .text(thought)]).prompts.map(\.text)
    }

    @Test("the lock is the start of SHA-256, as `sha256sum` computes it (FIPS 180-4 test vectors)")
    func sha256() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        #expect(SourceLock.of("What happened today that affected your mood?") == String(SHA256.hex("What happened today that affected your mood?").prefix(8)))
    }

    @Test("a German negative run asks in German and quotes the answer in „…“")
    func german() throws {
        let texts = try negativeRun("de", situation: "Mein Chef hat meinen Bericht vor allen kritisiert",
                                    thought: "Ich mache immer alles falsch")
        #expect(texts[0].hasPrefix("Bevor wir anfangen"))
        #expect(texts[2].contains("„Mein Chef hat meinen Bericht vor allen kritisiert“"))
        #expect(texts[3].contains("„Ich mache immer alles falsch“"))
    }

    @Test("a Japanese negative run asks in Japanese and quotes the answer in 「…」")
    func japanese() throws {
        let texts = try negativeRun("ja", situation: "上司にみんなの前で報告書を批判された", thought: "私はいつも失敗ばかりだ")
        #expect(texts[2].contains("「上司にみんなの前で報告書を批判された」"))
        #expect(texts[3].contains("「私はいつも失敗ばかりだ」"))
    }

    @Test("every locale has every English key translated and confirmed, with its own quotation marks")
    func allTranslated() throws {
        let tools = LocaleTools(library: ContentLibrary(root: ContentRoot(repositoryRoot)))
        let marks = ["de": "„%@“", "fr": "« %@ »", "ja": "「%@」", "es": "«%@»", "pt-BR": "“%@”", "ko": "“%@”"]
        let en = try tools.english()
        for status in try tools.status() {
            #expect(status.missing.isEmpty && status.stale.isEmpty && status.broken.isEmpty && status.unknown.isEmpty,
                    "\(status.locale): \(status)")
            #expect(status.staleLists.isEmpty && status.missingLists.isEmpty, "\(status.locale) lists")
            let doc = try #require(try tools.library.document(status.locale))
            let q2 = try #require(doc.entries["reflection.negative.q2"]?.text)
            let mark = try #require(marks[status.locale])
            #expect(q2.contains(mark.replacingOccurrences(of: " ", with: "\u{00A0}")) || q2.contains(mark), "\(status.locale): \(q2)")
            #expect(q2 != en.entries["reflection.negative.q2"]?.text, "\(status.locale) is an English copy")
        }
    }

    @Test("the fallback chain: pt-BR → pt → en, showing only translated entries")
    func fallbackChain() throws {
        #expect(Localizer.fallbackTags(for: "pt-BR") == ["pt-BR", "pt", "en"])
        #expect(Localizer.fallbackTags(for: "de") == ["de", "en"])
        let library = try contentCopy()
        let file = library.localesDirectory.appendingPathComponent("pt-BR.yaml")
        // Break one translation's placeholder and make another stale: both fall back to English.
        let doc = try #require(try library.document("pt-BR"))
        let q2 = try #require(doc.entries["reflection.negative.q2"])
        try replaceInFile(file, LocaleWriter.quote(q2.text), LocaleWriter.quote(q2.text.replacingOccurrences(of: "%@", with: "isso")))
        let q1 = try #require(doc.entries["reflection.negative.q1"]?.source)
        try replaceInFile(file, "\"\(q1)\"", "\"00000000\"")
        let language = try library.language(for: "pt-BR")
        #expect(language.localizer.string("reflection.negative.q2") == "What thought kept coming back about '%@'?")
        #expect(language.localizer.source(of: "reflection.negative.q2") == "en")
        #expect(language.localizer.string("reflection.negative.q1") == "What happened today that affected your mood?")
        #expect(language.localizer.source(of: "reflection.negative.q4") == "pt-BR")
        let status = try #require(try LocaleTools(library: library).status("pt-BR").first)
        #expect(status.broken.map(\.key) == ["reflection.negative.q2"])
        #expect(status.stale == ["reflection.negative.q1"])
        // A locale with no file at all (no "it" locale) is refused with the
        // available ones, never shown in English silently (issue 18, item 9).
        #expect(throws: EngineError.unknownLocale("it", available: library.availableLocales())) { try library.language(for: "it") }
    }

    @Test("editing one English question makes exactly that key stale in all six locales; confirming clears it in one only")
    func staleDetection() throws {
        let library = try contentCopy()
        let tools = LocaleTools(library: library)
        try replaceInFile(library.localesDirectory.appendingPathComponent("en.yaml"),
                          "What happened today that affected your mood?", "What happened today that touched your mood?")
        let before = try tools.status()
        #expect(before.count == 6)
        for s in before { #expect(s.stale == ["reflection.negative.q1"], "\(s.locale): \(s.stale)") }
        // Stale entries are not shown: German falls back to the new English.
        #expect(try library.language(for: "de").localizer.string("reflection.negative.q1") == "What happened today that touched your mood?")

        try tools.confirm("de", keys: ["reflection.negative.q1"], all: false, lists: false)
        let after = try tools.status()
        for s in after { #expect(s.stale == (s.locale == "de" ? [] : ["reflection.negative.q1"]), "\(s.locale)") }
        #expect(try library.language(for: "de").localizer.string("reflection.negative.q1")?.hasPrefix("Was ist heute passiert") == true)

        // Changing an English word list makes that list stale everywhere.
        try replaceInFile(library.localesDirectory.appendingPathComponent("en.yaml"), "    - same old\n", "")
        for s in try tools.status() { #expect(s.staleLists == ["probe"], "\(s.locale)") }
    }

    @Test("a translation missing its %@ fails the check, naming the file, line and key")
    func placeholderCheck() throws {
        let library = try contentCopy()
        let doc = try #require(try library.document("fr"))
        let q4 = try #require(doc.entries["reflection.negative.q4"])
        try replaceInFile(library.localesDirectory.appendingPathComponent("fr.yaml"), LocaleWriter.quote(q4.text),
                          LocaleWriter.quote(q4.text.replacingOccurrences(of: "%@", with: "cette pensée")))
        let findings = LocaleTools(library: library).check().filter { $0.severity == .error }
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.code == .localePlaceholders)
        #expect(finding.code.name == "locale.placeholders")
        #expect(finding.file == "locales/fr.yaml")
        #expect(finding.key == "reflection.negative.q4")
        #expect(finding.line == doc.lines["reflection.negative.q4"])
        #expect(finding.description.hasPrefix("locales/fr.yaml:\(finding.line ?? 0): error L002: 'reflection.negative.q4' (fr): "))
    }

    @Test("unknown keys and malformed files are check errors with file and line")
    func otherCheckErrors() throws {
        let library = try contentCopy()
        try replaceInFile(library.localesDirectory.appendingPathComponent("es.yaml"), "strings:\n", "strings:\n  reflection.negative.q9: \"¿Qué más?\"\n")
        try replaceInFile(library.localesDirectory.appendingPathComponent("ko.yaml"), "matching: substring", "matching: [substring")
        let errors = LocaleTools(library: library).check().filter { $0.severity == .error }
        #expect(errors.contains { $0.code == .localeUnknownKey && $0.file == "locales/es.yaml" && $0.key == "reflection.negative.q9" && $0.line != nil })
        #expect(errors.contains { $0.code == .localeMalformed && $0.file == "locales/ko.yaml" && $0.line != nil })
    }

    @Test("PO and XLIFF export then import leave every locale file byte-for-byte unchanged")
    func losslessRoundTrip() throws {
        let library = try contentCopy()
        let tools = LocaleTools(library: library)
        // Make one entry stale and give one a translator note, so both states travel.
        let de = library.localesDirectory.appendingPathComponent("de.yaml")
        let doc = try #require(try library.document("de"))
        let lock = try #require(doc.entries["reflection.negative.q5"]?.source)
        try replaceInFile(de, "\"\(lock)\"", "\"0badc0de\"")
        let hint = try #require(doc.entries["intensity.hint"])
        try replaceInFile(de, "source: \"\(try #require(hint.source))\" }", "source: \"\(try #require(hint.source))\", note: \"kurz halten\" }")
        for tag in ["de", "es", "fr", "ja", "ko", "pt-BR"] {
            let file = library.localesDirectory.appendingPathComponent("\(tag).yaml")
            let before = try String(contentsOf: file, encoding: .utf8)
            let dir = FileManager.default.temporaryDirectory
            let po = dir.appendingPathComponent("\(tag)-\(UUID().uuidString).po")
            try tools.exportPO(tag, revisionDate: "2026-11-22 10:00+0000").write(to: po, atomically: true, encoding: .utf8)
            let s1 = try tools.importFile(po, tag: nil)
            #expect(s1.updated.isEmpty, "\(tag) PO changed \(s1.updated)")
            #expect(try String(contentsOf: file, encoding: .utf8) == before, "\(tag) PO round trip")
            let xlf = dir.appendingPathComponent("\(tag)-\(UUID().uuidString).xlf")
            try tools.exportXLIFF(tag).write(to: xlf, atomically: true, encoding: .utf8)
            let s2 = try tools.importFile(xlf, tag: nil)
            #expect(s2.updated.isEmpty, "\(tag) XLIFF changed \(s2.updated)")
            #expect(try String(contentsOf: file, encoding: .utf8) == before, "\(tag) XLIFF round trip")
        }
        let po = try tools.exportPO("de", revisionDate: "x")
        #expect(po.contains("#. reflect-key: reflection.negative.q5\n#, fuzzy, objc-format\nmsgctxt \"reflection.negative.q5\""))
        #expect(po.contains("# kurz halten\nmsgctxt \"intensity.hint\""))
        #expect(try tools.exportXLIFF("de").contains("<target state=\"needs-review-translation\">"))
    }

    @Test("a locale with a broken or stale entry round-trips through PO and XLIFF untouched; editing that entry still broken is refused")
    func brokenEntryRoundTrip() throws {
        let library = try contentCopy()
        let tools = LocaleTools(library: library)
        let de = library.localesDirectory.appendingPathComponent("de.yaml")
        let doc = try #require(try library.document("de"))
        let q2 = try #require(doc.entries["reflection.negative.q2"])
        // Broken: the translation lost its %@ (the check's L002).
        try replaceInFile(de, LocaleWriter.quote(q2.text), LocaleWriter.quote("Welcher Gedanke kam dir immer wieder?"))
        // Stale and broken: the English of q1 now quotes an answer.
        try replaceInFile(library.localesDirectory.appendingPathComponent("en.yaml"), "\"What happened today that affected your mood?\"",
                          "\"What happened today that affected your mood, after '%@'?\"")
        let before = try String(contentsOf: de, encoding: .utf8)
        let dir = FileManager.default.temporaryDirectory
        let po = dir.appendingPathComponent("de-\(UUID().uuidString).po")
        try tools.exportPO("de", revisionDate: "2026-11-22 10:00+0000").write(to: po, atomically: true, encoding: .utf8)
        #expect(try tools.importFile(po, tag: nil).updated.isEmpty)
        let xlf = dir.appendingPathComponent("de-\(UUID().uuidString).xlf")
        try tools.exportXLIFF("de").write(to: xlf, atomically: true, encoding: .utf8)
        #expect(try tools.importFile(xlf, tag: nil).updated.isEmpty)
        #expect(try String(contentsOf: de, encoding: .utf8) == before)
        // A translator who edits the broken entry and leaves it broken is refused.
        let edited = try String(contentsOf: po, encoding: .utf8)
            .replacingOccurrences(of: "msgstr \"Welcher Gedanke kam dir immer wieder?\"", with: "msgstr \"Welcher Gedanke kam immer wieder?\"")
        try edited.write(to: po, atomically: true, encoding: .utf8)
        let error = try #require(throws: EngineError.self) { try tools.importFile(po, tag: nil) }
        #expect(error.message.contains("'reflection.negative.q2': the translation lost %@"), "\(error)")
        #expect(try String(contentsOf: de, encoding: .utf8) == before)
    }

    @Test("locale files, their history and a PO with CRLF endings (Git's autocrlf on Windows) work as LF ones: what changed, confirm, import")
    func crlfFiles() throws {
        let library = try contentCopy()
        let tools = LocaleTools(library: library)
        func crlf(_ url: URL) throws {
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(to: url, atomically: true, encoding: .utf8)
        }
        let locales = library.localesDirectory
        for name in ["en.yaml", "de.yaml", "history/en.yaml"] { try crlf(locales.appendingPathComponent(name)) }
        try replaceInFile(locales.appendingPathComponent("en.yaml"), "What happened today that affected your mood?",
                          "What happened today that touched your mood?")
        // What changed: the English it was translated from is read from the CRLF history.
        let status = try #require(try tools.status("de").first)
        #expect(status.stale == ["reflection.negative.q1"])
        #expect(status.changes.map(\.was) == ["What happened today that affected your mood?"], "\(status.changes)")
        // Confirming rewrites that one line and keeps the file's CRLF endings.
        let de = locales.appendingPathComponent("de.yaml")
        let before = try String(contentsOf: de, encoding: .utf8)
        try tools.confirm("de", keys: ["reflection.negative.q1"], all: false, lists: false)
        let after = try String(contentsOf: de, encoding: .utf8)
        #expect(try tools.status("de").first?.stale == [])
        let (b, a) = (before.components(separatedBy: "\r\n"), after.components(separatedBy: "\r\n"))
        #expect(a.count == b.count && zip(a, b).filter { $0 != $1 }.count == 1, "more than one line changed")
        #expect(!after.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a line lost its CRLF")
        // A PO saved with CRLF endings (msgfmt reads it) imports.
        var po = try tools.exportPO("de", revisionDate: "x")
        let old = try #require(try library.document("de")?.entries["intensity.hint"]?.text)
        po = po.replacingOccurrences(of: "msgstr \"\(old)\"", with: "msgstr \"0 = überhaupt nicht, 10 = so stark wie nie\"")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("de-\(UUID().uuidString).po")
        try po.replacingOccurrences(of: "\n", with: "\r\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try tools.importFile(file, tag: nil).updated == ["intensity.hint"])
        #expect(try library.document("de")?.entries["intensity.hint"]?.text == "0 = überhaupt nicht, 10 = so stark wie nie")
    }

    @Test("importing a translation of an older English text leaves it stale; an unknown key imports nothing")
    func importSemantics() throws {
        let library = try contentCopy()
        let tools = LocaleTools(library: library)
        var po = try tools.exportPO("es", revisionDate: "x")
        try replaceInFile(library.localesDirectory.appendingPathComponent("en.yaml"), "What happened today that affected your mood?",
                          "What happened today that changed your mood?")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("es-\(UUID().uuidString).po")
        try po.write(to: file, atomically: true, encoding: .utf8)
        _ = try tools.importFile(file, tag: nil)
        #expect(try tools.status("es").first?.stale == ["reflection.negative.q1"])
        po = po.replacingOccurrences(of: "msgctxt \"intensity.hint\"", with: "msgctxt \"intensity.hintt\"")
        try po.write(to: file, atomically: true, encoding: .utf8)
        let before = try String(contentsOf: library.localesDirectory.appendingPathComponent("es.yaml"), encoding: .utf8)
        let error = try #require(throws: EngineError.self) { try tools.importFile(file, tag: nil) }
        #expect(error.message.contains("'intensity.hintt' is not a key"))
        #expect(try String(contentsOf: library.localesDirectory.appendingPathComponent("es.yaml"), encoding: .utf8) == before)
    }
}

import Foundation
import ReflectCore
import ReflectEngine

/// Translator workflows on a content directory: status, check, confirm,
/// PO / XLIFF export and import.
public struct LocaleTools: Sendable {
    public let library: ContentLibrary

    public init(library: ContentLibrary) { self.library = library }

    func english() throws(EngineError) -> LocaleDocument {
        guard let en = try library.document("en") else {
            throw .invalidContent(file: "locales/en.yaml", line: nil, message: "the source locale file is missing")
        }
        return en
    }

    func translation(_ tag: String) throws(EngineError) -> LocaleDocument {
        guard tag != "en" else {
            throw .invalidContent(file: "locales/en.yaml", line: nil, message: "English is the source, not a translation")
        }
        guard let doc = try library.document(tag) else {
            throw .invalidContent(file: "locales/\(tag).yaml", line: nil,
                                  message: "no such locale (available: \(library.availableLocales().joined(separator: ", ")))")
        }
        return doc
    }

    /// Status of one translation, or of all.
    public func status(_ tag: String? = nil) throws(EngineError) -> [LocaleStatus] {
        let en = try english()
        let tags = tag.map { [$0] } ?? library.availableLocales().filter { $0 != "en" }
        var out: [LocaleStatus] = []
        for t in tags { out.append(LocaleStatus(try translation(t), english: en)) }
        return out
    }

    /// Every problem in every locale file. Malformed files are findings, not
    /// thrown errors, so one broken file does not hide the others.
    public func check() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let en: LocaleDocument
        do { en = try english() } catch {
            return [Diagnostic(.localeMalformed, file: error.file ?? "locales/en.yaml", line: error.line,
                               locale: "en", message: error.message)]
        }
        for tag in library.availableLocales() where tag != "en" {
            let doc: LocaleDocument
            do { doc = try translation(tag) } catch {
                findings.append(Diagnostic(.localeMalformed, file: error.file ?? "locales/\(tag).yaml",
                                           line: error.line, locale: tag, message: error.message))
                continue
            }
            let s = LocaleStatus(doc, english: en)
            func add(_ code: DiagnosticCode, _ key: String?, _ message: String) {
                findings.append(Diagnostic(code, file: doc.file, line: key.flatMap { doc.lines[$0] },
                                           locale: tag, key: key, message: message))
            }
            for b in s.broken {
                add(b.reason.hasPrefix("placeholders") ? .localePlaceholders : .localeEmpty, b.key, b.reason)
            }
            for k in s.unknown { add(.localeUnknownKey, k, "not a key of locales/en.yaml (typo, or removed from English?)") }
            for k in s.missing { add(.localeMissing, k, "not translated yet (English is shown)") }
            for k in s.stale { add(.localeStale, k, "the English text changed since this was translated (English is shown until confirmed)") }
            for l in s.missingLists {
                if l == "safety" {
                    add(.localeMissingSafety, nil, "no safety section: crisis language in this language would go unrecognised")
                } else {
                    add(.localeMissingList, nil, "no \(l) word list (the English one is used)")
                }
            }
            for l in s.staleLists { add(.localeStaleList, nil, "the English \(l) list changed since this one was confirmed") }
        }
        return findings
    }

    /// Marks keys (or all, or the word lists) as matching the current
    /// English, and rewrites the file. Broken entries are never confirmed.
    /// Returns the keys confirmed.
    @discardableResult
    public func confirm(_ tag: String, keys: [String], all: Bool, lists: Bool) throws(EngineError) -> [String] {
        let en = try english()
        let original = try translation(tag)
        var doc = original
        var confirmed: [String] = []
        for key in all ? en.order : keys {
            guard let source = en.entries[key] else {
                throw .invalidContent(file: doc.file, line: nil, message: "'\(key)' is not a key of locales/en.yaml")
            }
            guard var entry = doc.entries[key] else {
                if all { continue }
                throw .invalidContent(file: doc.file, line: nil, message: "'\(key)' is not translated yet")
            }
            if case .broken(let reason) = TranslationState.of(key: key, entry: entry, english: en) {
                if all { continue }
                throw .invalidContent(file: doc.file, line: doc.lines[key], message: "'\(key)' cannot be confirmed: \(reason)")
            }
            entry.source = SourceLock.of(source.text)
            doc.entries[key] = entry
            confirmed.append(key)
        }
        if lists || all {
            if doc.probe != nil { doc.probe?.source = en.probeLock }
            if doc.distortions != nil { doc.distortions?.source = en.distortionsLock }
            if doc.answerWords != nil { doc.answerWords?.source = en.answerWordsLock }
            if doc.safety != nil { doc.safety?.source = en.safetyLock }
            if doc.themes != nil { doc.themes?.source = en.themesLock }
        }
        try save(doc, original: original, english: en)
        return confirmed
    }

    public func exportPO(_ tag: String, revisionDate: String) throws(EngineError) -> String {
        POFile.export(try translation(tag), english: try english(), revisionDate: revisionDate)
    }

    public func exportXLIFF(_ tag: String) throws(EngineError) -> String {
        XLIFFFile.export(try translation(tag), english: try english())
    }

    /// What an import changed.
    public struct ImportSummary: Sendable, Equatable {
        public var locale: String
        public var updated: [String] = []
        public var unchanged = 0
        public var untranslated = 0
    }

    /// Imports a PO or XLIFF file into its locale (from the file, or `tag`).
    /// A confirmed entry gets the lock of the English text *in the file*, so
    /// if English changed since the export, the import is stale, as it should
    /// be. An entry needing review keeps its previous lock. Unknown keys are
    /// refused before anything is written.
    public func importFile(_ url: URL, tag: String?) throws(EngineError) -> ImportSummary {
        let name = url.lastPathComponent
        guard let data = try? Data(contentsOf: url) else { throw .invalidContent(file: name, line: nil, message: "cannot read the file") }
        var language: String?
        var items: [(key: String, english: String, text: String, final: Bool, note: String?)] = []
        let looksXML = data.prefix(100).contains(UInt8(ascii: "<"))
        if looksXML {
            let parsed = try XLIFFFile.parse(data, file: name)
            language = parsed.language
            for u in parsed.units {
                guard let key = u.key else { throw .invalidContent(file: name, line: nil, message: "a trans-unit without a key (\(u.source.prefix(40)))") }
                let note = u.notes.filter { $0.from == "translator" || $0.from == "po-translator" }.map(\.text)
                items.append((key, u.source, u.target ?? "", u.isFinal, note.isEmpty ? nil : note.joined(separator: "\n")))
            }
        } else {
            let parsed = try POFile.parse(String(decoding: data, as: UTF8.self), file: name)
            language = parsed.language
            for e in parsed.entries {
                guard let key = e.key else { throw .invalidContent(file: name, line: nil, message: "an entry without msgctxt (\(e.id.prefix(40)))") }
                items.append((key, e.id, e.str, !e.flags.contains("fuzzy"),
                              e.translatorComments.isEmpty ? nil : e.translatorComments.joined(separator: "\n")))
            }
        }
        guard let target = tag ?? language else {
            throw .invalidContent(file: name, line: nil, message: "the file does not say its language; pass --locale TAG")
        }
        let en = try english()
        let original = try translation(target)
        var doc = original
        var summary = ImportSummary(locale: target)
        for item in items {
            guard en.entries[item.key] != nil else {
                throw .invalidContent(file: name, line: nil, message: "'\(item.key)' is not a key of locales/en.yaml; nothing was imported")
            }
        }
        for item in items {
            guard !item.text.isEmpty else {
                summary.untranslated += 1
                continue
            }
            let old = doc.entries[item.key]
            let new = LocaleDocument.Entry(text: item.text, source: item.final ? SourceLock.of(item.english) : old?.source, note: item.note)
            if new == old {
                summary.unchanged += 1
            } else {
                doc.entries[item.key] = new
                if old == nil { doc.order.append(item.key) }
                summary.updated.append(item.key)
            }
        }
        try save(doc, original: original, english: en)
        return summary
    }

    /// Writes `doc` over `original`: edited in place (layout and comments
    /// kept) when possible, else in canonical form. The result is re-read and
    /// must give back `doc`, or nothing is written.
    func save(_ doc: LocaleDocument, original: LocaleDocument, english en: LocaleDocument) throws(EngineError) {
        let url = library.localesDirectory.appendingPathComponent("\(doc.tag).yaml")
        var text = LocaleWriter.write(doc, englishOrder: en.order)
        if let source = try? String(contentsOf: url, encoding: .utf8) {
            var editor = LocaleFileEditor(text: source, document: original)
            var ok = true
            var seen = Set<String>()
            for key in en.order + doc.order where seen.insert(key).inserted && doc.entries[key] != original.entries[key] {
                guard let entry = doc.entries[key] else { ok = false; break }
                ok = ok && editor.set(key, entry, englishOrder: en.order)
            }
            for (section, new, old) in [("probe", doc.probe?.source, original.probe?.source),
                                        ("distortions", doc.distortions?.source, original.distortions?.source),
                                        ("answer_words", doc.answerWords?.source, original.answerWords?.source),
                                        ("safety", doc.safety?.source, original.safety?.source),
                                        ("themes", doc.themes?.source, original.themes?.source)] where new != old {
                if let new { ok = ok && editor.setSectionSource(section, new) }
            }
            if ok, let reread = try? LocaleFile.document(editor.text, file: doc.file),
               reread.entries == doc.entries, reread.probe == doc.probe, reread.distortions == doc.distortions,
               reread.answerWords == doc.answerWords, reread.safety == doc.safety, reread.themes == doc.themes {
                text = editor.text
            }
        }
        // Never write a file the loader would refuse.
        _ = try LocaleFile.document(text, file: doc.file)
        do { try text.write(to: url, atomically: true, encoding: .utf8) } catch {
            throw .invalidContent(file: doc.file, line: nil, message: "cannot write: \(error.localizedDescription)")
        }
    }
}

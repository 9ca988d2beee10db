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
        let history = EnglishHistory(library: library)
        for t in tags { out.append(LocaleStatus(try translation(t), english: en, history: history)) }
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
            for k in s.unconfirmed { add(.localeStale, k, "translated, but never confirmed against the English (English is shown until confirmed)") }
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
        POFile.export(try translation(tag), english: try english(), revisionDate: revisionDate, history: EnglishHistory(library: library))
    }

    public func exportXLIFF(_ tag: String) throws(EngineError) -> String {
        XLIFFFile.export(try translation(tag), english: try english(), history: EnglishHistory(library: library))
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
        var languageLine: Int?
        var items: [(key: String, english: String, text: String, final: Bool, note: String?, line: Int)] = []
        let looksXML = data.prefix(100).contains(UInt8(ascii: "<"))
        if looksXML {
            let parsed = try XLIFFFile.parse(data, file: name)
            language = parsed.language
            for u in parsed.units {
                guard let key = u.key else {
                    throw .invalidContent(file: name, line: u.line, message: "a trans-unit without a key (\(u.source.prefix(40)))")
                }
                let note = u.notes.filter { $0.from == "translator" || $0.from == "po-translator" }.map(\.text)
                items.append((key, u.source, u.target ?? "", u.isFinal, note.isEmpty ? nil : note.joined(separator: "\n"), u.line))
            }
        } else {
            let parsed = try POFile.parse(String(decoding: data, as: UTF8.self), file: name)
            language = parsed.language
            languageLine = parsed.languageLine
            for e in parsed.entries {
                guard let key = e.key else {
                    throw .invalidContent(file: name, line: e.line, message: "an entry without msgctxt (\(e.id.prefix(40)))")
                }
                items.append((key, e.id, e.str, !e.flags.contains("fuzzy"),
                              e.translatorComments.isEmpty ? nil : e.translatorComments.joined(separator: "\n"), e.line))
            }
        }
        // The file says which language it is: it must be the one named, or a
        // file translated for one language would overwrite another's.
        if let tag, let language, LocaleTools.sameLanguage(tag, language) == false {
            throw .invalidContent(file: name, line: languageLine,
                                  message: "the file is a translation into '\(language)' (its Language header), not '\(tag)'; nothing was imported "
                                      + "(import it with --locale \(language), or export a file for \(tag): reflect locales export \(tag))")
        }
        guard let typed = tag ?? language else {
            throw .invalidContent(file: name, line: nil, message: "the file does not say its language; pass --locale TAG")
        }
        let target = (try? library.resolveLocale(typed)) ?? typed
        let en = try english()
        let original = try translation(target)
        var doc = original
        var summary = ImportSummary(locale: target)
        for item in items {
            guard let source = en.entries[item.key] else {
                throw .invalidContent(file: name, line: item.line, message: "'\(item.key)' is not a key of locales/en.yaml; nothing was imported")
            }
            // Placeholders are checked like `msgfmt -c`: a translation must keep
            // exactly the %@ / %1$@ of the English it translates (the file's,
            // and today's, which it will be shown for).
            guard !item.text.isEmpty else { continue }
            // An entry still needing review (fuzzy) that comes back exactly
            // as the locale file has it changes nothing and is not checked
            // (`msgfmt -c` skips fuzzy entries too): an export of a locale
            // with a broken or stale entry imports back unchanged.
            if !item.final, original.entries[item.key]?.text == item.text { continue }
            let have = Template(item.text).arguments
            for (english, which) in [(item.english, "the English in the file"), (source.text, "the English of locales/en.yaml")] {
                let want = Template(english).arguments
                guard have != want else { continue }
                let lost = want.subtracting(have).sorted().map { want.count == 1 && $0 == 1 ? "%@" : "%\($0)$@" }
                let extra = have.subtracting(want).sorted().map { "%\($0)$@" }
                let what = !lost.isEmpty ? "lost \(lost.joined(separator: " "))" : "has \(extra.joined(separator: " ")), which"
                throw .invalidContent(file: name, line: item.line,
                                      message: "'\(item.key)': the translation \(what) \(lost.isEmpty ? "is not in" : "that is in") \(which) "
                                          + "(placeholders must be the same); nothing was imported")
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
        try save(doc, original: original, english: en, alsoTranslatedFrom: items.filter { $0.final }.map { $0.english })
        return summary
    }

    /// Starts a new language: writes `locales/TAG.yaml` with its name, its
    /// matching mode and no strings yet (every string then shows in English
    /// until translated; `reflect locales status TAG` lists them all as
    /// missing). Refuses a tag that is not a language tag (`it`, `pt-PT`,
    /// `zh-Hant`) and a locale that already exists. Returns the file's path
    /// as shown (`locales/it.yaml`).
    public func newLocale(_ tag: String, name: String, matching: String) throws(EngineError) -> String {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLowercase }),
              parts.count <= 2, parts.dropFirst().allSatisfy({ (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else {
            throw .invalidContent(file: "locales/\(tag).yaml", line: nil,
                                  message: "'\(tag)' is not a locale tag: use a lowercase language code, optionally a region or script (it, pt-PT, zh-Hant)")
        }
        guard !library.availableLocales().contains(where: { $0.lowercased() == tag.lowercased() }) else {
            throw .invalidContent(file: "locales/\(tag).yaml", line: nil, message: "the locale already exists")
        }
        guard ["word", "substring"].contains(matching) else {
            throw .invalidContent(file: "locales/\(tag).yaml", line: nil, message: "matching is word (spaces between words) or substring (ja, ko, zh)")
        }
        let quoted = (try? JSONEncoder().encode(name)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\(tag)\""
        let text = """
            # \(name) — a translation of locales/en.yaml (docs/localization.md, "Starting a new language").
            # Translate through PO or XLIFF (reflect locales export --format po \(tag)), or add strings here by hand.
            locale: \(tag)
            name: \(quoted)
            matching: \(matching)
            strings: {}

            """
        let file = "locales/\(tag).yaml"
        _ = try LocaleFile.document(text, file: file)
        do {
            try text.write(to: library.localesDirectory.appendingPathComponent("\(tag).yaml"), atomically: true, encoding: .utf8)
        } catch {
            throw .invalidContent(file: file, line: nil, message: "cannot write: \(error.localizedDescription)")
        }
        return file
    }

    /// Whether two locale spellings name the same locale (`pt_BR` and
    /// `pt-BR`, `de` and `de-DE.UTF-8`'s language are compared as the
    /// files name them: case, `_` and an encoding suffix ignored; a tag
    /// without a region matches the same language with one).
    static func sameLanguage(_ a: String, _ b: String) -> Bool {
        func parts(_ s: String) -> [String] {
            let base = s.split(separator: ".").first.map(String.init) ?? s
            return base.lowercased().replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        }
        let x = parts(a), y = parts(b)
        guard let lx = x.first, let ly = y.first, lx == ly else { return false }
        return x.count < 2 || y.count < 2 || x[1] == y[1]
    }

    /// Writes `doc` over `original`: edited in place (layout and comments
    /// kept) when possible, else in canonical form. The result is re-read and
    /// must give back `doc`, or nothing is written.
    func save(_ doc: LocaleDocument, original: LocaleDocument, english en: LocaleDocument, alsoTranslatedFrom: [String] = []) throws(EngineError) {
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
        // A file with CRLF endings keeps them (only the changed lines differ).
        if let source = try? String(contentsOf: url, encoding: .utf8) { text = LineEndings.restoring(text, like: source) }
        // Never write a file the loader would refuse.
        _ = try LocaleFile.document(text, file: doc.file)
        do { try text.write(to: url, atomically: true, encoding: .utf8) } catch {
            throw .invalidContent(file: doc.file, line: nil, message: "cannot write: \(error.localizedDescription)")
        }
        // The English these locks were taken from, so a later change can show it.
        var history = EnglishHistory(library: library)
        if history.record(en.order.compactMap { en.entries[$0]?.text } + alsoTranslatedFrom) { try history.save(in: library) }
    }
}

import Foundation
import ReflectCore

/// A locale file as written: every entry with its metadata, every list
/// section with its lock, and where each key sits (for messages). The
/// runtime view (``LocaleData``) is derived from it against English.
public struct LocaleDocument: Sendable, Equatable {
    /// One translated (or source) string.
    public struct Entry: Sendable, Equatable {
        public var text: String
        /// Lock of the English text this translates (nil: never confirmed).
        public var source: String?
        /// The translator's own note (PO `# ...`, XLIFF `<note>`).
        public var note: String?

        public init(text: String, source: String? = nil, note: String? = nil) {
            self.text = text
            self.source = source
            self.note = note
        }
    }

    /// A word-list section and its lock.
    public struct Locked<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var source: String?
    }

    public var file: String
    /// Comment lines at the top of the file (kept when tools rewrite it).
    public var header: [String] = []
    public var tag: String = ""
    public var name: String = ""
    public var matching: PhraseMatcher.Mode = .wordBoundary
    public var entries: [String: Entry] = [:]
    /// Keys in file order.
    public var order: [String] = []
    /// Line of each key (1-based).
    public var lines: [String: Int] = [:]
    /// Line of each top-level section header (1-based).
    public var sectionLines: [String: Int] = [:]
    public var probe: Locked<ProbeData>?
    public var distortions: Locked<DistortionRules>?
    public var answerWords: Locked<AnswerWords>?
    public var safety: Locked<SafetyData>?
    public var themes: Locked<ThemeLists>?
    /// Comments written above each key (English: shown to translators).
    public var comments: [String: [String]] = [:]

    public init(file: String) { self.file = file }

    public var isSource: Bool { tag == "en" }

    /// Locks of this (English) document's list sections.
    public var probeLock: String? { probe.map { SourceLock.of(LocaleDocument.canonical($0.value)) } }
    public var distortionsLock: String? { distortions.map { SourceLock.of(LocaleDocument.canonical($0.value)) } }
    public var answerWordsLock: String? { answerWords.map { SourceLock.of(LocaleDocument.canonical($0.value)) } }
    public var themesLock: String? { themes.map { SourceLock.of(LocaleDocument.canonical($0.value)) } }
    public var safetyLock: String? { safety.map { SourceLock.of(LocaleDocument.canonical($0.value)) } }

    static func canonical(_ d: SafetyData) -> String {
        func map(_ m: [String: [String]]) -> String {
            m.sorted { $0.key < $1.key }.map { "\($0.key)=" + $0.value.joined(separator: "|") }.joined(separator: "\n")
        }
        // `negations_after` (and the later keys) only when present, so that
        // adding the key left the locks of sections without it unchanged.
        let after = (d.negationsAfter.isEmpty ? [] : ["negations_after=" + d.negationsAfter.joined(separator: "|")])
            + (d.negationsAfterScope == .clause ? [] : ["negations_after_scope=" + d.negationsAfterScope.rawValue])
            + (d.negationsVoid.isEmpty ? [] : ["negations_void=" + d.negationsVoid.joined(separator: "|")])
            + (d.benignUnless.isEmpty ? [] : ["benign_unless=" + d.benignUnless.joined(separator: "|")])
        let parts = ["phrases:\n" + map(d.phrases), "slots:\n" + map(d.slots), "benign=" + d.benign.joined(separator: "|"),
                     "negations=" + d.negations.joined(separator: "|")] + after + ["medical:\n" + map(d.medical)]
        return parts.joined(separator: "\n")
    }

    static func canonical(_ t: ThemeLists) -> String {
        var out = Theme.allCases.map { "\($0.rawValue)=" + (t.words[$0] ?? []).joined(separator: "|") }
        for (k, v) in t.slots.sorted(by: { $0.key < $1.key }) { out.append("slot \(k)=" + v.joined(separator: "|")) }
        return out.joined(separator: "\n")
    }

    static func canonical(_ w: AnswerWords) -> String {
        [w.yes, w.no, w.done, w.partly, w.skip].map { $0.joined(separator: "|") }.joined(separator: "\n")
    }

    static func canonical(_ p: ProbeData) -> String {
        "min_characters=\(p.minimumCharacters)\n" + p.vaguePhrases.joined(separator: "\n")
    }

    static func canonical(_ l: DistortionRules) -> String {
        var out = "priority=" + l.priority.joined(separator: ",")
        out += "\nthreshold=\(l.threshold)"
        out += "\nnegation before=" + l.negation.before.joined(separator: "|") + " after=" + l.negation.after.joined(separator: "|")
            + " window=\(l.negation.window)"
        out += "\nclause_breaks=" + l.clauseBreaks.joined(separator: "|")
        out += "\nown_words=" + l.ownWords.joined(separator: "|")
        for (k, v) in l.slots.sorted(by: { $0.key < $1.key }) { out += "\nslot \(k)=" + v.joined(separator: "|") }
        for (k, v) in l.cues.sorted(by: { $0.key < $1.key }) {
            for s in DistortionRules.Strength.allCases where !v[s].isEmpty { out += "\nrules \(k) \(s.rawValue)=" + v[s].joined(separator: "|") }
        }
        return out
    }

    /// What the runtime may show: the source's strings as they are; for a
    /// translation, only entries that are translated (present, non-empty,
    /// same placeholders, lock matching the current English). Lists are
    /// used even when stale (English lists would not match this language's
    /// text anyway); `reflect locales status` reports them.
    public func runtimeData(source english: LocaleDocument?) -> LocaleData {
        var strings: [String: String] = [:]
        for (key, entry) in entries {
            if isSource || english.map({ TranslationState.of(key: key, entry: entry, english: $0) == .translated }) == true {
                strings[key] = entry.text
            }
        }
        return LocaleData(tag: tag, name: name, matching: matching, strings: strings,
                          probe: probe?.value ?? ProbeData(), distortions: distortions?.value,
                          answerWords: answerWords?.value ?? AnswerWords(), safety: safety?.value,
                          themes: themes?.value)
    }
}

/// Where one key of a translation stands.
public enum TranslationState: Sendable, Equatable {
    case translated
    /// No entry for a key English has.
    case missing
    /// The English text changed since it was translated (the lock no
    /// longer matches): English is shown until it is re-translated or confirmed.
    case stale
    /// Translated but never confirmed (no lock): English is shown until it
    /// is confirmed (`reflect locales confirm`, or an import of a finished entry).
    case unconfirmed
    /// Present but unusable: empty, or placeholders differ from English.
    case broken(String)
    /// A key English does not have.
    case unknown

    public static func of(key: String, entry: LocaleDocument.Entry?, english: LocaleDocument) -> TranslationState {
        guard let source = english.entries[key] else { return entry == nil ? .missing : .unknown }
        guard let entry else { return .missing }
        if entry.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .broken("empty translation") }
        let want = Template(source.text).arguments, have = Template(entry.text).arguments
        if want != have {
            return .broken("placeholders \(describe(have)) differ from the English \(describe(want))")
        }
        guard let lock = entry.source else { return .unconfirmed }
        return SourceLock.matches(lock, source.text) ? .translated : .stale
    }

    static func describe(_ args: Set<Int>) -> String {
        args.isEmpty ? "(none)" : args.sorted().map { "%\($0)$@" }.joined(separator: " ")
    }
}

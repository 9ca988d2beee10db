import ReflectCore
import ReflectEngine

/// Where a translation stands against English: what `reflect locales
/// status` prints, key by key.
public struct LocaleStatus: Sendable, Equatable, Encodable {
    public struct Change: Sendable, Equatable, Encodable {
        public var key: String
        public var was: String
        public var now: String
    }

    public struct Broken: Sendable, Equatable, Encodable {
        public var key: String
        public var reason: String
    }

    public var locale: String
    public var file: String
    public var translated: [String] = []
    public var missing: [String] = []
    public var stale: [String] = []
    /// Translated but never confirmed (no lock): not shown until confirmed.
    public var unconfirmed: [String] = []
    /// For stale keys whose earlier English is known (``EnglishHistory``):
    /// what the English said when translated, and what it says now.
    public var changes: [Change] = []
    public var broken: [Broken] = []
    /// Keys English does not have.
    public var unknown: [String] = []
    /// Word-list sections whose English original changed since they were confirmed.
    public var staleLists: [String] = []
    /// Word-list sections English has and this locale lacks.
    public var missingLists: [String] = []

    enum CodingKeys: String, CodingKey {
        case locale, file, translated, missing, stale, unconfirmed, changes, broken, unknown
        case staleLists = "stale_lists", missingLists = "missing_lists"
    }

    public init(_ doc: LocaleDocument, english: LocaleDocument, history: EnglishHistory = EnglishHistory()) {
        locale = doc.tag
        file = doc.file
        for key in english.order {
            switch TranslationState.of(key: key, entry: doc.entries[key], english: english) {
            case .translated: translated.append(key)
            case .missing: missing.append(key)
            case .stale:
                stale.append(key)
                if let was = history.text(of: doc.entries[key]?.source), let now = english.entries[key]?.text {
                    changes.append(Change(key: key, was: was, now: now))
                }
            case .unconfirmed: unconfirmed.append(key)
            case .broken(let reason): broken.append(Broken(key: key, reason: reason))
            case .unknown: break
            }
        }
        unknown = doc.order.filter { english.entries[$0] == nil }
        let sections: [(String, String?, String?, Bool)] = [
            ("probe", english.probeLock, doc.probe?.source, doc.probe != nil),
            ("distortions", english.distortionsLock, doc.distortions?.source, doc.distortions != nil),
            ("answer_words", english.answerWordsLock, doc.answerWords?.source, doc.answerWords != nil),
            ("safety", english.safetyLock, doc.safety?.source, doc.safety != nil),
            ("themes", english.themesLock, doc.themes?.source, doc.themes != nil),
        ]
        for (name, lock, mine, present) in sections {
            guard let lock else { continue }
            if !present { missingLists.append(name) } else if mine != lock { staleLists.append(name) }
        }
    }
}

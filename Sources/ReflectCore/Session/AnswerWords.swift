import Foundation

/// The words a person may type for yes, no and checklist marks, in their
/// language (from the locale's `answer_words`). English words are always
/// accepted as well, but a language's own words win: French "p" (passer)
/// means skip even though English "p" means partly. Comparison ignores case
/// and accents.
public struct AnswerWords: Sendable, Equatable {
    /// Words consulted only when none of this layer's words match.
    public var fallbacks: [AnswerWords] = []
    public var yes: [String]
    public var no: [String]
    public var done: [String]
    public var partly: [String]
    public var skip: [String]

    public init(yes: [String] = [], no: [String] = [], done: [String] = [], partly: [String] = [], skip: [String] = []) {
        self.yes = yes
        self.no = no
        self.done = done
        self.partly = partly
        self.skip = skip
    }

    public static let english = AnswerWords(yes: ["yes", "y", "true"], no: ["no", "n", "false"], done: ["done", "d"],
                                            partly: ["partly", "p"], skip: ["skip", "s"])

    /// These words, then `other`'s where these have no match.
    public func merged(with other: AnswerWords) -> AnswerWords {
        var copy = self
        copy.fallbacks.append(other)
        return copy
    }

    private static func key(_ s: String) -> String {
        TextNormalizer.string(s.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    public func boolean(_ typed: String) -> Bool? {
        let t = AnswerWords.key(typed)
        for (words, value) in [(yes, true), (no, false)] where words.contains(where: { AnswerWords.key($0) == t }) {
            return value
        }
        for f in fallbacks { if let v = f.boolean(typed) { return v } }
        return nil
    }

    /// The word that shows `value` to a person (an earlier answer offered
    /// again): the first of this layer's words, else a fallback's, else English.
    public func word(for value: Bool) -> String {
        (value ? yes : no).first ?? fallbacks.lazy.map { $0.word(for: value) }.first ?? (value ? "yes" : "no")
    }

    /// The word that shows `mark` to a person, as ``word(for:)-(Bool)`` finds it.
    public func word(for mark: ChecklistMark) -> String {
        let words = switch mark {
        case .done: done
        case .partly: partly
        case .skip: skip
        }
        return words.first ?? fallbacks.lazy.map { $0.word(for: mark) }.first ?? mark.rawValue
    }

    public func mark(_ typed: String) -> ChecklistMark? {
        let t = AnswerWords.key(typed)
        for (words, mark) in [(done, ChecklistMark.done), (partly, .partly), (skip, .skip)]
        where words.contains(where: { AnswerWords.key($0) == t }) {
            return mark
        }
        for f in fallbacks { if let m = f.mark(typed) { return m } }
        return fallbacks.isEmpty ? ChecklistMark(rawValue: t) : nil
    }
}

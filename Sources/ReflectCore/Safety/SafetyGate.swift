import Foundation

/// Recognises crisis language in what a person writes: every answer passes
/// it before the flow continues. Deterministic; its word lists come from
/// the locale files (tuned per language), its rules are here.
///
/// Each text is checked twice:
/// 1. normalised (``TextNormalizer``: case, accents, NFKC, apostrophes);
/// 2. de-obfuscated as well: l33t digits and symbols inside words mapped
///    to letters ("su1c1de", "k1ll mys3lf"), letters spelled out with spaces
///    or dots joined ("s u i c i d e", "k.i.l.l"), and repeated letters
///    squeezed ("diiiie"); the phrases are squeezed the same way.
///
/// Before matching, benign idioms ("killing it at work", "to die for",
/// "Suicide Squad") are blanked out. A match directly preceded, within
/// three words, by a negation of the locale ("I would never kill myself",
/// "I'm not suicidal") does not count; any other crisis phrase in the same
/// text still does. Third-person intent ("my friend wants to kill himself")
/// is in the lists on purpose: the person may need the resources to help.
/// The most urgent category found wins (``SafetyCategory`` order).
public struct SafetyGate: Sendable {
    private let plain: PhraseMatcher
    private let squeezed: PhraseMatcher
    private let benignPlain: PhraseMatcher?
    private let benignSqueezed: PhraseMatcher?
    private let negation: PhraseMatcher?
    private let negationSqueezed: PhraseMatcher?
    private let categories: [SafetyCategory]

    public init(_ data: SafetyData, mode: PhraseMatcher.Mode = .wordBoundary) throws(LexiconError) {
        for name in data.phrases.keys where SafetyCategory(rawValue: name) == nil {
            throw LexiconError(category: name, phrase: "", reason: "not a safety category (expected one of "
                + SafetyCategory.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        categories = SafetyCategory.allCases.filter { !(data.phrases[$0.rawValue] ?? []).isEmpty }
        let lexicon = PhraseLexicon(priority: categories.map(\.rawValue), phrases: data.phrases, slots: data.slots)
        var squeezedPhrases: [String: [String]] = [:]
        for c in categories { squeezedPhrases[c.rawValue] = try lexicon.expandedPhrases(of: c.rawValue).map(SafetyGate.squeeze) }
        plain = try PhraseMatcher(lexicon, mode: mode)
        squeezed = try PhraseMatcher(PhraseLexicon(priority: categories.map(\.rawValue), phrases: squeezedPhrases), mode: mode)
        func list(_ words: [String], squeeze: Bool) throws(LexiconError) -> PhraseMatcher? {
            words.isEmpty ? nil : try PhraseMatcher(PhraseLexicon(priority: ["x"], phrases: ["x": squeeze ? words.map(SafetyGate.squeeze) : words]),
                                                    mode: mode)
        }
        benignPlain = try list(data.benign, squeeze: false)
        benignSqueezed = try list(data.benign, squeeze: true)
        negation = try list(data.negations, squeeze: false)
        negationSqueezed = try list(data.negations, squeeze: true)
    }

    public func check(_ text: String) -> SafetyVerdict {
        let normalized = TextNormalizer.string(text)
        var best = Int.max
        for (variant, matcher, benign, negation) in [
            (normalized, plain, benignPlain, self.negation),
            (SafetyGate.squeeze(SafetyGate.deobfuscate(normalized)), squeezed, benignSqueezed, negationSqueezed),
        ] {
            var bytes = Array(variant.utf8)
            bytes.withUnsafeMutableBufferPointer { buf in
                // Benign idioms are blanked out (spaces keep word boundaries).
                if let benign {
                    for o in benign.occurrences(normalized: UnsafeBufferPointer(buf)) {
                        for i in o.start..<o.end { buf[i] = 32 }
                    }
                }
                let view = UnsafeBufferPointer(buf)
                for o in matcher.occurrences(normalized: view) where o.category < best {
                    if let negation, SafetyGate.negated(before: o.start, in: view, by: negation) { continue }
                    best = o.category
                }
            }
        }
        return best == Int.max ? .ok : .crisis(categories[best])
    }

    /// Whether a negation phrase occurs within the three words before `start`.
    static func negated(before start: Int, in t: UnsafeBufferPointer<UInt8>, by negation: PhraseMatcher) -> Bool {
        var i = start
        for _ in 0..<3 {
            while i > 0 && t[i - 1] == 32 { i -= 1 }  // spaces before the word
            guard i > 0 else { break }
            while i > 0 && t[i - 1] != 32 { i -= 1 }  // the word itself
        }
        return negation.match(normalized: UnsafeBufferPointer(rebasing: t[i..<start])) != nil
    }

    /// Runs of the same character collapsed to one ("diiiie" → "die").
    static func squeeze(_ s: String) -> String {
        var out = ""
        var last: Character?
        for c in s where c != last {
            out.append(c)
            last = c
        }
        return out
    }

    private static let leet: [Character: Character] = ["0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
                                                       "@": "a", "$": "s", "!": "i", "|": "i"]
    private static let spellers: Set<Character> = [".", "-", "_", "*", "·"]

    /// l33t inside words mapped to letters; letters spelled out with spaces
    /// or dots joined. Expects normalised (lowercase) text.
    static func deobfuscate(_ s: String) -> String {
        var words: [String] = []
        for raw in s.split(separator: " ", omittingEmptySubsequences: true) {
            var w = Array(raw)
            if w.contains(where: \.isLetter) {
                for i in w.indices {
                    guard let letter = leet[w[i]] else { continue }
                    // Digits anywhere in a word; symbols only before a letter
                    // ("d!e" yes, the "!" of "die!" no).
                    if w[i].isNumber || (i + 1 < w.count && w[i + 1].isLetter) { w[i] = letter }
                }
                // "k.i.l.l", "s-u-i-c-i-d-e": single letters joined by a speller.
                if w.count >= 5, w.enumerated().allSatisfy({ $0.offset % 2 == 0 ? $0.element.isLetter : spellers.contains($0.element) }) {
                    w = w.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                }
            }
            words.append(String(w))
        }
        // "s u i c i d e": three or more one-letter words in a row become one.
        var out: [String] = []
        var run: [String] = []
        func flush() {
            if run.count >= 3 { out.append(run.joined()) } else { out += run }
            run.removeAll()
        }
        for w in words {
            if w.count == 1, w.first?.isLetter == true { run.append(w) } else {
                flush()
                out.append(w)
            }
        }
        flush()
        return out.joined(separator: " ")
    }
}

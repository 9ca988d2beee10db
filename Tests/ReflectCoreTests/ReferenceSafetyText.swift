@testable import ReflectCore

/// The safety gate's text preparation as it was before issue 20 (Character
/// by Character), kept in the tests only as the reference the scalar-level
/// version must agree with.
enum ReferenceSafetyText {
    /// Runs of the same ASCII letter collapsed to one ("diiiie" → "die"), and
    /// of Japanese elongation marks ("死にたーーーい" → "死にたーい"). Other
    /// characters are left alone: doubled kana are part of words (くくる, いい).
    static func squeeze(_ s: String) -> String {
        var out = ""
        var last: Character?
        for c in s {
            if c == last, (c.isASCII && c.isLetter) || c == "ー" || c == "〜" || c == "～" || c == "~" { continue }
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
        // "s u i c i d e": one-letter words in a row become one word, three or
        // more of them for Latin letters, four or more in other scripts (in
        // Hangul every syllable is a letter: "자 살 거 있으면" is ordinary text,
        // "자 살 하 고 싶 어" is not).
        var out: [String] = []
        var run: [String] = []
        func flush() {
            let ascii = run.allSatisfy { $0.first?.isASCII == true }
            if run.count >= (ascii ? 3 : 4) { out.append(run.joined()) } else { out += run }
            run.removeAll()
        }
        for w in words {
            if w.count == 1, let c = w.first, c.isLetter {
                if let first = run.first?.first, first.isASCII != c.isASCII { flush() }
                run.append(w)
            } else {
                flush()
                out.append(w)
            }
        }
        flush()
        return out.joined(separator: " ")
    }
}

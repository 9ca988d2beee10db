import Foundation

/// How a person's own words are quoted back inside a prompt.
public enum Quote {
    /// Longest excerpt, in characters (grapheme clusters), before "…".
    public static let limit = 60

    /// The excerpt of an answer to inject into a later prompt: its first
    /// sentence (without the closing punctuation), and if that is still
    /// longer than 60 characters, its first 60 characters, cut at a word
    /// boundary where one is near, plus "…". Blank answers give "".
    public static func excerpt(_ answer: String) -> String {
        let text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return "" }
        var sentence = firstSentence(of: text)
        if sentence.isEmpty { sentence = text }
        // Spanish opens a question or exclamation with ¿ ¡; once the closing
        // mark is cut, the opening one would stand alone.
        if sentence.count < text.count, let first = sentence.first, first == "¿" || first == "¡" {
            sentence.removeFirst()
        }
        guard sentence.count > limit else { return sentence }
        var cut = String(sentence.prefix(limit))
        if let space = cut.lastIndex(where: { $0 == " " }), cut.distance(from: cut.startIndex, to: space) >= limit * 2 / 3 {
            cut = String(cut[..<space])
        }
        while let last = cut.last, last.isWhitespace || last.isPunctuation { cut.removeLast() }
        return cut + "…"
    }

    private static let terminators: Set<Character> = [".", "!", "?", "…", "。", "！", "？", "\n", "\r\n", "\r"]

    /// Text up to the first sentence end: a terminator followed by a space,
    /// a line end or the end of the text (so "3.5" and "e.g.x" do not end a
    /// sentence).
    static func firstSentence(of text: String) -> String {
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if terminators.contains(c) {
                let next = text.index(after: i)
                let cjk = c == "。" || c == "！" || c == "？"
                if cjk || c.isNewline || next == text.endIndex || text[next].isWhitespace {
                    var s = String(text[..<i])
                    while let last = s.last, terminators.contains(last) || last.isWhitespace { s.removeLast() }
                    return s
                }
            }
            i = text.index(after: i)
        }
        return text
    }
}

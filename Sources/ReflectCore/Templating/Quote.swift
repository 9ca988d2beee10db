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
        var answer = answer
        if let ascii = answer.withUTF8(asciiExcerpt) { return ascii }
        return excerptOfCharacters(answer)
    }

    /// ``excerpt(_:)`` by characters, for any text.
    static func excerptOfCharacters(_ answer: String) -> String {
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

    /// ``excerpt(_:)`` by bytes, for a text of ASCII without a carriage
    /// return (nil for any other): there every byte is one character, so
    /// counting, cutting and the character classes are the byte's own.
    static func asciiExcerpt(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        for c in b where c >= 0x80 || c == 0x0D { return nil }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
        func isTerminator(_ c: UInt8) -> Bool { c == 0x2E || c == 0x21 || c == 0x3F || c == 0x0A }
        func isPunctuation(_ c: UInt8) -> Bool { // Unicode's P* categories within ASCII
            switch c {
            case 0x21...0x23, 0x25...0x2A, 0x2C...0x2F, 0x3A, 0x3B, 0x3F, 0x40, 0x5B...0x5D, 0x5F, 0x7B, 0x7D: true
            default: false
            }
        }
        var start = 0, end = b.count
        while start < end, isSpace(b[start]) { start += 1 }
        while end > start, isSpace(b[end - 1]) { end -= 1 }
        guard start < end else { return "" }
        // The first sentence: up to a terminator followed by a space, a line
        // end or the end, without trailing terminators and spaces.
        var sentenceEnd = end
        var i = start
        while i < end {
            let c = b[i]
            if isTerminator(c), c == 0x0A || i + 1 == end || isSpace(b[i + 1]) {
                var e = i
                while e > start, isTerminator(b[e - 1]) || isSpace(b[e - 1]) { e -= 1 }
                sentenceEnd = e
                break
            }
            i += 1
        }
        if sentenceEnd == start { sentenceEnd = end } // an empty first sentence: the whole text
        guard sentenceEnd - start > limit else { return String(decoding: UnsafeBufferPointer(rebasing: b[start..<sentenceEnd]), as: UTF8.self) }
        var cut = start + limit
        if let space = (start..<cut).last(where: { b[$0] == 0x20 }), space - start >= limit * 2 / 3 { cut = space }
        while cut > start, isSpace(b[cut - 1]) || isPunctuation(b[cut - 1]) { cut -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: b[start..<cut]), as: UTF8.self) + "…"
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

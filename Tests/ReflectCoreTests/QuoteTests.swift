import Testing
@testable import ReflectCore

@Suite("Quote.excerpt")
struct QuoteTests {
    @Test("the first sentence, without its closing punctuation", arguments: [
        ("I missed the bus. Then it rained.", "I missed the bus"),
        ("Really?! No way.", "Really"),
        ("Why me? I tried.", "Why me"),
        ("It was awful!", "It was awful"),
        ("Wait... what happened", "Wait"),
        ("I don't know… maybe", "I don't know"),
        ("First line\nsecond line", "First line"),
        ("Hello.   World", "Hello"),
        ("  Padded answer.  ", "Padded answer"),
    ])
    func firstSentence(answer: String, expected: String) {
        #expect(Quote.excerpt(answer) == expected)
    }

    @Test("an ASCII answer is quoted exactly as the character-by-character rules quote it")
    func asciiPathMatchesCharacters() {
        // Spaces, terminators, punctuation and symbols placed to hit every
        // rule: trimming, sentence ends, the 60-character cut, a space near it.
        let alphabet = Array("aaaaaaaaeeeeiioo     .!?,;:'\"()[]{}-_/@#%&*$+<=>^`|~\t\n\u{0B}\u{0C}0123456789")
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        for n in 0..<3000 {
            var text = ""
            for _ in 0..<(n % 140) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                text.append(alphabet[Int(x % UInt64(alphabet.count))])
            }
            #expect(Quote.excerpt(text) == Quote.excerptOfCharacters(text), "\(text.debugDescription)")
        }
    }

    @Test("text without a sentence end is kept whole")
    func noTerminator() {
        #expect(Quote.excerpt("no punctuation here") == "no punctuation here")
        #expect(Quote.excerpt("ends with a comma,") == "ends with a comma,")
    }

    @Test("a decimal point does not end a sentence", arguments: [
        ("It cost 3.5 dollars. Then more.", "It cost 3.5 dollars"),
        ("Rated 3.5", "Rated 3.5"),
        ("Version 2.0.1 broke it. Again.", "Version 2.0.1 broke it"),
    ])
    func decimals(answer: String, expected: String) {
        #expect(Quote.excerpt(answer) == expected)
    }

    @Test("CJK full stops end a sentence even without a following space", arguments: [
        ("電車に乗り遅れた。雨も降った。", "電車に乗り遅れた"),
        ("本当？うん", "本当"),
        ("最悪！もう嫌だ", "最悪"),
    ])
    func cjk(answer: String, expected: String) {
        #expect(Quote.excerpt(answer) == expected)
    }

    @Test("a Spanish opening ¿ or ¡ is dropped with the closing mark", arguments: [
        ("¿Por qué siempre yo? No sé.", "Por qué siempre yo"),
        ("¡Qué desastre!", "Qué desastre"),
        ("¿En serio?", "En serio"),
    ])
    func spanishOpeningMarks(answer: String, expected: String) {
        #expect(Quote.excerpt(answer) == expected)
    }

    @Test("an opening ¡ stays when nothing was cut")
    func spanishOpeningKept() {
        #expect(Quote.excerpt("¡Hola a todos") == "¡Hola a todos")
    }

    @Test("blank answers give an empty excerpt", arguments: ["", " ", "\n\t  \n"])
    func blank(answer: String) {
        #expect(Quote.excerpt(answer) == "")
    }

    @Test("a first sentence of exactly 60 characters is not shortened")
    func exactlyLimit() {
        let sixty = String(repeating: "abcde ", count: 9) + "abcdef" // 54 + 6 = 60
        #expect(sixty.count == 60)
        #expect(Quote.excerpt(sixty + ". More.") == sixty)
    }

    @Test("a long sentence is cut at the last word boundary within 60 characters, plus …")
    func wordBoundaryCut() {
        let answer = String(repeating: "word ", count: 20) + "end."
        let expected = Array(repeating: "word", count: 12).joined(separator: " ") + "…"
        #expect(Quote.excerpt(answer) == expected)
    }

    @Test("a realistic long answer is cut between words")
    func realisticCut() {
        let answer = "I kept thinking about the meeting where my manager questioned my report in front of everyone"
        // The first 60 characters end inside "questioned"; the cut goes back to the space before it.
        #expect(Quote.excerpt(answer) == "I kept thinking about the meeting where my manager…")
    }

    @Test("punctuation left at the cut is removed before …")
    func punctuationBeforeEllipsis() {
        let answer = String(repeating: "abcd, ", count: 15)
        let expected = Array(repeating: "abcd", count: 10).joined(separator: ", ") + "…"
        #expect(Quote.excerpt(answer) == expected)
    }

    @Test("without a space near the limit the cut is at exactly 60 characters")
    func hardCut() {
        let longWord = String(repeating: "a", count: 70)
        #expect(Quote.excerpt(longWord) == String(repeating: "a", count: 60) + "…")
        // A space too early (index 2 < 40) is not used.
        let early = "Hi " + String(repeating: "b", count: 70)
        #expect(Quote.excerpt(early) == "Hi " + String(repeating: "b", count: 57) + "…")
    }

    @Test("the limit counts characters, not bytes or scalars")
    func graphemes() {
        let thumbs = String(repeating: "👍🏽", count: 70)
        #expect(Quote.excerpt(thumbs) == String(repeating: "👍🏽", count: 60) + "…")
        let kana = String(repeating: "あ", count: 61)
        #expect(Quote.excerpt(kana) == String(repeating: "あ", count: 60) + "…")
        let short = String(repeating: "é", count: 60)
        #expect(Quote.excerpt(short) == short)
    }

    @Test("every shortened excerpt is at most 61 characters and a prefix of the answer")
    func shortenedProperties() {
        var rng = SeededRandom(seed: 3)
        let words = ["I", "felt", "really", "anxious", "about", "tomorrow's", "presentation", "because", "everyone", "x"]
        for _ in 0..<300 {
            var answer = ""
            for i in 0..<(5 + Int(rng.next() % 25)) {
                if i > 0 { answer += " " }
                answer += words[Int(rng.next() % UInt64(words.count))]
            }
            let excerpt = Quote.excerpt(answer)
            #expect(excerpt.count <= 61)
            if answer.count > 60 {
                #expect(excerpt.hasSuffix("…"))
                let body = String(excerpt.dropLast())
                #expect(answer.hasPrefix(body))
                // Cut between words whenever the last space is close enough to the limit.
                let next = answer.dropFirst(body.count).first
                let head = String(answer.prefix(60))
                if let lastSpace = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: lastSpace) >= 40 {
                    #expect(next == " ", "\(answer.debugDescription) → \(excerpt.debugDescription)")
                }
            } else {
                #expect(excerpt == answer)
            }
        }
    }

    @Test("a Windows line end (CRLF) ends the first sentence like a plain line end")
    func crlf() {
        #expect(Quote.excerpt("First line\r\nSecond line") == "First line")
    }
}

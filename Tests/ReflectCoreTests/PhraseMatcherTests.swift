import Testing
@testable import ReflectCore

/// Compiles a matcher from (category, phrases) pairs, in priority order.
private func makeMatcher(_ categories: [(String, [String])], mode: PhraseMatcher.Mode = .wordBoundary) throws -> PhraseMatcher {
    try PhraseMatcher(PhraseLexicon(priority: categories.map(\.0),
                                    phrases: Dictionary(uniqueKeysWithValues: categories)),
                      mode: mode)
}

/// The name of the category that matched, or nil.
private func label(_ m: PhraseMatcher, _ text: String) -> String? {
    m.match(text).map { m.categories[$0] }
}

@Suite("PhraseMatcher: whole-word mode")
struct PhraseMatcherWordTests {
    @Test("'never' does not match inside 'nevertheless' but matches as a word")
    func noMatchInsideLongerWord() throws {
        let m = try makeMatcher([("og", ["never"])])
        #expect(m.match("Nevertheless, I tried") == nil)
        #expect(m.match("it was nevertheless fine") == nil)
        #expect(m.match("I never win") == 0)
    }

    @Test("'always' matches whatever its case, at text start and end, and next to punctuation")
    func caseAndEdges() throws {
        let m = try makeMatcher([("og", ["always"])])
        for text in ["I ALWAYS fail", "I ALWAYS", "always", "Always late", "late again, always",
                     "It is always.", "(always)", "\"always\"", "always!", "well-always-late", "always\tand\nnever"] {
            #expect(m.match(text) == 0, "expected a match in \(text.debugDescription)")
        }
    }

    @Test("a word byte (letter, digit, underscore) glued to either side prevents a match")
    func gluedWordBytes() throws {
        let m = try makeMatcher([("og", ["always"])])
        for text in ["xalways", "alwaysx", "always_", "_always", "always2", "2always", "hallways", "ALWAYSES"] {
            #expect(m.match(text) == nil, "unexpected match in \(text.debugDescription)")
        }
    }

    @Test("a non-ASCII letter next to the phrase is part of the word, so the phrase does not match")
    func nonASCIILetterIsWordByte() throws {
        let m = try makeMatcher([("og", ["always"])])
        #expect(m.match("alwaysж") == nil)
        #expect(m.match("жalways") == nil)
        #expect(m.match("ж always ж") == 0)
    }

    @Test("non-ASCII punctuation and spaces are word boundaries")
    func nonASCIIPunctuationIsBoundary() throws {
        let m = try makeMatcher([("og", ["always"])])
        for text in ["«always»", "“always”", "always…", "always—never", "jamás\u{00A0}always", "いつも、always。"] {
            #expect(m.match(text) == 0, "expected a match in \(text.debugDescription)")
        }
    }

    @Test("a multi-word phrase needs its words in order with the same spacing")
    func multiWordPhrase() throws {
        let m = try makeMatcher([("cat", ["end of the world"])])
        #expect(m.match("It's the END OF THE WORLD.") == 0)
        #expect(m.match("the end of the worlds") == nil)
        #expect(m.match("the end of  the world") == nil)
        #expect(m.match("world of the end") == nil)
    }

    @Test("apostrophe variants are equal: ' ’ ‘ ʼ in the text or in the phrase")
    func apostropheVariants() throws {
        let straight = try makeMatcher([("lab", ["i'm such a"])])
        let curly = try makeMatcher([("lab", ["i’m such a"])])
        for text in ["I'm such a mess", "I’m such a mess", "I‘m such a mess", "Iʼm such a mess", "I＇m such a mess"] {
            #expect(straight.match(text) == 0, "straight phrase vs \(text.debugDescription)")
            #expect(curly.match(text) == 0, "curly phrase vs \(text.debugDescription)")
        }
        #expect(straight.match("Im such a mess") == nil)
        #expect(straight.match("I m such a mess") == nil)
    }

    @Test("the acute accent ´ used as an apostrophe is listed as a variant and should match")
    func acuteAccentApostrophe() throws {
        let m = try makeMatcher([("lab", ["i'm such a"])])
        // TextNormalizer lists U+00B4 as an apostrophe variant, but NFKC first
        // turns it into U+0020 U+0301, and the accent fold then leaves a space.
        #expect(m.match("I´m such a mess") == 0)
    }

    @Test("a phrase starting with non-ASCII punctuation matches the identical text")
    func leadingNonASCIIPunctuationInPhrase() throws {
        let m = try makeMatcher([("should", ["¡basta!", "“always”"])])
        // Both phrases normalise with a leading space (" basta ", " always "),
        // which is trimmed after normalising, so they match.
        #expect(m.match("¡basta!") == 0)
        #expect(m.match("I “always” do") == 0)
    }

    @Test("a phrase ending in an apostrophe (French elision) needs no boundary after it")
    func elision() throws {
        let m = try makeMatcher([("og", ["personne n'"])])
        #expect(m.match("Personne n'aime mes idées") == 0)
        #expect(m.match("personne n’aime ça") == 0)
        #expect(m.match("personne n' aime") == 0)
        #expect(m.match("xpersonne n'aime") == nil) // the boundary before still counts
        let plain = try makeMatcher([("og", ["personne"])])
        #expect(plain.match("personnel") == nil)
    }

    @Test("phrases led by a non-ASCII letter match as whole words")
    func nonASCIILedPhrases() throws {
        let ru = try makeMatcher([("og", ["всегда"])])
        #expect(ru.match("Я ВСЕГДА ошибаюсь") == 0)
        #expect(ru.match("всегда.") == 0)
        #expect(ru.match("всегдашний страх") == nil)
        #expect(ru.match("навсегда") == nil)
        let el = try makeMatcher([("og", ["πάντα"])])
        #expect(el.match("Αποτυγχάνω ΠΆΝΤΑ") == 0)
        #expect(el.match("παντα") == 0)
        #expect(el.match("πανταχού") == nil)
    }

    @Test("a phrase made only of symbols is refused, in both modes")
    func symbolOnlyPhrase() throws {
        // "😭" normalises to a single space; matched, it would fire on every
        // space or punctuation mark in substring mode.
        for mode in [PhraseMatcher.Mode.wordBoundary, .substring] {
            let error = #expect(throws: LexiconError.self) { try makeMatcher([("crisis", ["😭"])], mode: mode) }
            #expect(error?.reason.hasPrefix("empty phrase") == true)
        }
    }

    @Test("accents do not matter, in either direction")
    func accentsFold() throws {
        let plain = try makeMatcher([("should", ["deberia"])])
        let accented = try makeMatcher([("should", ["debería"])])
        for text in ["Debería estudiar más", "deberia estudiar", "DEBERÍA", "yo debería."] {
            #expect(plain.match(text) == 0, "plain phrase vs \(text.debugDescription)")
            #expect(accented.match(text) == 0, "accented phrase vs \(text.debugDescription)")
        }
        #expect(plain.match("deberían estudiar") == nil) // another word
    }

    @Test("ß and ss are equal, in either direction")
    func sharpS() throws {
        let ss = try makeMatcher([("should", ["ich muss"])])
        let eszett = try makeMatcher([("should", ["ich muß"])])
        for text in ["Ich muß das schaffen", "ICH MUSS das schaffen", "ich muss."] {
            #expect(ss.match(text) == 0, "ss phrase vs \(text.debugDescription)")
            #expect(eszett.match(text) == 0, "ß phrase vs \(text.debugDescription)")
        }
        #expect(ss.match("ich mus das") == nil)
    }

    @Test("full-width letters match their ASCII forms (NFKC), in either direction")
    func fullWidth() throws {
        let ascii = try makeMatcher([("og", ["always"])])
        let wide = try makeMatcher([("og", ["ＡＬＷＡＹＳ"])])
        #expect(ascii.match("ＡＬＷＡＹＳ") == 0)
        #expect(ascii.match("I ＡＬＷＡＹＳ fail") == 0)
        #expect(ascii.match("ｘＡＬＷＡＹＳ") == nil)
        #expect(wide.match("I always fail") == 0)
        #expect(wide.match("I ALWAYS fail") == 0)
    }

    @Test("Japanese and Korean without spaces do not match as whole words")
    func cjkInWordMode() throws {
        let ja = try makeMatcher([("og", ["いつも"])])
        #expect(ja.match("私はいつも失敗する") == nil)
        #expect(ja.match("いつも。失敗する") == 0)   // 。 is a boundary
        #expect(ja.match("私は いつも 失敗する") == 0)
        let ko = try makeMatcher([("og", ["항상"])])
        #expect(ko.match("나는항상실패해") == nil)
        #expect(ko.match("나는 항상 실패해") == 0)
    }

    @Test("the first category in priority wins, wherever its phrase is in the text")
    func priorityBeatsPosition() throws {
        let phrases = ["catastrophizing": ["ruin everything"], "overgeneralization": ["always"]]
        let catFirst = try PhraseMatcher(PhraseLexicon(priority: ["catastrophizing", "overgeneralization"], phrases: phrases),
                                         mode: .wordBoundary)
        let ogFirst = try PhraseMatcher(PhraseLexicon(priority: ["overgeneralization", "catastrophizing"], phrases: phrases),
                                        mode: .wordBoundary)
        for text in ["I always ruin everything", "I ruin everything, always", "Always. I ruin everything."] {
            #expect(label(catFirst, text) == "catastrophizing", "\(text)")
            #expect(label(ogFirst, text) == "overgeneralization", "\(text)")
        }
        #expect(label(catFirst, "I always lose") == "overgeneralization")
    }

    @Test("a phrase listed in two categories belongs to the higher-priority one")
    func duplicatePhraseFirstCategoryWins() throws {
        let m = try makeMatcher([("first", ["bad"]), ("second", ["bad", "sad"])])
        #expect(label(m, "so bad") == "first")
        #expect(label(m, "so sad") == "second")
    }

    @Test("a one-byte phrase matches only as a whole word")
    func singleBytePhrase() throws {
        let m = try makeMatcher([("letter", ["x"]), ("word", ["zz"])])
        #expect(label(m, "x marks the spot") == "letter")
        #expect(label(m, "the x.") == "letter")
        #expect(label(m, "x") == "letter")
        #expect(m.match("xx box x1 _x") == nil)
        #expect(label(m, "zz then x") == "letter") // priority, not position
    }

    @Test("phrases are trimmed and case-folded before matching")
    func phraseNormalization() throws {
        let m = try makeMatcher([("og", ["  Always  ", "EVERY TIME"])])
        #expect(m.match("always") == 0)
        #expect(m.match("it happens every time") == 0)
    }

    @Test("empty text and text without a phrase give nil")
    func noMatch() throws {
        let m = try makeMatcher([("og", ["always"])])
        #expect(m.match("") == nil)
        #expect(m.match("   ") == nil)
        #expect(m.match("sometimes") == nil)
    }

    @Test("texts longer than 4 KiB take the general path and follow the same rule")
    func longText() throws {
        let m = try makeMatcher([("og", ["always"])])
        let filler = String(repeating: "calm words here ", count: 300) // 4800 bytes
        #expect(m.match(filler + "always") == 0)
        #expect(m.match("always " + filler) == 0)
        #expect(m.match(filler + "xalways") == nil)
        #expect(m.match(filler + "ALWAYS_") == nil)
        #expect(m.match(filler) == nil)
    }

    @Test("match(normalized:) applies the rule to bytes already normalised")
    func matchNormalizedBytes() throws {
        let m = try makeMatcher([("og", ["always"])])
        let hit = TextNormalizer.bytes("I ALWAYS fail")
        let miss = TextNormalizer.bytes("hallways")
        #expect(hit.withUnsafeBufferPointer { m.match(normalized: $0) } == 0)
        #expect(miss.withUnsafeBufferPointer { m.match(normalized: $0) } == nil)
    }

    @Test("an empty or blank phrase is a LexiconError")
    func emptyPhrase() throws {
        for phrase in ["", "   "] {
            let error = try #require(throws: LexiconError.self) {
                try makeMatcher([("og", ["always", phrase])])
            }
            #expect(error.category == "og")
            #expect(error.reason .hasPrefix("empty phrase"))
        }
    }
}

@Suite("PhraseMatcher: substring mode (Japanese, Korean)")
struct PhraseMatcherSubstringTests {
    @Test("a Japanese phrase matches inside a sentence without spaces")
    func japanese() throws {
        let m = try makeMatcher([("og", ["いつも"])], mode: .substring)
        #expect(m.match("私はいつも失敗する") == 0)
        #expect(m.match("いつも") == 0)
        #expect(m.match("私は時々失敗する") == nil)
    }

    @Test("a Korean phrase matches inside a word")
    func korean() throws {
        let m = try makeMatcher([("og", ["항상"])], mode: .substring)
        #expect(m.match("나는항상실패해") == 0)
        #expect(m.match("나는 가끔 실패해") == nil)
    }

    @Test("substring mode keeps Latin word edges: an English word is not found inside another, but is next to kana")
    func asciiSubstring() throws {
        let m = try makeMatcher([("og", ["always"]), ("od", ["od"])], mode: .substring)
        #expect(m.match("xalwaysx") == nil)
        #expect(m.match("HALLWAYS") == nil)
        #expect(m.match("hallwaysalways") == nil)
        #expect(m.match("hallways always") == 0)
        #expect(m.match("私はalwaysだ") == 0)
        #expect(m.match("good") == nil, "\"OD\" is not in \"good\"")
        #expect(m.match("昨日ODした") == 1)
    }

    @Test("substring mode keeps priority over position")
    func priority() throws {
        let m = try makeMatcher([("catastrophizing", ["もうだめだ"]), ("overgeneralization", ["いつも"])], mode: .substring)
        #expect(label(m, "いつも失敗して、もうだめだ") == "catastrophizing")
        #expect(label(m, "いつも失敗する") == "overgeneralization")
    }

    @Test("full-width and case folding apply in substring mode too")
    func folding() throws {
        let m = try makeMatcher([("og", ["ok"])], mode: .substring)
        #expect(m.match("それはＯＫだ") == 0)
    }
}

// MARK: - Agreement with the C anchors' rule

/// The C anchors' rule, written naively from its definition (bench/anchors/detect.c,
/// MODE word / substr): ASCII-lowercase the text; a phrase matches when it
/// occurs as a substring and (word mode only) the byte before (if any) and
/// the byte after (if any) are not in [a-z0-9_]; the label is the first
/// category in priority with any match.
private enum AnchorReference {
    static func isWord(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || b == UInt8(ascii: "_")
    }

    static func lowercase(_ text: String) -> [UInt8] {
        Array(text.utf8).map { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) ? $0 + 32 : $0 }
    }

    static func isLatinAlnum(_ b: UInt8) -> Bool { isWord(b) && b != UInt8(ascii: "_") }

    /// `word`: the anchors' word rule. Otherwise substring, and with
    /// `latinEdges` a Latin letter or digit at either end of the phrase
    /// may not touch another one in the text (Reflect's substring mode).
    static func occurs(_ phrase: [UInt8], in t: [UInt8], word: Bool, latinEdges: Bool = false) -> Bool {
        if phrase.isEmpty || phrase.count > t.count { return false }
        var p = 0
        while p + phrase.count <= t.count {
            var same = true
            var k = 0
            while k < phrase.count {
                if t[p + k] != phrase[k] { same = false; break }
                k += 1
            }
            if same {
                let e = p + phrase.count
                if !word {
                    if !latinEdges { return true }
                    let beforeOK = p == 0 || !(isLatinAlnum(phrase[0]) && isLatinAlnum(t[p - 1]))
                    let afterOK = e == t.count || !(isLatinAlnum(phrase[phrase.count - 1]) && isLatinAlnum(t[e]))
                    if beforeOK && afterOK { return true }
                    p += 1
                    continue
                }
                let beforeOK = p == 0 || !isWord(t[p - 1])
                let afterOK = e == t.count || !isWord(t[e])
                if beforeOK && afterOK { return true }
            }
            p += 1
        }
        return false
    }

    static func label(_ text: String, categories: [(String, [String])], word: Bool, latinEdges: Bool = false) -> String? {
        let t = lowercase(text)
        for (name, phrases) in categories {
            for phrase in phrases where occurs(Array(phrase.utf8), in: t, word: word, latinEdges: latinEdges) {
                return name
            }
        }
        return nil
    }
}

@Suite("PhraseMatcher agrees with the C anchors' rule on ASCII text")
struct PhraseMatcherAnchorRuleTests {
    /// Lowercase, already trimmed phrases (the anchors' TSV form).
    static let categories: [(String, [String])] = [
        ("catastrophizing", ["ruin everything", "worst", "it's over", "end of the world", "ugh!"]),
        ("mind_reading", ["thinks i'm", "hates me", "(sigh)"]),
        ("labeling", ["i'm a", "loser", "i am a", "x"]),
        ("personalization", ["'s fault", "'s", "my fault", "24/7"]),
        ("should_statement", ["should", "must_do", "-ish"]),
        ("overgeneralization", ["always", "never", "every time", "a1"]),
    ]

    static let decoys: [String] = [
        "xalways", "always_", "_always", "always1", "1always", "nevertheless", "forever", "neverx",
        "it's", "let's", "everything", "ruin", "ruined", "worst-case", "worsts", "ALWAYS", "Never", "I'M A",
        "i'ma", "x", "x2", "x_", "_x", "xx", "a1b", "a", "1", "the", "end", "of", "world", "it", "over",
        "s", "ugh", "UGH!!", "sigh", "(sigh", "sigh)", "hates", "me", "mE", "thinks", "i'm", "i", "am",
        "must", "do", "must_done", "ish", "-", "_", "'", "\"", ".", ",", "!", "?", "(", ")", "/", "24", "7",
        "247", "loser2", "Loser", "SHOULDN'T", "fault", "y'all", "'", "0", "9", "_9",
    ]

    static let joiners: [String] = [" ", " ", " ", "", "", "  ", ",", ", ", ".", "-", "_", "'", "\t", "\n", "0", "!", "?"]

    static func sentence(_ rng: inout SeededRandom, tokens: Int) -> String {
        let phrases = categories.flatMap(\.1)
        var out = ""
        for i in 0..<tokens {
            if i > 0 { out += joiners[Int(rng.next() % UInt64(joiners.count))] }
            var token = rng.next() % 3 == 0
                ? phrases[Int(rng.next() % UInt64(phrases.count))]
                : decoys[Int(rng.next() % UInt64(decoys.count))]
            if rng.next() % 4 == 0 { token = token.uppercased() }
            out += token
        }
        return out
    }

    @Test("whole-word labels equal the reference on 4000 pseudo-random ASCII sentences")
    func wordModeAgreesWithReference() throws {
        let m = try makeMatcher(Self.categories, mode: .wordBoundary)
        var rng = SeededRandom(seed: 20_261_122)
        var counts: [String: Int] = [:]
        var substringOnly = 0 // a phrase is present, but only glued to word bytes
        var disagreements: [String] = []
        for n in 0..<4000 {
            let text = Self.sentence(&rng, tokens: 1 + Int(rng.next() % 10))
            let expected = AnchorReference.label(text, categories: Self.categories, word: true)
            let actual = label(m, text)
            if expected != actual, disagreements.count < 10 {
                disagreements.append("#\(n) \(text.debugDescription): expected \(expected ?? "nil"), got \(actual ?? "nil")")
            }
            counts[expected ?? "nil", default: 0] += 1
            if expected == nil && AnchorReference.label(text, categories: Self.categories, word: false) != nil {
                substringOnly += 1
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
        // The sample is not vacuous: every category and "no match" occur,
        // and so do phrases rejected only by the boundary rule.
        for (name, _) in Self.categories {
            #expect(counts[name, default: 0] > 20, "category \(name) was the label only \(counts[name, default: 0]) times")
        }
        #expect(counts["nil", default: 0] > 100)
        #expect(substringOnly > 50)
    }

    @Test("labels agree with the reference on texts longer than 4 KiB")
    func longTextsAgree() throws {
        let m = try makeMatcher(Self.categories, mode: .wordBoundary)
        var rng = SeededRandom(seed: 7)
        var disagreements: [String] = []
        for n in 0..<40 {
            var text = ""
            while text.utf8.count <= 4200 { text += Self.sentence(&rng, tokens: 3) + " " }
            text += Self.sentence(&rng, tokens: 2)
            let expected = AnchorReference.label(text, categories: Self.categories, word: true)
            if label(m, text) != expected { disagreements.append("#\(n): expected \(expected ?? "nil")") }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test("substring labels equal the reference rule (substring, Latin word edges kept) on 2000 pseudo-random ASCII sentences")
    func substringModeAgreesWithReference() throws {
        let m = try makeMatcher(Self.categories, mode: .substring)
        var rng = SeededRandom(seed: 99)
        var disagreements: [String] = []
        for n in 0..<2000 {
            let text = Self.sentence(&rng, tokens: 1 + Int(rng.next() % 8))
            let expected = AnchorReference.label(text, categories: Self.categories, word: false, latinEdges: true)
            let actual = label(m, text)
            if expected != actual, disagreements.count < 10 {
                disagreements.append("#\(n) \(text.debugDescription): expected \(expected ?? "nil"), got \(actual ?? "nil")")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }

    @Test("the reference itself behaves as specified on hand-checked cases")
    func referenceSanity() {
        let cats: [(String, [String])] = [("p", ["'s"]), ("q", ["always"])]
        #expect(AnchorReference.label("it's", categories: cats, word: true) == nil)
        #expect(AnchorReference.label("it 's", categories: cats, word: true) == "p")
        #expect(AnchorReference.label("xalways", categories: cats, word: true) == nil)
        #expect(AnchorReference.label("xalways always", categories: cats, word: true) == "q")
        #expect(AnchorReference.label("ALWAYS.", categories: cats, word: true) == "q")
        #expect(AnchorReference.label("xalways", categories: cats, word: false) == "q")
    }
}

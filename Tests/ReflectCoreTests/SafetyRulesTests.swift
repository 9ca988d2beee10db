import Testing
@testable import ReflectCore

/// Issue 19: the gate's proximity rules and the figures of
/// `reflect safety --report`.
@Suite("Safety proximity rules")
struct SafetyNearRulesTests {
    static let data = SafetyData(
        phrases: ["abuse": ["{who} ... {hit}"], "substance_abuse": ["{drug} ... to cope"], "suicide": ["want to die"]],
        slots: ["who": ["my husband", "mein mann"], "hit": ["hits me", "hit me", "geschlagen"], "drug": ["weed", "pills"]],
        negations: ["never", "not", "nicht"])

    @Test("two terms in order, in one clause, a few words apart")
    func window() throws {
        let gate = try SafetyGate(SafetyNearRulesTests.data)
        #expect(gate.check("my husband hits me") == .crisis(.abuse))
        #expect(gate.check("my husband gets drunk and hit me again") == .crisis(.abuse))
        #expect(gate.check("Mein Mann hat mich gestern wieder geschlagen") == .crisis(.abuse))
        #expect(gate.check("I smoke weed every single day to cope") == .crisis(.substanceAbuse))
        #expect(gate.check("I hit my husband's car by accident") == .ok, "order matters")
        #expect(gate.check("my husband left early. The ball hit me in the face") == .ok, "the window stops at a clause end")
        #expect(gate.check("my husband and I spent the whole long weekend cleaning and then the door hit me") == .ok,
                "more than \(NearRules.maxWords) words apart")
        #expect(gate.check("my husband never hits me") == .ok, "a negation between the terms")
        #expect(gate.check("my husband hits me and I want to die") == .crisis(.suicide), "the most urgent category still wins")
    }

    @Test("substring mode counts characters; Japanese particles and verb endings may come between")
    func substring() throws {
        let gate = try SafetyGate(SafetyData(phrases: ["abuse": ["夫 ... 殴られ"]]), mode: .substring)
        #expect(gate.check("夫にまた殴られた") == .crisis(.abuse))
        #expect(gate.check("夫と週末に映画を見に行って楽しかったけど、帰り道に自転車に殴られたような衝撃") == .ok)
    }

    @Test("a rule needs exactly two sides; its slots are checked like other phrases")
    func validation() {
        #expect(throws: LexiconError.self) { try SafetyGate.validate(SafetyData(phrases: ["abuse": ["a ... b ... c"]])) }
        #expect(throws: LexiconError.self) { try SafetyGate.validate(SafetyData(phrases: ["abuse": ["{nope} ... b"]])) }
        #expect(throws: Never.self) { try SafetyGate.validate(SafetyNearRulesTests.data) }
    }
}

/// Issue 19: languages that negate after the verb (German verb-second,
/// Japanese endings): `negations_after`.
@Suite("Safety negation after the phrase")
struct SafetyNegationAfterTests {
    static let german = SafetyData(
        phrases: ["suicide": ["ich will sterben"], "self_harm": ["ritze mich"], "abuse": ["{who} ... schlägt mich", "droht mir"]],
        slots: ["who": ["mein mann"], "neg": ["nicht", "nie"], "more": ["mehr", "wieder"]],
        negations: ["nicht"], negationsAfter: ["{neg}", "{neg} {more}"])

    @Test("the rest of the clause, whole, is a negation: the phrase does not count; anything more and it does")
    func wordMode() throws {
        let gate = try SafetyGate(SafetyNegationAfterTests.german)
        #expect(gate.check("Ich ritze mich") == .crisis(.selfHarm))
        #expect(gate.check("Ich ritze mich nicht.") == .ok)
        #expect(gate.check("Ich ritze mich nicht mehr") == .ok)
        #expect(gate.check("Ich ritze mich  nie wieder, versprochen") == .ok)
        #expect(gate.check("Ich ritze mich nicht mehr so oft wie früher") == .crisis(.selfHarm), "more than the negation follows")
        #expect(gate.check("Ich ritze mich. Nicht schön") == .crisis(.selfHarm), "the negation is in the next clause")
        #expect(gate.check("Ich ritze mich nicht mehr, aber ich will sterben") == .crisis(.suicide), "another phrase still counts")
        #expect(gate.check("Mein Mann schlägt mich nicht.") == .ok, "a proximity rule's right side")
        #expect(gate.check("Mein Mann schlägt mich nicht nur, er droht mir auch") == .crisis(.abuse))
        let long = "Ich ritze mich nicht" + String(repeating: " nicht", count: 100)
        #expect(gate.check(long) == .crisis(.selfHarm), "a rest longer than the window is not read as a negation")
    }

    @Test("substring mode: the ending follows the stem directly, up to the clause end (Japanese 。 reads as a space)")
    func substringMode() throws {
        let data = SafetyData(phrases: ["suicide": ["死ぬつもり"], "self_harm": ["自分を傷つけ"]],
                              slots: ["neg": ["はない", "たりしない", "ない"], "tail": ["", "よ", "から"]],
                              negationsAfter: ["{neg}{tail}"])
        let gate = try SafetyGate(data, mode: .substring)
        #expect(gate.check("死ぬつもりです") == .crisis(.suicide))
        #expect(gate.check("死ぬつもりはないよ") == .ok)
        #expect(gate.check("死ぬつもりはないから、安心して") == .ok)
        #expect(gate.check("自分を傷つけたりしない。") == .ok)
        #expect(gate.check("自分を傷つけないと落ち着かない") == .crisis(.selfHarm))
        #expect(gate.check("死ぬつもりはないよ。でも自分を傷つけてしまう") == .crisis(.selfHarm))
    }

    @Test("a compiled gate keeps the rule; the list's slots are checked")
    func compiledAndValidated() throws {
        let gate = try SafetyGate(SafetyNegationAfterTests.german)
        let read = try #require(SafetyGate(compiled: gate.compiled()))
        #expect(read.check("Ich ritze mich nicht mehr") == .ok)
        #expect(read.check("Ich ritze mich nicht mehr so oft") == .crisis(.selfHarm))
        #expect(throws: LexiconError.self) { try SafetyGate.validate(SafetyData(phrases: ["suicide": ["x"]], negationsAfter: ["{nope}"])) }
    }
}

/// Korean negates after the verb with spaces inside the negation
/// (하고 싶|지는 않아): `negations_after_scope: words`.
@Suite("Safety negation after the phrase, across spaces (scope words)")
struct SafetyNegationWordsTests {
    static let korean = SafetyData(
        phrases: ["suicide": ["죽고 싶", "더 이상 살고 싶지 않"], "self_harm": ["자해"], "abuse": ["{who} ... 때리"]],
        slots: ["who": ["남편이"], "lead": ["", "하고 싶", "고 싶"], "neg": ["지 않", "지는 않", "진 않"], "end": ["아", "아요"]],
        negationsAfter: ["{lead}{neg}{end}", "안 해"], negationsAfterScope: .words)

    @Test("whole words right after the phrase, across spaces, ending where a word ends; what follows does not matter")
    func words() throws {
        let gate = try SafetyGate(SafetyNegationWordsTests.korean, mode: .substring)
        #expect(gate.check("자해하고 싶어") == .crisis(.selfHarm))
        #expect(gate.check("자해하고 싶지는 않아") == .ok)
        #expect(gate.check("죽고 싶진 않아요 그냥 쉬고 싶어") == .ok, "the words after a closing ending are another sentence")
        #expect(gate.check("남편이 때리지는 않아요") == .ok, "a proximity rule's right side")
        #expect(gate.check("자해 안 해") == .ok, "the negation may begin after the spaces that end the phrase")
        #expect(gate.check("죽고 싶지 않은 날이 없어") == .crisis(.suicide), "않은 does not close the sentence")
        #expect(gate.check("죽고 싶지 않아서") == .crisis(.suicide), "the negation must end where a word ends")
        #expect(gate.check("더 이상 살고 싶지 않아") == .crisis(.suicide), "a phrase holding the negation cannot be cancelled by it")
        #expect(gate.check("죽고 싶. 지 않아") == .crisis(.suicide), "the clause ends at punctuation")
        #expect(gate.check("자해하고 싶지는 않아, 근데 죽고 싶어") == .crisis(.suicide), "another phrase still counts")
        let long = "죽고 싶지 않아" + String(repeating: " 가나다", count: SafetyGate.negationWindowBytes)
        #expect(gate.check(long) == .ok, "a long clause after the negation")
    }

    @Test("scope clause (the default) keeps the whole-rest rule in substring mode: a space ends the clause")
    func clauseIsUnchanged() throws {
        var data = SafetyNegationWordsTests.korean
        data.negationsAfterScope = .clause
        let gate = try SafetyGate(data, mode: .substring)
        #expect(gate.check("자해하고 싶지는 않아") == .crisis(.selfHarm))
        #expect(gate.check("죽고 싶진 않아") == .crisis(.suicide))
        #expect(gate.check("자해 안 해") == .crisis(.selfHarm))
    }

    @Test("a compiled gate keeps the scope")
    func compiled() throws {
        let gate = try SafetyGate(SafetyNegationWordsTests.korean, mode: .substring)
        let read = try #require(SafetyGate(compiled: gate.compiled()))
        for text in ["자해하고 싶지는 않아", "죽고 싶지 않은 날이 없어", "남편이 때리지는 않아요", "자해 안 해"] {
            #expect(read.check(text) == gate.check(text), "\(text)")
        }
    }

    @Test("random texts: the gate's reading of scope words equals a plain string reference")
    func reference() throws {
        let data = SafetyNegationWordsTests.korean
        let gate = try SafetyGate(data, mode: .substring)
        let entries = try PhraseLexicon(priority: ["x"], phrases: ["x": data.negationsAfter], slots: data.slots)
            .normalizedPhrases(of: "x").map { String(decoding: $0.bytes, as: UTF8.self) }
        let clauseEnds: Set<Character> = [",", ".", ";", ":", "!", "?"]
        // The rule as words: after the phrase and the spaces after it, up to
        // the clause end, an entry is a prefix that ends the text or a word.
        func negated(_ rest: Substring) -> Bool {
            let clause = rest.drop { $0 == " " }.prefix { !clauseEnds.contains($0) }
            return entries.contains { e in
                guard clause.hasPrefix(e) else { return false }
                let after = clause.dropFirst(e.count)
                return after.isEmpty || after.first == " " || clauseEnds.contains(after.first ?? " ")
            }
        }
        // Both readings the gate matches: normalised, and de-obfuscated (which
        // joins four or more one-syllable words in a row: "안 해 고 싶").
        func referenceVerdict(_ text: String) -> SafetyVerdict {
            var best: SafetyCategory?
            let plain = TextNormalizer.string(text)
            for reading in [plain, SafetyGate.deobfuscatedSqueezed(plain)] {
                for (phrase, category) in [("죽고 싶", SafetyCategory.suicide), ("자해", .selfHarm)] {
                    var from = reading.startIndex
                    while let r = reading.range(of: phrase, range: from..<reading.endIndex) {
                        if !negated(reading[r.upperBound...]), best == nil || category == .suicide { best = category }
                        from = reading.index(after: r.lowerBound)
                    }
                }
            }
            return best.map { .crisis($0) } ?? .ok
        }
        let pieces = ["죽고 싶", "자해", "죽고 싶", "자해", "하고 싶", "고 싶", "지", "지는", "진", "않", "아", "아요", "않아", "안", "해", "은",
                      "날이", "서", "지는 않아", "진 않아요", "지 않은", "하고 싶지는 않아", "안 해", " ", "  ", ",", ".", "!", "요"]
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var negatedSeen = 0
        for _ in 0..<20000 {
            var s = ""
            for _ in 0..<(1 + next(7)) { s += pieces[next(pieces.count)] + (next(100) < 30 ? " " : "") }
            let expected = referenceVerdict(s)
            #expect(gate.check(s) == expected, "\(s.debugDescription)")
            if expected == .ok, s.contains("자해") || s.contains("죽고 싶") { negatedSeen += 1 }
        }
        #expect(negatedSeen > 300, "\(negatedSeen) texts with a negated phrase")
    }
}

@Suite("Safety report figures")
struct SafetyReportTests {
    @Test("precision, recall and F1 per label, detection regardless of label, and the false-alarm rate")
    func figures() {
        let pairs: [(expected: String, predicted: String)] = [
            ("suicide", "suicide"), ("suicide", "crisis"), ("suicide", "ok"), ("crisis", "crisis"),
            ("ok", "ok"), ("ok", "ok"), ("ok", "abuse"), ("abuse", "abuse"),
        ]
        let report = SafetyReport(labels: ["ok", "suicide", "crisis", "abuse"], pairs: pairs)
        let suicide = report.rows[0], crisis = report.rows[1], abuse = report.rows[2]
        #expect(suicide.support == 3 && suicide.truePositives == 1 && suicide.falseNegatives == 2 && suicide.falsePositives == 0)
        #expect(abs(suicide.recall - 1.0 / 3) < 1e-9 && suicide.precision == 1)
        #expect(crisis.truePositives == 1 && crisis.falsePositives == 1 && crisis.precision == 0.5 && crisis.recall == 1)
        #expect(abs(crisis.f1 - 2.0 / 3) < 1e-9)
        #expect(abuse.falsePositives == 1 && abuse.truePositives == 1)
        #expect(report.any.support == 5 && report.any.truePositives == 4 && report.any.falseNegatives == 1 && report.any.falsePositives == 1)
        #expect(report.negatives == 3 && report.falseAlarms == 1)
        let table = report.table(title: "t")
        #expect(table.contains("false alarms: 1 of 3 ok lines (33.3%)"))
        #expect(table.split(separator: "\n").contains { $0.hasPrefix("crisis") && $0.hasSuffix("0.50    1.00   0.67") })
    }
}

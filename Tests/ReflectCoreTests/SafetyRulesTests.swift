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

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

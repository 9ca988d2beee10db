import Foundation
import Testing
@testable import ReflectCore

@Suite("DistortionDetector")
struct DistortionDetectorTests {
    static let lexicon = PhraseLexicon(
        priority: ["catastrophizing", "mind_reading", "labeling", "personalization", "should_statement", "overgeneralization"],
        phrases: [
            "catastrophizing": ["ruin everything", "worst", "disaster"],
            "mind_reading": ["hates me", "they think"],
            "labeling": ["i'm a {trait}", "i am a {trait}"],
            "personalization": ["my fault"],
            "should_statement": ["i should", "i must"],
            "overgeneralization": ["always", "never"],
        ],
        slots: ["trait": ["loser", "failure"]])

    /// A small rule set in the locale format: strengths, patterns, negation,
    /// clause breaks and own-words frames.
    static let rules = DistortionRules(
        priority: ["catastrophizing", "mind_reading", "labeling", "personalization", "should_statement", "overgeneralization"],
        cues: [
            "catastrophizing": .init(strong: ["what if ... {bad}", "disaster"], weak: ["terrible"]),
            "mind_reading": .init(strong: ["{other} thinks i"]),
            "labeling": .init(strong: ["i'm a {trait}"]),
            "personalization": .init(strong: ["my fault"]),
            "should_statement": .init(strong: ["i should have"], medium: ["i should"]),
            "overgeneralization": .init(strong: ["always ... {bad}"], weak: ["always", "never"]),
        ],
        slots: ["trait": ["loser", "failure", "idiot"], "bad": ["fail", "wrong", "die"], "other": ["she", "he", "my boss"]],
        negation: .init(before: ["not", "don't", "wasn't"], after: ["probably", "じゃない"], window: 2),
        clauseBreaks: ["but"],
        ownWords: ["i keep thinking"])

    @Test("each category is recognised from its phrases", arguments: [
        ("This is a disaster", DistortionType.catastrophizing),
        ("My boss hates me", .mindReading),
        ("I'm a failure", .labeling),
        ("I am a loser.", .labeling),
        ("It was all my fault", .personalization),
        ("I should have known", .shouldStatement),
        ("I never get it right", .overgeneralization),
    ])
    func eachCategory(thought: String, expected: DistortionType) throws {
        let detector = try DistortionDetector(Self.lexicon)
        #expect(detector.detect(thought) == expected)
    }

    @Test("a phrase inside another type's words does not compete; separate strong cues of two types leave it unknown")
    func competition() throws {
        let detector = try DistortionDetector(Self.rules)
        // "she thinks i" frames "i'm a failure": mind reading, fully confident.
        let framed = detector.detection("She thinks I'm a failure")
        #expect(framed.type == .mindReading)
        #expect(framed.confidence == 0.9)
        // Two separate strong readings: 0.9 × (1 − 0.9/2) = 0.495 < 0.5.
        let split = detector.detection("It's my fault. I'm a loser.")
        #expect(split.type == .unknown)
        #expect(split.candidate == .personalization)
        #expect(abs(split.confidence - 0.495) < 1e-9)
    }

    @Test("confidence: strong 0.9, medium 0.6, weak 0.3; matches on separate words combine; below the threshold is unknown")
    func confidence() throws {
        let detector = try DistortionDetector(Self.rules)
        #expect(detector.detection("I should call her").confidence == 0.6)
        #expect(detector.detection("I should call her").type == .shouldStatement)
        #expect(detector.detection("That was terrible").type == .unknown)
        #expect(detector.detection("That was terrible").candidate == .catastrophizing)
        #expect(detector.detection("That was terrible").confidence == 0.3)
        // "always" and "never" on separate words: 1 − 0.7 × 0.7 = 0.51.
        #expect(detector.detection("always or never").type == .overgeneralization)
        #expect(abs(detector.detection("always or never").confidence - 0.51) < 1e-9)
        // "i should have" and "i should" share words: the stronger counts alone.
        #expect(detector.detection("I should have called").confidence == 0.9)
        var strict = Self.rules
        strict.threshold = 0.7
        #expect(try DistortionDetector(strict).detection("I should call her").type == .unknown)
        #expect(detector.detection("The bus was late") == .none)
    }

    @Test("a slot follows the piece before it; '...' reaches anywhere later in the same sentence, not past it")
    func patterns() throws {
        let detector = try DistortionDetector(Self.rules)
        #expect(detector.detect("I'm a total idiot") == .unknown)
        #expect(detector.detect("I'm a  idiot") == .labeling)
        #expect(detector.detect("What if the plane goes down and we all die?") == .catastrophizing)
        #expect(detector.detect("What if we go out? I could die of boredom") == .unknown)
        #expect(detector.detect("die, what if") == .unknown)
        #expect(detector.detect("It always goes wrong") == .overgeneralization)
        #expect(detector.detect("It always rains") == .unknown)
    }

    @Test("negation before a match within the window, in the same clause, cancels it; so does a word after it")
    func negation() throws {
        let detector = try DistortionDetector(Self.rules)
        #expect(detector.detect("It's not my fault") == .unknown)
        #expect(detector.detect("It wasn't my fault") == .unknown)
        let frame = detector.explain("I don't think she thinks I'm a loser").matches.first { $0.type == .mindReading }
        #expect(frame?.status == .negated(by: "don't"))
        // Too far: "not" is four words before "my fault" (window 2).
        #expect(detector.detect("Not much sleep and then my fault") == .personalization)
        // A clause break stops it.
        #expect(detector.detect("I'm not sure but my fault") == .personalization)
        #expect(detector.detect("I'm not sure, my fault") == .personalization)
        #expect(detector.detect("I should probably call her") == .unknown)
        let explanation = detector.explain("It's not my fault")
        #expect(explanation.matches.first?.status == .negated(by: "not"))
    }

    @Test("someone else's quoted words are skipped; a whole quoted thought or one after an own-words frame counts")
    func quotation() throws {
        let detector = try DistortionDetector(Self.rules)
        #expect(detector.detect("My friend joked \"I'm a loser\" and we laughed") == .unknown)
        #expect(detector.detect("He said “I'm a loser” about himself") == .unknown)
        #expect(detector.detect("Er sagte „I'm a loser“ und lachte") == .unknown)
        #expect(detector.detect("Mom said 「I'm a loser」 lol") == .unknown)
        #expect(detector.detect("\"I'm a loser\"") == .labeling)
        #expect(detector.detect("I keep thinking \"I'm a loser\" all day") == .labeling)
        // An unclosed mark quotes nothing.
        #expect(detector.detect("He said \"I'm a loser") == .labeling)
        #expect(detector.explain("He said \"I'm a loser\" today").matches.first?.status == .quoted)
    }

    @Test("substring mode: Japanese without spaces, negation after the match, 。 ends a sentence")
    func japanese() throws {
        let rules = DistortionRules(
            priority: ["personalization", "overgeneralization", "catastrophizing"],
            cues: ["personalization": .init(strong: ["私のせい"]), "overgeneralization": .init(weak: ["いつも"]),
                   "catastrophizing": .init(strong: ["もし ... {bad}"])],
            slots: ["bad": ["死ぬ", "失敗"]],
            negation: .init(after: ["じゃない"], window: 2))
        let detector = try DistortionDetector(rules, mode: .substring)
        #expect(detector.detect("全部私のせいだ") == .personalization)
        #expect(detector.detect("私のせいじゃない") == .unknown)
        #expect(detector.detect("いつも失敗する") == .unknown)
        #expect(detector.detect("もし試験に失敗したら") == .catastrophizing)
        #expect(detector.detect("もし晴れたら。失敗した") == .unknown)
        #expect(try DistortionDetector(rules).detect("全部私のせいだ") == .unknown)
    }

    @Test("equal scores: the earlier match frames the later one; then priority")
    func ties() throws {
        let detector = try DistortionDetector(Self.lexicon)
        var rules = DistortionRules(priority: ["catastrophizing", "overgeneralization"],
                                    cues: ["catastrophizing": .init(strong: ["ruin everything"]), "overgeneralization": .init(strong: ["ruin"])])
        let e = try DistortionDetector(rules).explain("I ruin everything")
        #expect(e.detection.type == .catastrophizing)
        #expect(e.scores.map(\.type) == [.catastrophizing, .overgeneralization])
        rules.priority = ["overgeneralization", "catastrophizing"]
        #expect(try DistortionDetector(rules).detect("I ruin everything") == .overgeneralization)
    }

    @Test("labels are deterministic: the same text gives the same detection, in any order and from a fresh detector")
    func deterministic() throws {
        let texts = ["She thinks I'm a failure", "What if I fail and die", "It's not my fault, I always fail", "I should have", "x"]
        let a = try DistortionDetector(Self.rules)
        let b = try DistortionDetector(Self.rules)
        let forward = texts.map(a.detection)
        let backward = Array(texts.reversed().map(b.detection).reversed())
        #expect(forward == backward)
    }

    @Test("hostile input: thousands of matches and quotes in one sentence finish quickly (no backtracking)")
    func linear() throws {
        let detector = try DistortionDetector(Self.rules)
        let long = String(repeating: "what if not my fault \"always\" she thinks i'm a loser ", count: 4000)
        let start = Date()
        _ = detector.detection(long)
        _ = detector.explain(String(long.prefix(20000)))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("an unknown category name in priority is a LexiconError naming it")
    func unknownCategory() throws {
        var lexicon = Self.lexicon
        lexicon.priority.append("doomscrolling")
        let error = try #require(throws: LexiconError.self) { try DistortionDetector(lexicon) }
        #expect(error.category == "doomscrolling")
        #expect(error.reason.contains("overgeneralization"))
    }

    @Test("'unknown' is not an acceptable category name")
    func unknownIsNotACategory() throws {
        let lexicon = PhraseLexicon(priority: ["unknown"], phrases: ["unknown": ["meh"]])
        let error = try #require(throws: LexiconError.self) { try DistortionDetector(lexicon) }
        #expect(error.category == "unknown")
    }

    @Test("bad patterns name the type and rule: unknown slot, empty piece around '...', threshold out of range")
    func badPatterns() throws {
        func error(_ rule: String) throws -> LexiconError {
            try #require(throws: LexiconError.self) {
                try DistortionDetector(DistortionRules(priority: ["labeling"], cues: ["labeling": .init(strong: [rule])]))
            }
        }
        #expect(try error("i'm a {kind}").reason.contains("unknown or empty slot '{kind}'"))
        #expect(try error("i'm a {kind}").phrase == "i'm a {kind}")
        #expect(try error("what if ...").reason.contains("empty piece"))
        var rules = Self.rules
        rules.threshold = 1.5
        #expect(throws: LexiconError.self) { try DistortionDetector(rules) }
    }

    @Test("case, accents and apostrophe variants do not matter")
    func folding() throws {
        let detector = try DistortionDetector(Self.lexicon)
        #expect(detector.detect("I’M A FAILURE") == .labeling)
        #expect(detector.detect("ＩＴ ＷＡＳ ＭＹ ＦＡＵＬＴ") == .personalization)
        let es = PhraseLexicon(priority: ["should_statement"], phrases: ["should_statement": ["deberia"]])
        #expect(try DistortionDetector(es).detect("Debería haberlo sabido") == .shouldStatement)
    }
}

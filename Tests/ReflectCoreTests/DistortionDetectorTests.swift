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

    @Test("'I always ruin everything' is catastrophizing, not overgeneralization")
    func priority() throws {
        let detector = try DistortionDetector(Self.lexicon)
        #expect(detector.detect("I always ruin everything") == .catastrophizing)
        #expect(detector.detect("I ruin everything, always") == .catastrophizing)
        var reversed = Self.lexicon
        reversed.priority = ["overgeneralization", "catastrophizing"]
        #expect(try DistortionDetector(reversed).detect("I always ruin everything") == .overgeneralization)
    }

    @Test("no match is .unknown")
    func unknown() throws {
        let detector = try DistortionDetector(Self.lexicon)
        #expect(detector.detect("The bus was late today") == .unknown)
        #expect(detector.detect("") == .unknown)
        #expect(detector.detect("nevertheless, worsted") == .unknown)
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

    @Test("a bad slot in the lexicon is reported by the detector")
    func badSlot() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: ["labeling": ["i'm a {kind}"]])
        #expect(throws: LexiconError.self) { try DistortionDetector(lexicon) }
    }

    @Test("substring mode detects Japanese without spaces")
    func japanese() throws {
        let lexicon = PhraseLexicon(priority: ["catastrophizing", "overgeneralization"],
                                    phrases: ["catastrophizing": ["最悪"], "overgeneralization": ["いつも"]])
        let detector = try DistortionDetector(lexicon, mode: .substring)
        #expect(detector.detect("私はいつも失敗する") == .overgeneralization)
        #expect(detector.detect("いつも最悪だ") == .catastrophizing)
        #expect(try DistortionDetector(lexicon).detect("私はいつも失敗する") == .unknown)
    }

    @Test("case, accents and apostrophe variants do not matter")
    func folding() throws {
        let detector = try DistortionDetector(Self.lexicon)
        #expect(detector.detect("I’M A FAILURE") == .labeling)
        let es = PhraseLexicon(priority: ["should_statement"], phrases: ["should_statement": ["deberia"]])
        #expect(try DistortionDetector(es).detect("Debería haberlo sabido") == .shouldStatement)
    }
}

import Testing
@testable import ReflectCore

@Suite("PhraseLexicon slot expansion")
struct PhraseLexiconTests {
    @Test("a phrase without slots expands to itself")
    func noSlots() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: ["labeling": ["loser", "i'm a failure"]])
        #expect(try lexicon.expandedPhrases(of: "labeling") == ["loser", "i'm a failure"])
    }

    @Test("a slot expands to one phrase per entry, in list order")
    func oneSlot() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: ["labeling": ["i'm a {trait}"]],
                                    slots: ["trait": ["loser", "failure", "mess"]])
        #expect(try lexicon.expandedPhrases(of: "labeling") == ["i'm a loser", "i'm a failure", "i'm a mess"])
    }

    @Test("two slots expand to every combination, first slot outermost")
    func twoSlots() throws {
        let lexicon = PhraseLexicon(priority: ["mind_reading"], phrases: ["mind_reading": ["{who} {verb} me"]],
                                    slots: ["who": ["he", "she"], "verb": ["hates", "judges"]])
        #expect(try lexicon.expandedPhrases(of: "mind_reading")
                == ["he hates me", "he judges me", "she hates me", "she judges me"])
    }

    @Test("a slot value may itself contain a slot")
    func nestedSlot() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: ["labeling": ["i'm a {noun}"]],
                                    slots: ["noun": ["{adj} person", "loser"], "adj": ["bad", "weak"]])
        #expect(try lexicon.expandedPhrases(of: "labeling") == ["i'm a bad person", "i'm a weak person", "i'm a loser"])
    }

    @Test("a category without phrases expands to nothing")
    func missingCategory() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: [:])
        #expect(try lexicon.expandedPhrases(of: "labeling").isEmpty)
    }

    @Test("a lone closing brace is literal text")
    func loneClosingBrace() throws {
        let lexicon = PhraseLexicon(priority: ["x"], phrases: ["x": ["a } b"]])
        #expect(try lexicon.expandedPhrases(of: "x") == ["a } b"])
    }

    @Test("an unknown slot is a LexiconError naming the category, the phrase and the slot")
    func unknownSlot() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: ["labeling": ["i'm a {trait}"]],
                                    slots: ["traits": ["loser"]])
        let error = try #require(throws: LexiconError.self) { try lexicon.expandedPhrases(of: "labeling") }
        #expect(error.category == "labeling")
        #expect(error.phrase == "i'm a {trait}")
        #expect(error.reason.contains("'{trait}'"))
        #expect(error.description.hasPrefix("labeling: \"i'm a {trait}\": "))
    }

    @Test("an empty slot list is a LexiconError too")
    func emptySlot() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: ["labeling": ["i'm a {trait}"]], slots: ["trait": []])
        let error = try #require(throws: LexiconError.self) { try lexicon.expandedPhrases(of: "labeling") }
        #expect(error.reason.contains("{trait}"))
    }

    @Test("empty braces name an unknown slot")
    func emptyBraces() throws {
        let lexicon = PhraseLexicon(priority: ["x"], phrases: ["x": ["a {} b"]], slots: ["trait": ["y"]])
        #expect(throws: LexiconError.self) { try lexicon.expandedPhrases(of: "x") }
    }

    @Test("an unclosed brace is a LexiconError")
    func unclosedBrace() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: ["labeling": ["i'm a {trait"]], slots: ["trait": ["loser"]])
        let error = try #require(throws: LexiconError.self) { try lexicon.expandedPhrases(of: "labeling") }
        #expect(error == LexiconError(category: "labeling", phrase: "i'm a {trait", reason: "unclosed '{'"))
    }

    @Test("a matcher refuses a lexicon with a bad slot, and an empty phrase")
    func matcherPropagatesErrors() throws {
        let badSlot = PhraseLexicon(priority: ["a", "b"], phrases: ["a": ["fine"], "b": ["{nope}"]])
        let slotError = try #require(throws: LexiconError.self) { try PhraseMatcher(badSlot, mode: .wordBoundary) }
        #expect(slotError.category == "b")
        let empty = PhraseLexicon(priority: ["a"], phrases: ["a": ["fine", ""]])
        let emptyError = try #require(throws: LexiconError.self) { try PhraseMatcher(empty, mode: .substring) }
        #expect(emptyError.reason .hasPrefix("empty phrase"))
    }

    @Test("expanded phrases are what the matcher matches")
    func expandedPhrasesMatch() throws {
        let lexicon = PhraseLexicon(priority: ["labeling"], phrases: ["labeling": ["i'm a {trait}"]],
                                    slots: ["trait": ["loser", "failure"]])
        let m = try PhraseMatcher(lexicon, mode: .wordBoundary)
        #expect(m.match("I'm a failure at this") == 0)
        #expect(m.match("I'm a loser.") == 0)
        #expect(m.match("I'm a {trait}") == nil)
        #expect(m.match("I'm a winner") == nil)
    }
}

import Testing
@testable import ReflectCore

/// Ninth pass of the safety gate: `benign_unless`. A benign idiom that a
/// `benign_unless` phrase overlaps is not blanked, so the crisis phrases see
/// the text as written: "I'd rather die than go on like this" is a
/// preference for death, "I'd rather die than go to that party" a
/// comparison with something trivial. Before, the idiom "rather die than"
/// blanked both.
@Suite("Safety: benign idioms kept by benign_unless")
struct SafetyBenignUnlessTests {
    static let data = SafetyData(
        phrases: ["suicide": ["rather die", "rather be dead"], "abuse": ["hits me"]],
        slots: ["gap": ["", "have to ", "just "], "go_on": ["go on like this", "keep living", "feel this way"]],
        benign: ["rather die than", "rather be dead than", "hits me with a snowball"],
        benignUnless: ["rather die than {gap}{go_on}", "rather be dead than {gap}{go_on}"],
        negations: ["never"])

    @Test("an idiom carried on by a benign_unless phrase is matched as written; a trivial comparison stays quiet")
    func kept() throws {
        let gate = try SafetyGate(SafetyBenignUnlessTests.data)
        #expect(gate.check("I'd rather die than go on like this") == .crisis(.suicide))
        #expect(gate.check("I would rather die than keep living like this") == .crisis(.suicide))
        #expect(gate.check("Some nights I'd rather be dead than feel this way") == .crisis(.suicide))
        #expect(gate.check("I'd rather die than have to go on like this") == .crisis(.suicide))
        #expect(gate.check("i'd RATHER DIE THAN just feel this way") == .crisis(.suicide))
        #expect(gate.check("I'd rather die than go to that party") == .ok)
        #expect(gate.check("I'd rather die than eat broccoli") == .ok)
        #expect(gate.check("I'd rather be dead than wear that") == .ok)
        #expect(gate.check("I would never say I'd rather die than go on like this") == .ok)
    }

    @Test("the de-obfuscated reading keeps the idiom too")
    func squeezed() throws {
        let gate = try SafetyGate(SafetyBenignUnlessTests.data)
        #expect(gate.check("I'd rather d1e than go on l1ke this") == .crisis(.suicide))
        #expect(gate.check("I'd raaather die than keeep living") == .crisis(.suicide))
        #expect(gate.check("I'd rather d1e than go to that party") == .ok)
    }

    @Test("a benign_unless phrase keeps only the idioms it overlaps, and flags nothing itself")
    func onlyOverlapping() throws {
        let gate = try SafetyGate(SafetyBenignUnlessTests.data)
        // The idiom in another sentence is still blanked.
        #expect(gate.check("He hits me with a snowball every winter. I'd rather die than go on like this")
                == .crisis(.suicide))
        #expect(gate.check("He hits me with a snowball every winter and I feel this way about it") == .ok)
        #expect(gate.check("I'd rather die than eat broccoli, and I go on like this every day") == .ok)
        #expect(gate.check("I go on like this, and feel this way") == .ok)
    }

    @Test("kept in the compiled gate: the same verdicts after a round trip")
    func compiled() throws {
        let gate = try SafetyGate(SafetyBenignUnlessTests.data)
        let read = try #require(SafetyGate(compiled: gate.compiled()))
        for text in ["I'd rather die than go on like this", "I'd rather die than go to that party",
                     "Some nights I'd rather be dead than feel this way", "I'd rather be dead than wear that"] {
            #expect(read.check(text) == gate.check(text), "\(text)")
        }
    }

    @Test("an unknown slot in a benign_unless phrase is an error")
    func unknownSlot() {
        var data = SafetyBenignUnlessTests.data
        data.benignUnless.append("rather die than {later}")
        #expect(throws: LexiconError.self) { try SafetyGate.validate(data) }
        #expect(throws: LexiconError.self) { try SafetyGate(data) }
    }
}

import Testing
@testable import ReflectCore

/// Tenth pass of the safety gate, its two code changes:
/// - a `benign_unless` entry may be a proximity rule ("rather die than ...
///   {how_long}"): "I'd rather die than deal with this mess any longer" is
///   life-weariness whatever comes between, "I'd rather die than go to that
///   party" stays a comparison with something trivial;
/// - a benign idiom the de-obfuscated reading finds (stretched, l33t or
///   spelled out: "a sliiice of cake") is blanked in the plain reading too,
///   which would otherwise see the crisis phrase beside it alone.
@Suite("Safety: exceptions as proximity rules, idioms of the de-obfuscated reading")
struct SafetyTenthPassTests {
    static let data = SafetyData(
        phrases: ["suicide": ["rather die", "want to die"], "self_harm": ["cut myself"]],
        slots: ["how_long": ["any longer", "anymore", "for one more day"], "go_on": ["go on like this"],
                "portion": ["slice", "piece"]],
        benign: ["rather die than", "cut myself a {portion}", "to die for"],
        benignUnless: ["rather die than {go_on}", "rather die than ... {how_long}"],
        negations: ["never"])

    @Test("a proximity exception keeps the idiom, whatever few words come between, in one clause")
    func proximityException() throws {
        let gate = try SafetyGate(SafetyTenthPassTests.data)
        #expect(gate.check("I'd rather die than deal with this mess any longer") == .crisis(.suicide))
        #expect(gate.check("I'd rather die than do this anymore") == .crisis(.suicide))
        #expect(gate.check("I would rather die than feel like this for one more day") == .crisis(.suicide))
        #expect(gate.check("I'd rather die than go on like this") == .crisis(.suicide))
        #expect(gate.check("I'd rather die than go to that party") == .ok)
        // Too far, another clause, or before the idiom: no exception.
        #expect(gate.check("I'd rather die than go to that party with all of those people anymore") == .ok)
        #expect(gate.check("I'd rather die than go to that party, I can't wait any longer for the weekend") == .ok)
        #expect(gate.check("Any longer and I'd rather die than go to that party") == .ok)
    }

    @Test("an idiom found only in the de-obfuscated reading is blanked in the plain one; the crisis word beside it is not")
    func stretchedIdiom() throws {
        let gate = try SafetyGate(SafetyTenthPassTests.data)
        #expect(gate.check("I cut myself a slice of cake") == .ok)
        #expect(gate.check("I cut myself a sliiice of cake") == .ok)
        #expect(gate.check("I cut myself a sl1ce of cake") == .ok)
        #expect(gate.check("I cut myself a s.l.i.c.e of cake") == .ok)
        #expect(gate.check("I cut myself a piiieceee of pie") == .ok)
        #expect(gate.check("this cake is to diiie for") == .ok)
        #expect(gate.check("I cut myself again") == .crisis(.selfHarm))
        #expect(gate.check("I cut myself a sliiice of cake and I want to diiie") == .crisis(.suicide))
        #expect(gate.check("I want to diiie") == .crisis(.suicide))
        #expect(gate.check("I cut mysellllf a bit") == .crisis(.selfHarm))
        // Non-ASCII text takes the general path: the same.
        #expect(gate.check("I cut myself a sliiice of gâteau") == .ok)
        #expect(gate.check("I cut myself — again — a bit, é") == .crisis(.selfHarm))
    }

    @Test("kept in the compiled gate: the same verdicts after a round trip")
    func compiled() throws {
        let gate = try SafetyGate(SafetyTenthPassTests.data)
        let read = try #require(SafetyGate(compiled: gate.compiled()))
        for text in ["I'd rather die than deal with this mess any longer", "I'd rather die than go to that party",
                     "I cut myself a sliiice of cake", "I cut myself again"] {
            #expect(read.check(text) == gate.check(text), "\(text)")
        }
    }

    @Test("a proximity exception with an unknown slot, or one side empty, is an error")
    func invalid() {
        for bad in ["rather die than ... {later}", "rather die than ... "] {
            var data = SafetyTenthPassTests.data
            data.benignUnless.append(bad)
            #expect(throws: LexiconError.self) { try SafetyGate.validate(data) }
            #expect(throws: LexiconError.self) { try SafetyGate(data) }
        }
    }
}

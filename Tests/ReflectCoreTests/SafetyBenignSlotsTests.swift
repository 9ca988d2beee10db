import Testing
@testable import ReflectCore

/// Eighth pass of the safety gate: benign idioms may use the layer's slots
/// ("cut myself a {portion}", "{imgone} {away}"), expanded before they are
/// compiled, in both readings (plain and de-obfuscated), and checked by
/// ``SafetyGate/validate(_:)`` like phrases.
@Suite("Safety: benign idioms with slots")
struct SafetyBenignSlotsTests {
    static let data = SafetyData(
        phrases: ["suicide": ["for when i'm gone"], "self_harm": ["cut myself"]],
        slots: ["portion": ["slice", "piece"], "size": ["big", "thin"], "away": ["on holiday", "for the {span}"],
                "span": ["weekend", "week"]],
        benign: ["cut myself a {portion}", "cut myself a {size} {portion}", "i'm gone {away}"],
        negations: ["never"])

    @Test("every expansion of a benign idiom is blanked, nested slots too; what no expansion covers stays an alarm")
    func expanded() throws {
        let gate = try SafetyGate(SafetyBenignSlotsTests.data)
        #expect(gate.check("I cut myself a slice of cake") == .ok)
        #expect(gate.check("I cut myself a thin piece of bread") == .ok)
        #expect(gate.check("I cut myself a bit last night") == .crisis(.selfHarm))
        #expect(gate.check("I cut myself again") == .crisis(.selfHarm))
        #expect(gate.check("water the plants for when I'm gone on holiday") == .ok)
        #expect(gate.check("feed the cat for when I'm gone for the weekend") == .ok)
        #expect(gate.check("sort it all out for when I'm gone for good") == .crisis(.suicide))
    }

    @Test("the de-obfuscated reading expands them too")
    func squeezed() throws {
        let gate = try SafetyGate(SafetyBenignSlotsTests.data)
        #expect(gate.check("I cut mys3lf a sl1ce of cake") == .ok)
        #expect(gate.check("I cut mys3lf a p1ece of cake") == .ok)
        #expect(gate.check("I cut mys3lf again") == .crisis(.selfHarm))
    }

    @Test("an unknown slot in a benign idiom is an error naming it")
    func unknownSlot() {
        var data = SafetyBenignSlotsTests.data
        data.benign.append("cut myself some {food}")
        #expect(throws: LexiconError.self) { try SafetyGate.validate(data) }
        #expect(throws: LexiconError.self) { try SafetyGate(data) }
    }
}

import Testing
@testable import ReflectCore

/// Seventh pass of the safety gate: a negation (or a benign idiom that
/// spells one) cancels only the crisis phrase it covers. A sentence that
/// calls the negation untrue ("if I said I didn't want to die I'd be
/// lying") voids it (`negations_void`); Korean's short 안 negates only the
/// verb right after it.
@Suite("Safety: what a negation reaches")
struct SafetyNegationReachTests {
    static let english = SafetyData(
        phrases: ["suicide": ["want to die", "thinking about killing myself"], "self_harm": ["cut myself"]],
        benign: ["a lie down", "killing it"],
        negations: ["don't", "never", "not"],
        negationsVoid: ["be lying", "a lie", "never stop thinking"])

    @Test("a negation said to be untrue in its sentence does not cancel the phrase; a denied lie voids nothing")
    func voided() throws {
        let gate = try SafetyGate(SafetyNegationReachTests.english)
        #expect(gate.check("I don't want to die") == .ok)
        #expect(gate.check("if I said I don't want to die I'd be lying") == .crisis(.suicide))
        #expect(gate.check("if I said I don't want to die, I'd be lying") == .crisis(.suicide), "a comma does not end the sentence")
        #expect(gate.check("it would be a lie to say I don't want to die") == .crisis(.suicide), "the voiding phrase may come first")
        #expect(gate.check("I never stop thinking about killing myself") == .crisis(.suicide), "a verb of stopping takes the negation")
        #expect(gate.check("I need a lie down, I don't want to die") == .ok, "a voiding phrase blanked by a benign idiom")
        #expect(gate.check("I would not be lying: I don't want to die") == .ok, "a negated voiding phrase")
        #expect(gate.check("That was a lie. I don't want to die") == .ok, "another sentence")
        #expect(gate.check("I don't want to die\nhe told a lie") == .ok, "a line break ends the sentence")
        let far = "I don't want to die " + String(repeating: "and so on ", count: 20) + "a lie"
        #expect(gate.check(far) == .ok, "too far apart")
    }

    @Test("a benign idiom is not blanked in a sentence that calls the negation untrue")
    func idiomVoided() throws {
        var data = SafetyNegationReachTests.english
        data.benign.append("don't want to die")
        let gate = try SafetyGate(data)
        #expect(gate.check("I don't want to die") == .ok)
        #expect(gate.check("saying I don't want to die would be a lie") == .crisis(.suicide))
        #expect(gate.check("I don't want to die. that was a lie") == .ok, "an idiom in another sentence stays blanked")
    }

    @Test("a compiled gate keeps the voiding phrases, plain and de-obfuscated")
    func compiled() throws {
        let gate = try SafetyGate(SafetyNegationReachTests.english)
        let read = try #require(SafetyGate(compiled: gate.compiled()))
        for text in ["if I said I don't want to die I'd be lying", "I need a lie down, I don't want to die", "I don't want to die",
                     "1f I s4id I don't w4nt t0 d1e I'd b3 ly1ng"] {
            #expect(read.check(text) == gate.check(text), "\(text)")
        }
        #expect(gate.check("1f I s4id I don't w4nt t0 d1e I'd b3 ly1ng") == .crisis(.suicide))
    }

    static let korean = SafetyData(
        phrases: ["suicide": ["죽고 싶"], "self_harm": ["자해"], "abuse": ["{who} ... 때리", "{who} ... 때려", "{who} ... 때렸"]],
        slots: ["who": ["남편이", "남편"], "lead": ["", "하"], "neg": ["지 않"], "end": ["아", "다"]],
        negations: ["안"],
        negationsAfter: ["{lead}{neg}{end}"], negationsAfterScope: .words,
        negationsVoid: ["거짓말", "않아 보이려"])

    @Test("substring mode: a negation before counts only as its own word right before the phrase (Korean 안 때려요)")
    func shortNegation() throws {
        let gate = try SafetyGate(SafetyNegationReachTests.korean, mode: .substring)
        #expect(gate.check("남편이 안 때려요") == .ok)
        #expect(gate.check("남편이 절대 안 때려요") == .ok)
        #expect(gate.check("남편이 안때려요") == .ok, "안 written together with the verb")
        #expect(gate.check("남편이 때려요") == .crisis(.abuse))
        #expect(gate.check("한동안 남편이 때렸어요") == .crisis(.abuse), "안 inside 한동안 is no negation")
        #expect(gate.check("안방에서 남편이 때려요") == .crisis(.abuse), "nor inside 안방")
        #expect(gate.check("남편이 술 안 마시면 때려요") == .crisis(.abuse), "안 negates the verb right after it only")
        #expect(gate.check("잠도 안 오고 죽고 싶어") == .crisis(.suicide), "안 three words before the phrase")
    }

    @Test("Korean: a negation that does not close the sentence, or one called untrue or a mask, does not cancel")
    func koreanVoided() throws {
        let gate = try SafetyGate(SafetyNegationReachTests.korean, mode: .substring)
        #expect(gate.check("죽고 싶지 않아") == .ok)
        #expect(gate.check("자해하지 않다") == .ok)
        #expect(gate.check("자해하지 않고 버틸 수가 없어") == .crisis(.selfHarm))
        #expect(gate.check("죽고 싶지 않다고 하면 거짓말이야") == .crisis(.suicide))
        #expect(gate.check("죽고 싶지 않다 그건 거짓말이야") == .crisis(.suicide), "a closing negation called a lie")
        #expect(gate.check("죽고 싶지 않아 보이려고 웃어") == .crisis(.suicide), "an auxiliary after the closing ending")
        #expect(gate.check("죽고 싶지 않아. 거짓말 좀 그만해") == .ok, "another sentence")
    }
}

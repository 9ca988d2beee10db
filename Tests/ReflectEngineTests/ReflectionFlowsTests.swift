import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

@Suite("The three reflection flows")
struct ReflectionFlowsTests {
    let catalog = FlowCatalog(root: ContentRoot(repositoryRoot))

    func open(_ mood: Mood) throws -> FlowSession {
        try FlowSession.open(try catalog.source(for: "reflection", mood: mood), language: try english(), options: options(seed: 1))
    }

    @Test("the mood picks the flow: negative for bad and horrible, neutral for average, positive for good and great",
          arguments: [(Mood.horrible, "reflection.negative"), (.bad, "reflection.negative"), (.average, "reflection.neutral"),
                      (.good, "reflection.positive"), (.great, "reflection.positive")])
    func moodSelection(mood: Mood, id: String) throws {
        #expect(try open(mood).definition.id == id)
    }

    @Test("Q3 is chosen by the thought's distortion and quotes it",
          arguments: [
            ("I always mess everything up", "Can you think of one counter-example to 'I always mess everything up'?"),
            ("I should have done better", "Where did the rule 'I should …' come from? Is it still serving you?"),
            ("I'm such a failure", "Is 'I'm such a failure' something you are, or something you did?"),
            ("I always ruin everything", "What's the worst case? What's the most likely case?"),
            ("It's my fault the project failed", "What other factors, besides you, contributed to this?"),
            ("She thinks I'm an idiot", "What evidence do you have for that interpretation? What else could it mean?"),
            ("I had a meeting at 3pm", "If a good friend told you 'I had a meeting at 3pm', what would you want them to consider?"),
          ])
    func q3ByDistortion(thought: String, q3: String) throws {
        let session = try open(.bad)
        let events = try drive(session, [.number(7), .text("My manager criticised my report in the team meeting"), .text(thought)])
        #expect(session.current?.step == "perspective")
        #expect(session.current?.text == q3)
        let type = try #require(events.compactMap { if case .distortion(_, let t, _) = $0 { t } else { nil } }.first)
        #expect(session.distortions["thought"] == type)
    }

    @Test("a 200-character thought is quoted cut at its first sentence or at 60 characters plus …")
    func longThoughtQuoted() throws {
        let oneSentence = "I keep thinking that everyone in the meeting noticed how nervous I was and that they will remember it "
            + "every time they see me from now on and that it will follow me around at work for a very long time"
        #expect(oneSentence.count >= 190)
        let session = try open(.bad)
        try session.answer(.number(5), .text("The quarterly review went badly in front of everyone"), .text(oneSentence))
        let q3 = try #require(session.current?.text)
        let quoted = try #require(q3.split(separator: "'").dropFirst().first)
        #expect(quoted.hasSuffix("…"))
        #expect(quoted.count <= 61)
        #expect(oneSentence.hasPrefix(quoted.dropLast()))

        let twoSentences = "I failed the exam. " + String(repeating: "And then the whole day went downhill from there on. ", count: 4)
        let second = try open(.bad)
        try second.answer(.number(5), .text("The exam results came out this morning at school"), .text(twoSentences))
        #expect(second.current?.text == "If a good friend told you 'I failed the exam', what would you want them to consider?")
    }

    @Test("the situation probe fires for a vague answer and not for a full sentence")
    func probe() throws {
        for (answer, fires) in [("idk", true), ("everything", true), ("same as always, nothing new", true),
                                ("My manager criticised my report in front of the whole team", false)] {
            let session = try open(.bad)
            try session.answer(.number(6))
            let events = try session.submit(.text(answer))
            let probed = events.contains { if case .probe(let step, _) = $0 { step == "situation" } else { false } }
            #expect(probed == fires, "\(answer)")
            #expect(session.current?.step == "thought", "the probe never blocks")
        }
    }

    @Test("positive has 3 questions, neutral 4, negative 5, between two intensities; done reports the change",
          arguments: [(Mood.great, 3), (.average, 4), (.horrible, 5)])
    func lengths(mood: Mood, questions: Int) throws {
        let session = try open(mood)
        var inputs: [AnswerInput] = [.number(8)]
        inputs += (1...questions).map { .text("Answer number \($0), written as a full and specific sentence.") }
        inputs.append(.number(3))
        let events = try drive(session, inputs)
        let prompts = events.prompts
        #expect(prompts.count == questions + 2)
        #expect(prompts.first?.kind == .intensity && prompts.last?.kind == .intensity)
        #expect(prompts.dropFirst().dropLast().map { "\($0.index)/\($0.total ?? 0)" } == (1...questions).map { "\($0)/\(questions)" })
        #expect(events.last == .done(DoneSummary(session: "test-session", pre: 8, post: 3)))
    }

    @Test("back to Q2, a new answer, forward: Q3 quotes the new answer and offers the old Q3 answer as a draft")
    func backAndEdit() throws {
        let session = try open(.bad)
        try session.answer(.number(7), .text("The presentation to the board did not go as planned"),
                           .text("I always mess everything up"), .text("Last month's demo went well"))
        #expect(session.current?.step == "evidence")
        _ = try session.submit(.command(.back))
        #expect(session.current?.step == "perspective")
        #expect(session.current?.draft == .text("Last month's demo went well"))
        _ = try session.submit(.command(.back))
        #expect(session.current?.step == "thought")
        #expect(session.current?.draft == .text("I always mess everything up"))
        let events = try session.submit(.text("I'm such a failure"))
        let q3 = try #require(events.prompts.last)
        #expect(q3.step == "perspective")
        #expect(q3.text == "Is 'I'm such a failure' something you are, or something you did?")
        #expect(q3.draft == .text("Last month's demo went well"))
        #expect(session.save.answers.map(\.step) == ["pre", "situation", "thought"])
        #expect(session.save.drafts.map(\.step) == ["perspective"])
    }
}

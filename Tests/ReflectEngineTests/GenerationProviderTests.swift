import Foundation
import Testing
import LoopbackHTTP
import ReflectCore
@testable import ReflectEngine

// Generation spec §8 (issue 17): the OpenAI-compatible provider against a
// real HTTP server on the loopback interface, started by the test.

private let library = ContentLibrary(root: ContentRoot(repositoryRoot))

/// The negative reflection with an `openai` provider pointed at `server`.
private func negativeSession(_ server: LoopbackServer, locale: String = "en") throws -> FlowSession {
    var o = SessionOptions(sessionID: "gen-test", mood: .bad, clock: evening, seed: 1, region: "US")
    o.prompts = try PromptLibrary.load(library.root)
    o.generator = OpenAIGenerator(configuration: OpenAIConfiguration(baseURL: URL(string: server.baseURL)!, model: "test-model"),
                                  prompts: o.prompts)
    return try FlowSession.open(try library.catalog.source(for: "reflection.negative"), language: try library.language(for: locale),
                                options: o)
}

private let thought = "I always mess everything up"

/// Answers up to the last question (the final question is then shown).
private func answerToFinal(_ session: FlowSession) throws -> [FlowEvent] {
    try session.answer(.number(8), .text("My manager criticised my report in front of the whole team"), .text(thought),
                       .text("Last month's demo went really well"))
    return try session.submit(.text("One slide had an error; the rest was praised"))
}

private let staticFinal = "Looking at 'I always mess everything up' again — what's a more balanced way to see it?"

@Suite("Generation against a loopback server: the final question", .serialized, .hangGuard)
struct FinalQuestionProviderTests {
    @Test("a good reply is shown as the final question and recorded as generated; what is sent holds the answers, no ids")
    func goodReply() throws {
        let good = "When you tell yourself 'I always mess everything up', what would you say to a friend who said that?"
        let server = try LoopbackServer { _ in .chat(good) }
        let session = try negativeSession(server)
        _ = try answerToFinal(session)
        #expect(session.current?.step == "reframe")
        #expect(session.current?.text == good)
        #expect(session.save.generated.first { $0.id == "final" }.map { [$0.generated ? "yes" : "no"] } == ["yes"])
        #expect(server.requestCount == 1)
        let sent = try #require(server.requests.first)
        #expect(sent.method == "POST" && sent.path == "/v1/chat/completions")
        let text = sent.messages.map(\.content).joined(separator: "\n")
        #expect(text.contains(thought))
        #expect(!text.contains("gen-test"), "no session id is sent")
    }

    @Test("a reply after 5 s: the fallback question, and the next prompt within 1.6 s")
    func slowReply() throws {
        let server = try LoopbackServer { _ in .chat("Is that so, 'I always mess everything up'?", delay: 5) }
        let session = try negativeSession(server)
        try session.answer(.number(8), .text("My manager criticised my report in front of the whole team"), .text(thought),
                           .text("Last month's demo went really well"))
        let started = ContinuousClock.now
        _ = try session.submit(.text("One slide had an error; the rest was praised"))
        let waited = ContinuousClock.now - started
        #expect(session.current?.text == staticFinal)
        #expect(waited < .milliseconds(1600), "waited \(waited)")
        #expect(session.save.generated.first { $0.id == "final" }?.generated == false)
    }

    /// Replies the engine must not show as the final question, and why.
    static let refused: [(name: String, reply: LoopbackServer.Reply, reason: String?)] = [
        ("HTTP 500", LoopbackServer.Reply(status: 500, body: #"{"error":"boom"}"#), nil),
        ("garbage JSON", LoopbackServer.Reply(body: "{not json at all"), nil),
        ("two questions", .chat("What does 'I always mess everything up' mean to you? And is it true?"), "rule.two_questions"),
        ("60 words", .chat(Array(repeating: "really", count: 54).joined(separator: " ") + " 'I always mess everything up' hmm?"), "rule.too_long"),
        ("a phone number", .chat("Could you call 555-123-4567 about 'I always mess everything up'?"), "pii.phone"),
        ("a medication suggestion", .chat("Have you considered medication for 'I always mess everything up'?"), "medical.medication"),
        ("a self-harm mention", .chat("When you think 'I always mess everything up', do you want to hurt yourself?"), "crisis.self_harm"),
        ("advice", .chat("You should try to see 'I always mess everything up' differently, right?"), "rule.advice"),
        ("no phrase of the person's", .chat("What would a more balanced view be?"), "rule.no_quote"),
    ]

    @Test("500, garbage JSON, two questions, 60 words, a phone number, medication, self-harm, advice, no quote: the fallback question",
          arguments: 0..<refused.count)
    func refusedReplies(_ index: Int) throws {
        let case_ = Self.refused[index]
        let reply = case_.reply
        let server = try LoopbackServer { _ in reply }
        let session = try negativeSession(server)
        _ = try answerToFinal(session)
        #expect(server.requestCount == 1, "\(case_.name)")
        #expect(session.current?.text == staticFinal, "\(case_.name)")
        let recorded = try #require(session.save.generated.first { $0.id == "final" })
        #expect(recorded.generated == false, "\(case_.name)")
        #expect(recorded.refused == case_.reason, "\(case_.name)")
    }

    @Test("back, resume and replay of a generated final question send no request")
    func replayDoesNotAsk() throws {
        let good = "If a friend said 'I always mess everything up', what would you tell them?"
        let server = try LoopbackServer { _ in .chat(good) }
        let session = try negativeSession(server)
        _ = try answerToFinal(session)
        #expect(server.requestCount == 1)
        try session.answer(.text("One mistake does not define my work"), .command(.back))
        #expect(session.current?.step == "reframe")
        #expect(session.current?.text == good)
        let resumed = try FlowSession.open(try library.catalog.source(for: "reflection.negative"), language: try library.language(for: "en"),
                                           options: { var o = options(); o.generator = OpenAIGenerator(
                                               configuration: OpenAIConfiguration(baseURL: URL(string: server.baseURL)!, model: "m"),
                                               prompts: PromptLibrary()); return o }(),
                                           resuming: try SessionSave.decodeValidated(from: JSONEncoder().encode(session.save)))
        #expect(resumed.current?.text == good)
        #expect(server.requestCount == 1, "replay and resume never ask again")
    }
}

@Suite("Generation: feedback after a reflection", .hangGuard)
struct FeedbackTests {
    func run(generator: Bool, personality: String? = nil) throws -> (FlowSession, [FlowEvent]) {
        var o = options()
        let language = try library.language(for: "en", personality: personality)
        if generator { o.generator = TemplateGenerator(language: language) }
        o.mood = .bad
        let session = try FlowSession.open(try library.catalog.source(for: "reflection.negative"), language: language, options: o)
        let events = try drive(session, [.number(8), .text("My manager criticised my report in front of the whole team"), .text(thought),
                                         .text("Last month's demo went really well"), .text("One slide had an error; the rest was praised"),
                                         .text("One mistake does not define my work"), .number(5)])
        return (session, events)
    }

    @Test("the template provider: a personalised final question quoting the thought, and feedback naming the shift and the distortion after done")
    func templateFeedback() throws {
        let (session, events) = try run(generator: true)
        let final = try #require(events.prompts.first { $0.step == "reframe" })
        #expect(final.text.contains("'\(thought)'"))
        #expect(session.save.generated.first { $0.id == "final" }?.generated == true)
        guard case .done? = events.dropLast().last, case .feedback(let f)? = events.last else {
            Issue.record("expected done, then feedback: \(events.suffix(2))")
            return
        }
        #expect(f.observation.contains("8") && f.observation.contains("5"))
        #expect(f.observation.contains("'always'"), "overgeneralization is named: \(f.observation)")
        #expect(f.takeaway.contains("One mistake does not define my work"))
        #expect(session.feedback == f, "stored with the session")
    }

    @Test("with no provider (none): the static final question and no feedback event")
    func noneHasNoFeedback() throws {
        let (session, events) = try run(generator: false)
        #expect(events.prompts.first { $0.step == "reframe" }?.text == staticFinal)
        #expect(!events.contains { if case .feedback = $0 { true } else { false } })
        #expect(session.feedback == nil)
        guard case .done? = events.last else { Issue.record("done is last"); return }
    }

    @Test("feedback speaks in the personality's voice")
    func personalityVoice() throws {
        let (_, plain) = try run(generator: true)
        let (_, friend) = try run(generator: true, personality: "best_friend")
        let a = plain.compactMap { if case .feedback(let f) = $0 { f.affirmation } else { nil } }
        let b = friend.compactMap { if case .feedback(let f) = $0 { f.affirmation } else { nil } }
        #expect(a.count == 1 && b.count == 1 && a != b)
    }
}

@Suite("Generation: screening and the final question's rules", .hangGuard)
struct GeneratedTextScreenTests {
    @Test("every generated text passes the crisis gate too: a self-harm mention becomes the de-escalation message with crisis lines")
    func crisisInGeneratedText() throws {
        let screen = GeneratedTextScreen(language: try library.language(for: "en"), region: "US", prompts: try PromptLibrary.load(library.root))
        let out = screen.screen("Maybe you could cut yourself to feel something?")
        #expect(out.reason == "crisis.self_harm")
        #expect(out.crisis == .selfHarm && !out.resources.isEmpty)
        #expect(!out.text.contains("cut"))
        let medical = screen.screen("You should take sertraline for this.")
        #expect(medical.text == "I can't provide medical advice. Please consult a licensed professional.")
        #expect(screen.screen("What would you tell a friend who felt this way?").reason == nil)
    }

    @Test("reusing a phrase: two words in a row of an answer (any case, accents), or four characters in Japanese")
    func phraseReuse() {
        #expect(GeneratedTextScreen.reusesPhrase(of: "I always mess everything up", in: "When you say you ALWAYS MESS up, what then?"))
        #expect(!GeneratedTextScreen.reusesPhrase(of: "I always mess everything up", in: "What would help you now?"))
        #expect(GeneratedTextScreen.reusesPhrase(of: "私はいつも失敗ばかりだ", in: "「いつも失敗」と感じるとき、友だちなら何と言いますか？"))
        #expect(GeneratedTextScreen.wordCount("one two three") == 3)
    }
}

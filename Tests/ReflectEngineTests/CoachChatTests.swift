import Foundation
import Testing
import LoopbackHTTP
import ReflectCore
@testable import ReflectEngine

// Generation spec §5 and §6 for the coach chat, against a real HTTP server
// on the loopback interface.

private let library = ContentLibrary(root: ContentRoot(repositoryRoot))

private func chat(_ server: LoopbackServer?, context: ChatContext = ChatContext()) throws -> CoachChat {
    let prompts = try PromptLibrary.load(library.root)
    let generator = server.map {
        OpenAIGenerator(configuration: OpenAIConfiguration(baseURL: URL(string: $0.baseURL)!, model: "m"), prompts: prompts)
    }
    return CoachChat(language: try library.language(for: "en"), region: "US", generator: generator, prompts: prompts, context: context)
}

private let fallbackLine = "Sorry, please try again."

@Suite("Coach chat against a loopback server", .serialized, .hangGuard)
struct CoachChatTests {
    @Test("a good reply is shown; the disclaimer comes with the first reply only; the system prompt and context are sent")
    func goodReply() throws {
        let reply = "That sounds like a long day. One small step: put the fruit bowl where the biscuits were. What would make that easy tonight?"
        let server = try LoopbackServer { _ in .chat(reply) }
        let c = try chat(server, context: ChatContext(lines: ["why: to feel strong for my kids"], nudge: "Seven days in a row—amazing consistency!"))
        let first = c.send("I snacked all afternoon again", mode: .askCoach)
        #expect(first.reply == reply && first.generated)
        #expect(first.disclaimer == "This isn't medical advice—consult professionals for mental health/nutrition.")
        let second = c.send("Thanks", mode: .justTalk)
        #expect(second.disclaimer == nil)
        let sent = try #require(server.requests.last)
        let system = try #require(sent.messages.first)
        #expect(system.role == "system" && system.content.contains("compassionate, pragmatic weight-loss coach"))
        #expect(system.content.contains("to feel strong for my kids") && system.content.contains("Seven days in a row"))
        #expect(sent.messages.map(\.role).suffix(3) == ["user", "assistant", "user"], "the last messages go along")
    }

    @Test("no reply within 3 s: one retry after 1.5 s, then the fallback line")
    func timeoutRetryFallback() throws {
        let server = try LoopbackServer { _ in .chat("Too late?", delay: 6) }
        let c = try chat(server)
        let started = ContinuousClock.now
        let e = c.send("Hello", mode: .justTalk)
        let took = ContinuousClock.now - started
        #expect(e.reply == fallbackLine && !e.generated)
        #expect(server.requestCount == 2, "one retry")
        #expect(took >= .milliseconds(7400) && took < .seconds(20), "3 s + 1.5 s + 3 s, contained: \(took)")
    }

    @Test("a 500, then a good reply: the retry's reply is shown")
    func retrySucceeds() throws {
        let counter = Counter()
        let server = try LoopbackServer { _ in
            counter.next() == 1 ? LoopbackServer.Reply(status: 500, body: "{}") : .chat("Glad you wrote. What would help most right now?")
        }
        let e = try chat(server).send("Hi", mode: .justTalk)
        #expect(e.generated && e.reply.hasPrefix("Glad you wrote"))
        #expect(server.requestCount == 2)
    }

    @Test("screened replies: medication → the medical line; a phone number → the safety fallback; self-harm → de-escalation with crisis lines",
          arguments: [
            ("You could ask your doctor whether sertraline would help. What do you think?", "I can't provide medical advice. Please consult a licensed professional.", "medical.medication"),
            ("Call me at 555-123-4567 any time. Will you?", "I'm here with you. Let's take this one step at a time.", "pii.phone"),
            ("Sometimes people cut themselves to cope; do you want to hurt yourself?", nil, "crisis.self_harm"),
          ] as [(String, String?, String)])
    func screened(_ reply: String, _ expected: String?, _ reason: String) throws {
        let server = try LoopbackServer { _ in .chat(reply) }
        let e = try chat(server).send("I had a rough day", mode: .askCoach)
        #expect(e.refused == reason)
        #expect(!e.generated)
        if let expected {
            #expect(e.reply == expected)
        } else {
            #expect(e.reply.contains("You don't have to face this alone") || !e.resources.isEmpty)
            #expect(!e.resources.isEmpty && !e.reply.contains("cut"))
        }
    }

    @Test("a reply that breaks the reply rules (generation spec §5: ends with a question, under 200 words) is replaced by the templated reply to the same message, which offers the plan",
          arguments: [
            ("Try putting the fruit bowl where the biscuits were tonight.", "rule.not_a_question"),
            ("What would help? Put the fruit bowl where the biscuits were.", "rule.not_a_question"),
            (Array(repeating: "word", count: 250).joined(separator: " ") + "?", "rule.too_long"),
          ] as [(String, String)])
    func ruleBroken(_ reply: String, _ reason: String) throws {
        let server = try LoopbackServer { _ in .chat(reply) }
        let context = ChatContext(commitment: "walk after dinner")
        let c = try chat(server, context: context)
        let e = c.send("I had a rough day", mode: .askCoach)
        #expect(e.refused == reason)
        #expect(!e.generated)
        #expect(e.reply == "One small next step: spend five minutes today on what you chose, 'walk after dinner'. What would make that step easier?")
        #expect(c.send("yes, I'll try it", mode: .askCoach).celebration?.reason == .planConsent, "the templated reply offers the step")
    }

    @Test("replies may close with emoji or a closing quote after the question mark; a statement after the question is not a question")
    func endsWithQuestion() {
        #expect(GeneratedTextScreen.endsWithQuestion("What would help tonight? 🌱"))
        #expect(GeneratedTextScreen.endsWithQuestion("Ask yourself: “what do I need?”"))
        #expect(GeneratedTextScreen.endsWithQuestion("今夜は何が助けになりそうですか？"))
        #expect(!GeneratedTextScreen.endsWithQuestion("What would help? Take a walk."))
        #expect(!GeneratedTextScreen.endsWithQuestion("Take a walk 🌱"))
    }

    @Test("every locale's and personality pack's chat templates meet the reply rules (they are the fallback for a broken reply)")
    func templatesAreQuestions() throws {
        for tag in ["en", "de", "es", "fr", "ja", "ko", "pt-BR"] {
            for pack in ["default", "coach", "zen", "best_friend", "data_analyst"] {
                let language = try library.language(for: tag, personality: pack)
                for key in ["chat.template.just_talk", "chat.template.just_talk.plain", "chat.template.ask_coach", "chat.template.ask_coach.plain"] {
                    let text = try #require(language.localizer.string(key), "\(tag) \(pack) \(key)")
                    #expect(GeneratedTextScreen.chatReplyProblem(text, maxWords: CoachChat.maxReplyWords) == nil, "\(tag) \(pack) \(key): \(text)")
                }
            }
        }
    }

    @Test("garbage JSON twice: the fallback line")
    func garbage() throws {
        let server = try LoopbackServer { _ in LoopbackServer.Reply(body: "<html>nope") }
        let e = try chat(server).send("Hi", mode: .justTalk)
        #expect(e.reply == fallbackLine && server.requestCount == 2)
    }

    @Test("the person's message passes the crisis gate: the notice with resources, and nothing is sent")
    func crisisMessage() throws {
        let server = try LoopbackServer { _ in .chat("Anything") }
        let e = try chat(server).send("I want to end it all", mode: .justTalk)
        #expect(e.safety == .suicide)
        #expect(!e.resources.isEmpty)
        #expect(server.requestCount == 0)
    }

    @Test("the template provider answers offline, deterministically, with a question; none gives the fallback line")
    func offline() throws {
        let language = try library.language(for: "en")
        let a = CoachChat(language: language, generator: TemplateGenerator(language: language), prompts: PromptLibrary())
        let b = CoachChat(language: language, generator: TemplateGenerator(language: language), prompts: PromptLibrary())
        let ra = a.send("Work was loud and I grazed all day", mode: .justTalk)
        #expect(ra == b.send("Work was loud and I grazed all day", mode: .justTalk))
        #expect(ra.generated && ra.reply.hasSuffix("?") && ra.reply.contains("Work was loud and I grazed all day"))
        let none = CoachChat(language: language, generator: nil, prompts: PromptLibrary()).send("Hi", mode: .askCoach)
        #expect(none.reply == fallbackLine && !none.generated)
    }

    @Test("plan consent (coach spec §7): the first yes to the coach's plan in a chat is one tiny plan_consent celebration; not before a plan, not twice, not in Just Talk, none with celebrations off")
    func planConsent() throws {
        let language = try library.language(for: "en")
        func make() -> CoachChat { CoachChat(language: language, generator: TemplateGenerator(language: language), prompts: PromptLibrary()) }
        let c = make()
        #expect(c.send("Yes, I snack at night", mode: .askCoach).celebration == nil, "no plan offered yet")
        #expect(c.send("yes, I'll try that tonight", mode: .askCoach).celebration == ChatCelebration(tier: .tiny, reason: .planConsent))
        #expect(c.send("yes", mode: .askCoach).celebration == nil, "once per chat")
        #expect(c.consentToPlan() == nil)

        let talk = make()
        _ = talk.send("Long day", mode: .justTalk)
        #expect(talk.send("yes", mode: .justTalk).celebration == nil, "Just Talk offers no plan")
        #expect(talk.consentToPlan() == nil)

        let button = make()
        _ = button.send("What can I do tonight?", mode: .askCoach)
        #expect(button.send("Not sure yet", mode: .askCoach).celebration == nil)
        #expect(button.consentToPlan() == ChatCelebration(tier: .tiny, reason: .planConsent), "an app's I'll-try-it button")

        let off = make()
        off.celebrations = false
        _ = off.send("What can I do tonight?", mode: .askCoach)
        #expect(off.send("yes", mode: .askCoach).celebration == nil)

        let none = CoachChat(language: language, generator: nil, prompts: PromptLibrary())
        _ = none.send("What can I do tonight?", mode: .askCoach)
        #expect(none.send("yes", mode: .askCoach).celebration == nil, "a fallback line offers no plan")

        let de = try library.language(for: "de")
        let german = CoachChat(language: de, generator: TemplateGenerator(language: de), prompts: PromptLibrary())
        _ = german.send("Was kann ich heute Abend tun?", mode: .askCoach)
        #expect(german.send("Ja, das probiere ich", mode: .askCoach).celebration?.reason == .planConsent)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func next() -> Int { lock.withLock { n += 1; return n } }
}

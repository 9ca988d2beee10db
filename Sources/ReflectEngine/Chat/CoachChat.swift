import Foundation
import ReflectCore

/// One chat with the coach (`reflect chat`): the person's message passes
/// the crisis gate; a reply comes from the provider within 3.0 s, with one
/// retry after 1.5 s, else a short fallback line; every reply is screened
/// (``GeneratedTextScreen``) and the disclaimer goes with the first reply.
///
/// Contract: ``send(_:mode:)`` never throws and never waits longer than
/// two timeouts plus the backoff (7.5 s with the defaults). A message the
/// gate flags is never handed to a provider: the reply is the crisis
/// notice. With no provider (`none`), every reply is the fallback line.
/// The caller stores both messages (``ChatExchange``).
///
/// Plan consent (coach spec §7, "coach chat: first consent to try a plan
/// in a chat episode → tiny"): once the coach has replied in Ask the Coach
/// mode (its reply offers one concrete next step), the person's first
/// agreement in this chat — a message that opens with one of the locale's
/// yes words ("yes, I'll try that", "ja", "はい、やってみる"), or an explicit
/// ``consentToPlan()`` (an app's "I'll try it" button) — earns one tiny
/// `plan_consent` celebration; later agreements in the same chat earn none.
/// With celebrations off (the person's setting) there is none at all.
public final class CoachChat {
    public let language: Language
    public let region: String
    public let generator: (any TextGenerator)?
    public let context: ChatContext
    /// Per attempt.
    public var timeout: Duration = .seconds(3)
    /// Before the one retry.
    public var backoff: Duration = .milliseconds(1500)
    /// Earlier turns, oldest first (stored history and this chat's).
    public private(set) var turns: [ChatTurn]
    /// How many turns a request carries at most.
    public static let contextTurns = 12
    /// Longest reply shown, in words.
    public static let maxReplyWords = 200
    private let screen: GeneratedTextScreen
    private var disclaimed = false
    /// The person's "Show celebrations" setting.
    public var celebrations = true
    /// Whether the coach has offered a plan in this chat (a reply in Ask the Coach mode).
    private var planOffered = false
    /// Whether this chat's plan consent has been celebrated.
    private var consented = false

    public init(language: Language, region: String? = nil, generator: (any TextGenerator)?, prompts: PromptLibrary,
                context: ChatContext = ChatContext(), history: [ChatTurn] = []) {
        self.language = language
        self.region = region ?? language.defaultRegion
        self.generator = generator
        self.context = context
        turns = history
        screen = GeneratedTextScreen(language: language, region: self.region, prompts: prompts)
    }

    /// The person's message and the coach's reply.
    public func send(_ text: String, mode: ChatMode) -> ChatExchange {
        var exchange = ChatExchange(mode: mode, message: text, reply: language.string(.chatFallback), generated: false)
        if !disclaimed {
            exchange.disclaimer = language.string(.chatDisclaimer)
            disclaimed = true
        }
        if case .crisis(let category) = language.safety.check(text) {
            // Like any answer: flagged, met with the resources, never passed on.
            exchange.safety = category
            exchange.reply = language.safetyMessage(for: category) ?? language.string(.safetyMessage)
            exchange.resources = language.resources(for: region, category: category)
            turns.append(ChatTurn(role: .person, text: text))
            return exchange
        }
        if mode == .askCoach, agrees(text) { exchange.celebration = consentToPlan() }
        turns.append(ChatTurn(role: .person, text: text))
        // Whether the reply shown is the templated one (it offers a step too).
        var templatedReply = false
        defer {
            turns.append(ChatTurn(role: .coach, text: exchange.reply))
            if mode == .askCoach && (exchange.generated || templatedReply) { planOffered = true }
        }
        guard let generator else { return exchange }
        let request = GenerationRequest(id: "chat", purpose: mode.purpose, inputs: [text], fallback: exchange.reply, timeout: timeout,
                                        context: GenerationContext(locale: language.tag, personality: language.personality,
                                                                   coachLines: context.lines, nudge: context.nudge)
                                            .with(commitment: context.commitment),
                                        conversation: Array(turns.suffix(CoachChat.contextTurns)))
        var reply: String?
        for attempt in 0..<2 {
            if attempt == 1 { Thread.sleep(forTimeInterval: CoachChat.seconds(backoff)) }
            if case .success(let text) = GenerationDeadline.run(timeout: timeout, { try await generator.generate(request) }) {
                reply = text.trimmingCharacters(in: .whitespacesAndNewlines)
                break
            }
        }
        guard let reply, !reply.isEmpty else { return exchange }
        // The rules a reply must meet (under 200 words, ending with a
        // question): else the safe templated reply for the same message.
        if let problem = GeneratedTextScreen.chatReplyProblem(reply, maxWords: CoachChat.maxReplyWords) {
            exchange.refused = problem
            if let text = templated(request) {
                exchange.reply = text
                templatedReply = true
            }
            return exchange
        }
        let screened = screen.screen(reply, context: turns.filter { $0.role == .person }.map(\.text).joined(separator: "\n"))
        exchange.reply = screened.text
        exchange.refused = screened.reason
        exchange.resources = screened.resources
        exchange.generated = screened.reason == nil
        return exchange
    }

    /// The offline template's reply to `request` (the person's words in the
    /// locale's or the pack's `chat.template.*`), when it meets the reply
    /// rules itself; nil otherwise (the caller keeps the fallback line).
    func templated(_ request: GenerationRequest) -> String? {
        guard let text = try? TemplateGenerator(language: language).text(for: request),
              GeneratedTextScreen.chatReplyProblem(text, maxWords: CoachChat.maxReplyWords) == nil else { return nil }
        let screened = screen.screen(text, context: turns.filter { $0.role == .person }.map(\.text).joined(separator: "\n"))
        return screened.reason == nil ? screened.text : nil
    }

    /// The person agrees to try the plan the coach offered: the celebration
    /// it earns (tiny, `plan_consent`) the first time in this chat after a
    /// coach reply in Ask the Coach mode, else nil.
    public func consentToPlan() -> ChatCelebration? {
        guard planOffered, !consented else { return nil }
        consented = true
        return celebrations ? ChatCelebration(tier: .tiny, reason: .planConsent) : nil
    }

    /// Whether `text` opens with one of the locale's yes words ("yes, I'll
    /// try", "ok" is not one unless the locale lists it).
    func agrees(_ text: String) -> Bool {
        let first = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(whereSeparator: { $0.isWhitespace || ($0.isPunctuation && $0 != "'") }).first.map(String.init) ?? ""
        return !first.isEmpty && language.localizer.answerWords.boolean(first) == true
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// One message of the person and the coach's reply, as shown.
public struct ChatExchange: Sendable, Equatable {
    public var mode: ChatMode
    public var message: String
    public var reply: String
    /// Whether the reply is a provider's text (false: the fallback line, a
    /// screening replacement or a crisis notice).
    public var generated: Bool
    /// The crisis gate's category for the person's message.
    public var safety: SafetyCategory?
    /// Why a provider's reply was replaced (`medical.medication`, `crisis.self_harm`, …).
    public var refused: String?
    /// Crisis lines shown with a crisis notice or a de-escalation.
    public var resources: [String] = []
    /// The disclaimer, with the first reply of a chat only.
    public var disclaimer: String?
    /// The celebration the person's message earned (plan consent), shown before the reply.
    public var celebration: ChatCelebration?
}

/// A celebration in the chat (coach spec §7): its tier and reason.
public struct ChatCelebration: Sendable, Equatable {
    public var tier: CelebrationTier
    public var reason: CelebrationReason
}

extension GenerationContext {
    func with(commitment: String?) -> GenerationContext {
        var c = self
        c.commitment = commitment
        return c
    }
}

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
        turns.append(ChatTurn(role: .person, text: text))
        defer { turns.append(ChatTurn(role: .coach, text: exchange.reply)) }
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
        guard GeneratedTextScreen.wordCount(reply) < CoachChat.maxReplyWords else {
            exchange.refused = "rule.too_long"
            return exchange
        }
        let screened = screen.screen(reply, context: turns.filter { $0.role == .person }.map(\.text).joined(separator: "\n"))
        exchange.reply = screened.text
        exchange.refused = screened.reason
        exchange.resources = screened.resources
        exchange.generated = screened.reason == nil
        return exchange
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
}

extension GenerationContext {
    func with(commitment: String?) -> GenerationContext {
        var c = self
        c.commitment = commitment
        return c
    }
}

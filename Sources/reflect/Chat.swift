import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect chat`: talk with the coach, at the terminal or as JSON lines
/// (docs/generation.md#coach-chat).
///
/// Input lines (terminal): a message, `:mode` to switch between Just Talk
/// and Ask the Coach, `:up` / `:down` (👍 / 👎 on the last reply), `:try` (I'll try the plan), `:quit`. Machine input
/// (`--messages FILE`, JSON lines): a string (a message), `{"mode": "ask_coach"}`, `{"rate": "up"}`, `{"try": true}`,
/// `{"command": "quit"}`. Every message and reply is stored (table `chat_message`)
/// before the reply is shown.
struct Chat: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Talk with the coach: Just Talk or Ask the Coach. Replies come from the text provider (offline templates by default).",
        discussion: """
            The chat knows the day's coach context and the last messages; the person's messages pass the crisis gate, \
            every reply is screened. History is kept locally: --delete-history removes it, and the setting \
            chat_history_days deletes messages older than that many days when a chat starts.
            """)

    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var generation: GeneratorOptions

    @Option(help: "just_talk or ask_coach (default: asked at the terminal; just_talk for --messages).")
    var mode: ChatMode?

    @Option(help: "Read messages from FILE (JSON lines; '-' for stdin) instead of the terminal.")
    var messages: String?

    @Option(help: "Output format: text (for people) or jsonl (one event per line).")
    var format: Run.OutputFormat = .text

    @Option(help: "Locale tag (en, de, es, fr, ja, ko, pt-BR).")
    var locale: String = "en"

    @Option(help: "Region for crisis resources (default: the locale's).")
    var region: String?

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @Flag(help: "Delete the chat history (every message of this user) and exit.")
    var deleteHistory = false

    func run() throws {
        let stamps = try Timestamps(now: now)
        let store = try storeOptions.open()
        let library = try contentOptions.open()
        do {
            let settings = try store.settings(user: storeOptions.user)
            let language = try library.language(for: locale, personality: settings.personality == "default" ? nil : settings.personality)
            if deleteHistory {
                let n = try store.deleteChatHistory(user: storeOptions.user)
                let line = Template(language.string(.chatHistoryDeleted)).render(["\(n)"])
                if format == .jsonl { emit(["event": "chat_deleted", "messages": n]) } else { Terminal.write(line + "\n") }
                return
            }
            if let days = settings.chatHistoryDays {
                try store.deleteChat(user: storeOptions.user, before: stamps.current.date.addingTimeInterval(-Double(days) * 86_400))
            }
            let prompts = try PromptLibrary.load(library.root)
            let history = try store.recentChat(user: storeOptions.user, limit: CoachChat.contextTurns)
                .map { ChatTurn(role: $0.role == .person ? .person : .coach, text: $0.text) }
            // The day's coach context and nudge (coach spec §10).
            let coach = try store.coachContext(user: storeOptions.user, clock: stamps.current, rules: settings.dayRules, language: language)
            // The person's personalization profile: the length, tone and topics the provider is asked to keep to.
            let profile = try store.personalizationProfile(user: storeOptions.user)
            let chat = CoachChat(language: language, region: region, generator: try generation.make(language: language, library: library, settings: settings),
                                 prompts: prompts, context: ChatContext(coach).adding(profile), history: history)
            chat.celebrations = settings.celebrations
            try converse(chat, store: store, stamps: stamps, language: language)
        } catch let e as EngineError {
            throw fail(e)
        } catch let e as StoreError {
            throw failStore(e)
        }
    }

    private func converse(_ chat: CoachChat, store: Store, stamps: Timestamps, language: Language) throws {
        let input = try AnswerSource(path: messages)
        let machine = messages != nil
        let chatID = UUID().uuidString.lowercased()
        var position = 0
        var current = mode
        if format == .text {
            Terminal.write(language.string(.chatTitle) + "\n")
            if !machine { Terminal.write(language.string(.chatHint) + "\n") }
        }
        if current == nil {
            if machine || format == .jsonl {
                current = .justTalk
            } else {
                current = (input.readText(prompt: language.string(.chatModePrompt) + " ")?.trimmingCharacters(in: .whitespaces)).flatMap { $0 == "2" ? .askCoach : $0 == "1" ? .justTalk : nil }
                    ?? .justTalk
                Terminal.write(language.string(EngineString(rawValue: current?.nameKey ?? "") ?? .chatModeJustTalk) + "\n")
            }
        }
        while true {
            // The prompt through the line editor, which redraws it as the line is edited.
            guard let line = input.readText(prompt: !machine && format == .text ? "\n> " : "") else { break }
            let text: String
            if machine {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                guard let parsed = ChatInput(json: trimmed) else {
                    throw ValidationError("\(messages ?? "-"): a line is a JSON string, {\"mode\": \"ask_coach\"}, {\"rate\": \"up\"}, "
                                          + "{\"try\": true} or {\"command\": \"quit\"}")
                }
                switch parsed {
                case .quit: return
                case .mode(let m):
                    current = m
                    continue
                case .rate(let r):
                    try rateLast(r, chatID: chatID, position: position, store: store, stamps: stamps, language: language)
                    continue
                case .tryPlan:
                    show(chat.consentToPlan())
                    continue
                case .message(let t): text = t
                }
            } else {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed == ":quit" { return }
                if trimmed == ":mode" {
                    current = current == .askCoach ? .justTalk : .askCoach
                    Terminal.write(language.string(EngineString(rawValue: current?.nameKey ?? "") ?? .chatModeJustTalk) + "\n")
                    continue
                }
                if trimmed == ":up" || trimmed == ":down" || trimmed == "👍" || trimmed == "👎" {
                    try rateLast(trimmed == ":up" || trimmed == "👍" ? .up : .down, chatID: chatID, position: position, store: store,
                                 stamps: stamps, language: language)
                    continue
                }
                if trimmed == ":try" {
                    show(chat.consentToPlan())
                    continue
                }
                if trimmed.isEmpty { continue }
                text = line
            }
            let m = current ?? .justTalk
            let exchange = chat.send(text, mode: m)
            let at = stamps.stamp()
            try store.appendChat([
                ChatMessageRecord(chatID: chatID, position: position, user: storeOptions.user, role: .person, mode: m.rawValue,
                                  text: text, generated: false, safety: exchange.safety, at: at),
                ChatMessageRecord(chatID: chatID, position: position + 1, user: storeOptions.user, role: .coach, mode: m.rawValue,
                                  text: exchange.reply, generated: exchange.generated, at: at),
            ])
            position += 2
            show(exchange)
        }
    }

    /// 👍 / 👎 on this chat's last reply (nothing to rate before the first
    /// one): stored with its length class and themes, for the profile.
    private func rateLast(_ rating: ReplyRating.Rating, chatID: String, position: Int, store: Store, stamps: Timestamps,
                          language: Language) throws {
        guard position > 0, let reply = try store.recentChat(user: storeOptions.user, limit: 1).first,
              reply.chatID == chatID, reply.role == .coach else { return }
        try store.rate(.chat(chatID: chatID, position: reply.position), user: storeOptions.user,
                       rating: ReplyRating(rating: rating, length: ReplyRating.length(of: reply.text), themes: language.themes.themes(in: reply.text)),
                       at: stamps.stamp())
        if format == .jsonl { emit(["event": "rated", "rating": rating.rawValue, "position": reply.position]) }
    }

    /// A celebration the chat earned (plan consent): an event, or a checkmark at the terminal.
    private func show(_ c: ChatCelebration?) {
        guard let c else { return }
        if format == .jsonl {
            emit(["event": "celebration", "tier": c.tier.rawValue, "reason": c.reason.rawValue])
        } else {
            Terminal.write("  ✓\n")
        }
    }

    private func show(_ e: ChatExchange) {
        show(e.celebration)
        if format == .jsonl {
            var event: [String: Any] = ["event": "chat", "mode": e.mode.rawValue, "reply": e.reply, "generated": e.generated]
            if let d = e.disclaimer { event["disclaimer"] = d }
            if let s = e.safety { event["safety"] = s.rawValue }
            if !e.resources.isEmpty { event["resources"] = e.resources }
            emit(event)
            return
        }
        var lines = [e.reply]
        for r in e.resources { lines.append("  • " + r) }
        if let d = e.disclaimer { lines.append("(" + d + ")") }
        Terminal.write(lines.joined(separator: "\n") + "\n")
    }

    private func emit(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        Terminal.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}

/// One line of machine input to `reflect chat`.
enum ChatInput {
    case message(String)
    case mode(ChatMode)
    /// 👍 / 👎 on the last reply (`{"rate": "up"}`).
    case rate(ReplyRating.Rating)
    /// The person will try the plan the coach offered (`{"try": true}`).
    case tryPlan
    case quit

    init?(json: String) {
        guard let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) else { return nil }
        if let text = value as? String, !text.isEmpty {
            self = .message(text)
        } else if let object = value as? [String: Any], object.count == 1 {
            if let m = (object["mode"] as? String).flatMap(ChatMode.init(rawValue:)) {
                self = .mode(m)
            } else if let r = (object["rate"] as? String).flatMap(ReplyRating.Rating.init(rawValue:)) {
                self = .rate(r)
            } else if object["try"] as? Bool == true {
                self = .tryPlan
            } else if object["command"] as? String == "quit" {
                self = .quit
            } else {
                return nil
            }
        } else {
            return nil
        }
    }
}

extension ChatMode: ExpressibleByArgument {}

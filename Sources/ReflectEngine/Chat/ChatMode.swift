import ReflectCore

/// The two ways to talk in `reflect chat`.
public enum ChatMode: String, Sendable, Codable, CaseIterable {
    /// Listening and reflecting back.
    case justTalk = "just_talk"
    /// Practical guidance with one concrete next step.
    case askCoach = "ask_coach"

    /// The provider purpose of a reply in this mode.
    public var purpose: String {
        self == .justTalk ? GenerationRequest.Purpose.chatJustTalk : GenerationRequest.Purpose.chatAskCoach
    }

    /// The locale key of the mode's name.
    public var nameKey: String { "chat.mode.\(rawValue)" }
}

/// What the chat knows about the person's day: the coach context and
/// nudge of coach spec §10, as lines for the prompt.
///
/// The coach feature computes the typed ``CoachContext`` (`todayWhy`,
/// `todaySwap`, `commitTo`, streak figures, nudge); the chat only passes
/// it on ({CONTEXT}, {NUDGE}).
public struct ChatContext: Sendable, Equatable {
    /// Short lines such as "why: to feel strong for my kids" (most useful first).
    public var lines: [String]
    /// At most one sentence, already in the person's language.
    public var nudge: String?
    /// Today's commitment or swap in the person's words (quoted by the offline template).
    public var commitment: String?

    public init(lines: [String] = [], nudge: String? = nil, commitment: String? = nil) {
        self.lines = lines
        self.nudge = nudge
        self.commitment = commitment
    }
}

extension ChatContext {
    /// The coach context as prompt lines (labels for the model, not shown
    /// to the person), with its nudge.
    public init(_ coach: CoachContext) {
        var lines: [String] = []
        if !coach.todayWhy.isEmpty { lines.append("why: \(coach.todayWhy)") }
        if !coach.todaySwap.isEmpty { lines.append("chosen swap: \(coach.todaySwap)") }
        if !coach.commitTo.isEmpty { lines.append("commitment: \(coach.commitTo)") }
        if !coach.commitFrom.isEmpty { lines.append("moving away from: \(coach.commitFrom)") }
        lines.append("streak: \(coach.currentStreak) days; \(coach.daysThisWeek) of the last 7 days")
        let step = [coach.commitTo, coach.todaySwap].first { !$0.isEmpty }
        self.init(lines: lines, nudge: coach.nudge, commitment: step)
    }
}

extension ChatContext {
    /// The context with the person's personalization profile
    /// (docs/journal.md, "Personalization profile") as lines for the
    /// provider: the reply length it should keep to (words as the profile
    /// counts them), the tone, the actions they liked and the topics not to
    /// bring up themselves. Safety is untouched: the gate, the screen of
    /// every reply and the crisis notice do not read the profile.
    public func adding(_ profile: PersonalizationProfile) -> ChatContext {
        var c = self
        let words: String
        switch profile.responseLength {
        case .short: words = "short: at most \(ReplyRating.shortWords) words"
        case .medium: words = "medium: at most \(ReplyRating.mediumWords) words"
        case .long: words = "long: up to \(CoachChat.maxReplyWords) words when it helps"
        }
        c.lines.append("reply length: \(words)")
        c.lines.append("tone: \(profile.tone.rawValue)")
        if !profile.preferredActions.isEmpty {
            c.lines.append("actions they liked: \(profile.preferredActions.map(\.rawValue).joined(separator: ", "))")
        }
        if !profile.avoidTopics.isEmpty {
            c.lines.append("topics not to bring up unless they do: \(profile.avoidTopics.map(\.rawValue).joined(separator: ", "))")
        }
        return c
    }
}


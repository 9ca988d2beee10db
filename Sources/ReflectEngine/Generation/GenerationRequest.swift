import ReflectCore

/// Text a flow (or the chat) asks the host to generate (`s:generate { ... }`,
/// `s:feedback { ... }`, a chat turn).
///
/// Contract: the flow yields the request like a prompt; the session fulfils
/// it outside the flow's CPU and time budget (through
/// ``SessionOptions/generator``, or with ``fallback`` at once when there is
/// none, when it fails or runs past ``timeout``, or when its text does not
/// pass the engine's checks: ``GeneratedTextScreen``), records the text in
/// the save, and resumes the flow with it. Replay feeds the recorded text
/// back and never asks again.
public struct GenerationRequest: Sendable, Equatable {
    /// Unique within the flow, like a step id: the key of the result in the save.
    public var id: StepID
    /// What to write: ``Purpose`` values ("final_question",
    /// "feedback.observation", "chat.just_talk", ...), for the provider.
    public var purpose: String
    /// Earlier answers (or other texts) the generated text may draw on, in
    /// the flow's order; the first usable one is the one a template quotes.
    public var inputs: [String]
    /// The text used when nothing else can be: already resolved in the session's language.
    public var fallback: String
    /// How long the host waits for a provider (``GenerationDeadline``).
    public var timeout: Duration
    /// What else the text is about (mood, framework, distortion, intensities).
    public var context: GenerationContext
    /// The prompt template (`prompts/<name>.v<N>.yaml`) an LLM provider
    /// uses, as `name.vN`; nil: the newest version for ``purpose``.
    public var prompt: String?
    /// Earlier turns of a chat, oldest first (empty outside the chat).
    public var conversation: [ChatTurn]

    public init(id: StepID, purpose: String, inputs: [String] = [], fallback: String, timeout: Duration = .milliseconds(1500),
                context: GenerationContext = GenerationContext(), prompt: String? = nil, conversation: [ChatTurn] = []) {
        self.id = id
        self.purpose = purpose
        self.inputs = inputs
        self.fallback = fallback
        self.timeout = timeout
        self.context = context
        self.prompt = prompt
        self.conversation = conversation
    }

    /// What the text is generated from, as a digest: a recorded text is
    /// reused only for the same basis (``GeneratedText/basis``).
    public var basis: String {
        // The digest of purpose, inputs and context parts joined by U+001F,
        // fed part by part.
        var stream = SHA256.Stream()
        stream.update(purpose)
        for input in inputs {
            stream.update(byte: 0x1F)
            stream.update(input)
        }
        for part in context.basisParts {
            stream.update(byte: 0x1F)
            stream.update(part)
        }
        return stream.finishHex(digits: 16)
    }

    /// Purposes the engine knows (a flow may name others; providers then
    /// treat them as free text and the template provider declines).
    public enum Purpose {
        public static let finalQuestion = "final_question"
        public static let feedbackPrefix = "feedback."
        public static let chatJustTalk = "chat.just_talk"
        public static let chatAskCoach = "chat.ask_coach"
    }
}

/// What a generated text is about, beyond the answers it quotes. Every
/// field is optional: a flow passes what it has.
public struct GenerationContext: Sendable, Equatable {
    /// The mood the session started with.
    public var mood: Mood?
    /// The flow's method: `cbt`, `act`, `ba` (behavioral activation), or a flow's own word.
    public var framework: String?
    /// The distortion detected in the person's thought, if any (`unknown` is none).
    public var distortion: DistortionType?
    /// Intensity before and after (0–10).
    public var pre: Int?
    public var post: Int?
    /// Whether the final question the person answered was personalised (for feedback).
    public var personalised: Bool?
    /// The session's locale tag and personality pack id.
    public var locale: String
    public var personality: String?
    /// Lines of the day's coach context and the nudge (the chat).
    public var coachLines: [String]
    public var nudge: String?
    /// The person's own words for today's commitment or swap (the chat's
    /// offline template quotes it as the next step).
    public var commitment: String?

    public init(mood: Mood? = nil, framework: String? = nil, distortion: DistortionType? = nil, pre: Int? = nil, post: Int? = nil,
                personalised: Bool? = nil, locale: String = "en", personality: String? = nil, coachLines: [String] = [],
                nudge: String? = nil) {
        self.mood = mood
        self.framework = framework
        self.distortion = distortion
        self.pre = pre
        self.post = post
        self.personalised = personalised
        self.locale = locale
        self.personality = personality
        self.coachLines = coachLines
        self.nudge = nudge
    }

    /// The parts that change what is written (not the locale: a save keeps its locale).
    var basisParts: [String] {
        [mood?.rawValue ?? "", framework ?? "", distortion?.rawValue ?? "", pre.map(String.init) ?? "", post.map(String.init) ?? "",
         personalised.map { "\($0)" } ?? ""]
    }
}

/// One turn of a chat, as the provider sees it.
public struct ChatTurn: Sendable, Equatable {
    public enum Role: String, Sendable, Codable { case person, coach }
    public var role: Role
    public var text: String

    public init(role: Role, text: String) {
        self.role = role
        self.text = text
    }
}

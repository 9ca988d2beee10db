/// What a running flow tells its host: the machine interface's events
/// (`reflect run --format jsonl` prints one per line; an app gets the same
/// values from the library). Encoded with an `"event"` field naming the
/// case; docs/events.md is the schema.
public enum FlowEvent: Sendable, Equatable {
    /// A question waiting for an answer.
    case prompt(Prompt)
    /// A soft hint about the answer just given (never blocks).
    case probe(step: StepID, text: String)
    /// The distortion the flow detected in an answer, and the detector's
    /// confidence in its best candidate (0 … 1; see ``DistortionDetection``).
    case distortion(step: StepID, type: DistortionType, confidence: Double)
    /// The answer was not taken; the same prompt stands.
    case invalid(step: StepID, code: String, message: String)
    /// The answer was recorded (after it is durable, once storage exists).
    case saved(session: String, step: StepID)
    /// The flow finished.
    case done(DoneSummary)
    /// After `done`: feedback on the session (generation spec §4).
    case feedback(SessionFeedback)
    /// The flow failed. `code` is stable (see docs/events.md).
    case error(code: String, message: String, file: String?, line: Int?)
    /// The answer just given signals a crisis: a warm message and the
    /// region's resources are shown before the next prompt; the flow goes on
    /// unless the person chooses to pause.
    case safety(SafetyNotice)
    /// An unfinished session of the same flow exists and can be resumed
    /// (`reflect run FLOW --resume`, or `reflect resume SESSION`).
    case resumable(session: String, flow: String, startedAt: String, answered: Int)
    /// The prompt that follows uses an experiment's variation (its wording,
    /// its personality, or a value the flow read with `s:variant`); sent
    /// once per experiment and session, just before that prompt, and only
    /// for people in the experiment (docs/experiments.md).
    case variant(step: StepID, experiment: String, variation: String)
    /// The answer just given earned a celebration (after the rate limit);
    /// `line` is a line from a pool, shown with it. Once per session, step
    /// and reason.
    case celebration(FiredCelebration)
}

/// What the `safety` event carries. No copy of the person's words.
public struct SafetyNotice: Sendable, Equatable {
    public var step: StepID
    /// Always `crisis` for now (the gate's only alarm level).
    public var level: String
    public var category: SafetyCategory
    /// A warm, non-clinical message in the session's language.
    public var text: String
    /// Crisis lines for the region, one per line.
    public var resources: [String]
    public var region: String
    /// The offer to pause (the flow never blocks; `quit` pauses).
    public var pause: String

    public init(step: StepID, level: String = "crisis", category: SafetyCategory, text: String, resources: [String],
                region: String, pause: String) {
        self.step = step
        self.level = level
        self.category = category
        self.text = text
        self.resources = resources
        self.region = region
        self.pause = pause
    }
}

/// A prompt as shown to the person.
public struct Prompt: Sendable, Equatable {
    public var session: String
    public var step: StepID
    /// 1-based number of this question among those that count for progress;
    /// 0 before the first (a pre-intensity, say).
    public var index: Int
    /// The flow's declared number of counted questions.
    public var total: Int?
    public var kind: PromptKind
    public var text: String
    public var options: [PromptOption]
    /// A short help line (e.g. what 0 and 10 mean).
    public var hint: String?
    /// The earlier answer to this step, set aside by going back; `keep`
    /// accepts it.
    public var draft: AnswerValue?
    /// Whether `skip` is refused.
    public var required: Bool
    /// Whether this step counts in progress.
    public var counted: Bool
    /// A `number` prompt's scale: min, max, step and the end labels.
    public var scale: NumberScale?
    /// A text prompt's limit in characters, if any.
    public var maxCharacters: Int?

    public init(session: String, step: StepID, index: Int, total: Int?, kind: PromptKind, text: String,
                options: [PromptOption] = [], hint: String? = nil, draft: AnswerValue? = nil,
                required: Bool = true, counted: Bool = true, scale: NumberScale? = nil,
                maxCharacters: Int? = nil) {
        self.session = session
        self.step = step
        self.index = index
        self.total = total
        self.kind = kind
        self.text = text
        self.options = options
        self.hint = hint
        self.draft = draft
        self.required = required
        self.counted = counted
        self.scale = scale
        self.maxCharacters = maxCharacters
    }

    public var shape: PromptShape {
        PromptShape(kind: kind, optionIDs: options.map(\.id), required: required, scale: scale, maxCharacters: maxCharacters)
    }

    /// The shape, accepting `words` for yes/no and checklist marks.
    public func shape(words: AnswerWords) -> PromptShape {
        PromptShape(kind: kind, optionIDs: options.map(\.id), optionLabels: options.map(\.text), required: required, words: words,
                    scale: scale, maxCharacters: maxCharacters)
    }
}

/// What `done` reports: the intensity before and after (steps `pre` and
/// `post`), and the change.
/// Three short texts about a finished session, in the personality's voice.
public struct SessionFeedback: Sendable, Equatable {
    public var session: String
    public var affirmation: String
    public var observation: String
    public var takeaway: String
    /// Whether any slot came from a provider (false: all from the offline template).
    public var generated: Bool

    public init(session: String, affirmation: String, observation: String, takeaway: String, generated: Bool) {
        self.session = session
        self.affirmation = affirmation
        self.observation = observation
        self.takeaway = takeaway
        self.generated = generated
    }
}

public struct DoneSummary: Sendable, Equatable {
    public var session: String
    public var pre: Int?
    public var post: Int?
    public var delta: Int? { pre.flatMap { p in post.map { $0 - p } } }

    public init(session: String, pre: Int?, post: Int?) {
        self.session = session
        self.pre = pre
        self.post = post
    }
}

extension FlowEvent: Encodable {
    private enum Keys: String, CodingKey {
        case event, session, step, index, total, kind, text, options, hint, draft, required, scale, maxCharacters = "max_chars", type, confidence, message, code, file, line
        case pre, post, delta, flow, experiment, variation, startedAt = "started_at", answered, level, category, resources, region, pause
        case tier, reason, item
        case affirmation, observation, takeaway, generated
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .prompt(let p):
            try c.encode("prompt", forKey: .event)
            try c.encode(p.session, forKey: .session)
            try c.encode(p.step, forKey: .step)
            try c.encode(p.index, forKey: .index)
            try c.encodeIfPresent(p.total, forKey: .total)
            try c.encode(p.kind, forKey: .kind)
            try c.encode(p.text, forKey: .text)
            if !p.options.isEmpty { try c.encode(p.options, forKey: .options) }
            try c.encodeIfPresent(p.hint, forKey: .hint)
            try c.encodeIfPresent(p.draft, forKey: .draft)
            try c.encode(p.required, forKey: .required)
            try c.encodeIfPresent(p.scale, forKey: .scale)
            try c.encodeIfPresent(p.maxCharacters, forKey: .maxCharacters)
        case .probe(let step, let text):
            try c.encode("probe", forKey: .event)
            try c.encode(step, forKey: .step)
            try c.encode(text, forKey: .text)
        case .distortion(let step, let type, let confidence):
            try c.encode("distortion", forKey: .event)
            try c.encode(step, forKey: .step)
            try c.encode(type, forKey: .type)
            try c.encode((confidence * 100).rounded() / 100, forKey: .confidence)
        case .invalid(let step, let code, let message):
            try c.encode("invalid", forKey: .event)
            try c.encode(step, forKey: .step)
            try c.encode(code, forKey: .code)
            try c.encode(message, forKey: .message)
        case .celebration(let f):
            try c.encode("celebration", forKey: .event)
            try c.encode(f.step, forKey: .step)
            try c.encodeIfPresent(f.tier, forKey: .tier)
            try c.encode(f.reason, forKey: .reason)
            try c.encodeIfPresent(f.item, forKey: .item)
            try c.encodeIfPresent(f.line?.text, forKey: .line)
        case .saved(let session, let step):
            try c.encode("saved", forKey: .event)
            try c.encode(session, forKey: .session)
            try c.encode(step, forKey: .step)
        case .done(let d):
            try c.encode("done", forKey: .event)
            try c.encode(d.session, forKey: .session)
            try c.encodeIfPresent(d.pre, forKey: .pre)
            try c.encodeIfPresent(d.post, forKey: .post)
            try c.encodeIfPresent(d.delta, forKey: .delta)
        case .feedback(let f):
            try c.encode("feedback", forKey: .event)
            try c.encode(f.session, forKey: .session)
            try c.encode(f.affirmation, forKey: .affirmation)
            try c.encode(f.observation, forKey: .observation)
            try c.encode(f.takeaway, forKey: .takeaway)
            try c.encode(f.generated, forKey: .generated)
        case .safety(let n):
            try c.encode("safety", forKey: .event)
            try c.encode(n.step, forKey: .step)
            try c.encode(n.level, forKey: .level)
            try c.encode(n.category, forKey: .category)
            try c.encode(n.text, forKey: .text)
            try c.encode(n.resources, forKey: .resources)
            try c.encode(n.region, forKey: .region)
            try c.encode(n.pause, forKey: .pause)
        case .resumable(let session, let flow, let startedAt, let answered):
            try c.encode("resumable", forKey: .event)
            try c.encode(session, forKey: .session)
            try c.encode(flow, forKey: .flow)
            try c.encode(startedAt, forKey: .startedAt)
            try c.encode(answered, forKey: .answered)
        case .variant(let step, let experiment, let variation):
            try c.encode("variant", forKey: .event)
            try c.encode(step, forKey: .step)
            try c.encode(experiment, forKey: .experiment)
            try c.encode(variation, forKey: .variation)
        case .error(let code, let message, let file, let line):
            try c.encode("error", forKey: .event)
            try c.encode(code, forKey: .code)
            try c.encode(message, forKey: .message)
            try c.encodeIfPresent(file, forKey: .file)
            try c.encodeIfPresent(line, forKey: .line)
        }
    }
}

/// What a running flow tells its host: the machine interface's events
/// (`reflect run --format jsonl` prints one per line; an app gets the same
/// values from the library). Encoded with an `"event"` field naming the case.
public enum FlowEvent: Sendable, Equatable {
    /// A question waiting for an answer. `index` is the 1-based number of the
    /// question (message steps keep the previous question's number); `total`
    /// is the flow's declared number of questions, when it declares one.
    case prompt(Prompt)
    /// The answer was not taken; the same prompt stands.
    case invalid(step: StepID, message: String)
    /// The answer was recorded (after it is durable, once storage exists).
    case saved(session: String, step: StepID)
    /// The flow finished.
    case done(session: String)
    /// The flow failed. `code` is stable (see docs/events.md).
    case error(code: String, message: String, file: String?, line: Int?)
}

/// A prompt as shown to the person.
public struct Prompt: Sendable, Equatable {
    public var session: String
    public var step: StepID
    public var index: Int
    public var total: Int?
    public var kind: PromptKind
    public var text: String

    public init(session: String, step: StepID, index: Int, total: Int?, kind: PromptKind, text: String) {
        self.session = session
        self.step = step
        self.index = index
        self.total = total
        self.kind = kind
        self.text = text
    }
}

extension FlowEvent: Encodable {
    private enum Keys: String, CodingKey {
        case event, session, step, index, total, kind, text, message, code, file, line
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
        case .invalid(let step, let message):
            try c.encode("invalid", forKey: .event)
            try c.encode(step, forKey: .step)
            try c.encode(message, forKey: .message)
        case .saved(let session, let step):
            try c.encode("saved", forKey: .event)
            try c.encode(session, forKey: .session)
            try c.encode(step, forKey: .step)
        case .done(let session):
            try c.encode("done", forKey: .event)
            try c.encode(session, forKey: .session)
        case .error(let code, let message, let file, let line):
            try c.encode("error", forKey: .event)
            try c.encode(code, forKey: .code)
            try c.encode(message, forKey: .message)
            try c.encodeIfPresent(file, forKey: .file)
            try c.encodeIfPresent(line, forKey: .line)
        }
    }
}

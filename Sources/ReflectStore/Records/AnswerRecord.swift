import GRDB
import ReflectCore

/// A row of `answer`: one step's answer with the exact question text shown.
/// Going back turns an answer into a draft (`state = draft`); answering the
/// step again turns it back.
public struct AnswerRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "answer"

    public enum State: String, Codable, Sendable, CaseIterable { case answer, draft }

    public var sessionID: String
    public var step: StepID
    /// Order in the answer log (0-based).
    public var position: Int
    public var kind: PromptKind
    /// The question exactly as it was shown (templated, localised).
    public var question: String
    /// The answer, stored as its JSON (see `AnswerValue`'s coding).
    public var value: AnswerValue
    public var state: State
    public var answeredAt: String
    /// The safety gate's category when the answer signalled a crisis.
    public var safety: SafetyCategory?
    /// The options the question offered (choices, checklist items), as
    /// shown: ids with their labels, in the flow's order. Nil for other
    /// kinds and for answers stored before labels were kept.
    public var options: [PromptOption]?

    public init(sessionID: String, step: StepID, position: Int, kind: PromptKind, question: String, value: AnswerValue,
                state: State = .answer, answeredAt: String, safety: SafetyCategory? = nil, options: [PromptOption]? = nil) {
        self.options = options
        self.sessionID = sessionID
        self.step = step
        self.position = position
        self.kind = kind
        self.question = question
        self.value = value
        self.state = state
        self.answeredAt = answeredAt
        self.safety = safety
    }

    enum CodingKeys: String, CodingKey {
        case step, position, kind, question, value, state, safety, options
        case sessionID = "session_id", answeredAt = "answered_at"
    }

    /// The table's columns, named once.
    public enum Columns {
        public static let sessionID = Column(CodingKeys.sessionID)
        public static let step = Column(CodingKeys.step)
        public static let position = Column(CodingKeys.position)
        public static let state = Column(CodingKeys.state)
    }

    /// Answers first, then drafts: `ORDER BY` this, then `position`.
    static var logOrder: SQLExpression { SQL("CASE \(Columns.state) WHEN \(State.answer) THEN 0 ELSE 1 END").sqlExpression }
}

extension AnswerRecord.State: DatabaseValueConvertible {}

/// A row of `distortion`: the distortion detected in a step's answer.
public struct DistortionRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "distortion"
    public var sessionID: String
    public var step: StepID
    public var type: DistortionType
    public var detectedAt: String

    public init(sessionID: String, step: StepID, type: DistortionType, detectedAt: String) {
        self.sessionID = sessionID
        self.step = step
        self.type = type
        self.detectedAt = detectedAt
    }

    enum CodingKeys: String, CodingKey {
        case step, type
        case sessionID = "session_id", detectedAt = "detected_at"
    }

    /// The table's columns, named once.
    public enum Columns {
        public static let sessionID = Column(CodingKeys.sessionID)
        public static let step = Column(CodingKeys.step)
    }
}

/// A row of `session_event`: a probe or a safety event. Safety events keep
/// the category and the time only, never the person's text.
public struct SessionEventRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "session_event"

    /// `generation_blocked`: a provider's text was refused by the engine's
    /// checks (generation spec §6); logged as the kind and the time only,
    /// with the request's id as the step, never the text.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case probe, safety
        case generationBlocked = "generation_blocked"
    }

    public var sessionID: String
    public var kind: Kind
    public var step: StepID
    /// The safety category, for a safety event.
    public var category: SafetyCategory?
    public var at: String

    public init(sessionID: String, kind: Kind, step: StepID, category: SafetyCategory? = nil, at: String) {
        self.sessionID = sessionID
        self.kind = kind
        self.step = step
        self.category = category
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case kind, step, category, at
        case sessionID = "session_id"
    }

    /// The table's columns, named once.
    public enum Columns {
        public static let sessionID = Column(CodingKeys.sessionID)
        public static let step = Column(CodingKeys.step)
        public static let at = Column(CodingKeys.at)
    }
}

extension SessionEventRecord.Kind: DatabaseValueConvertible {}

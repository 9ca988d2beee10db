import GRDB
import ReflectCore

/// A row of `session`: one run of one flow by one person.
public struct SessionRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "session"

    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Started, not finished; resumable.
        case active
        /// The flow reached its end.
        case completed
    }

    public var id: String
    public var flowID: String
    public var flowVersion: Int
    public var locale: String
    public var personality: String?
    public var user: String
    public var mood: Mood?
    /// The seed, as stored (SQLite integers are signed): bit pattern of the UInt64.
    public var seed: Int64
    /// The injected clock the session runs with (ISO-8601 with offset).
    public var clock: String
    public var startedAt: String
    public var completedAt: String?
    public var status: Status
    public var pre: Int?
    public var post: Int?
    /// The person's facts when the session started (the engine's
    /// `UserFacts`, JSON), replayed on resume; nil when none were given.
    public var facts: String?
    /// The person's experiment arms for this session (the engine's
    /// `SessionSave.variants`, JSON); nil when none.
    public var variants: String?
    /// When the person set this session aside to start anew, its flow having
    /// changed under it (`reflect run` offers it): it is kept and readable
    /// (`reflect show`, export) but never resumed. Nil otherwise.
    public var setAsideAt: String?
    /// The related entries the session showed (the engine's
    /// `SessionSave.recalled`, JSON); nil when none.
    public var recalled: String?

    public init(id: String, flowID: String, flowVersion: Int, locale: String, personality: String?, user: String,
                mood: Mood?, seed: UInt64, clock: String, startedAt: String, completedAt: String? = nil,
                status: Status = .active, pre: Int? = nil, post: Int? = nil, facts: String? = nil,
                variants: String? = nil, setAsideAt: String? = nil, recalled: String? = nil) {
        self.setAsideAt = setAsideAt
        self.id = id
        self.flowID = flowID
        self.flowVersion = flowVersion
        self.locale = locale
        self.personality = personality
        self.user = user
        self.mood = mood
        self.seed = Int64(bitPattern: seed)
        self.clock = clock
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.status = status
        self.pre = pre
        self.post = post
        self.facts = facts
        self.variants = variants
        self.recalled = recalled
    }

    public var seedValue: UInt64 { UInt64(bitPattern: seed) }

    enum CodingKeys: String, CodingKey {
        case id, locale, personality, user, mood, seed, clock, status, pre, post, facts, variants, recalled
        case flowID = "flow_id", flowVersion = "flow_version", startedAt = "started_at", completedAt = "completed_at"
        case setAsideAt = "set_aside_at"
    }

    /// The table's columns, named once.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let user = Column(CodingKeys.user)
        public static let flowID = Column(CodingKeys.flowID)
        public static let status = Column(CodingKeys.status)
        public static let startedAt = Column(CodingKeys.startedAt)
        public static let setAsideAt = Column(CodingKeys.setAsideAt)
    }
}

extension SessionRecord.Status: DatabaseValueConvertible {}

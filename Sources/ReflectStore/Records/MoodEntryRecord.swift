import GRDB
import ReflectCore

/// A row of `mood_entry`: one person's mood for one day (editable through
/// the day). Written only by ``MoodLog/record(_:in:)``.
public struct MoodEntryRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "mood_entry"

    public enum Source: String, Codable, Sendable, CaseIterable { case log, reflection, `import` }

    public var user: String
    /// The local day, YYYY-MM-DD.
    public var day: String
    public var mood: Mood
    public var note: String?
    public var source: Source
    /// The reflection that logged it, if any.
    public var sessionID: String?
    public var createdAt: String
    public var updatedAt: String

    public init(user: String, day: String, mood: Mood, note: String?, source: Source, sessionID: String? = nil,
                createdAt: String, updatedAt: String) {
        self.user = user
        self.day = day
        self.mood = mood
        self.note = note
        self.source = source
        self.sessionID = sessionID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case user, day, mood, note, source
        case sessionID = "session_id", createdAt = "created_at", updatedAt = "updated_at"
    }

    /// The table's columns, named once.
    public enum Columns {
        public static let user = Column(CodingKeys.user)
        public static let day = Column(CodingKeys.day)
    }
}

extension MoodEntryRecord.Source: DatabaseValueConvertible {}

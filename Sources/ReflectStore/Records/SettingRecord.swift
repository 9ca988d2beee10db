import GRDB

/// A row of `setting`: one of a person's settings, as text (the form
/// `Settings.text(of:)` writes and `Settings.setting(_:to:)` reads).
public struct SettingRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "setting"

    public var user: String
    public var key: String
    public var value: String
    public var updatedAt: String

    public init(user: String, key: String, value: String, updatedAt: String) {
        self.user = user
        self.key = key
        self.value = value
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case user, key, value
        case updatedAt = "updated_at"
    }
}

import GRDB
import ReflectCore

/// A theme an answer mentions (table `answer_theme`), found by auto-tagging
/// when the answer was taken. Only answers (not drafts) have themes: going
/// back removes them with the answer's state.
public struct AnswerThemeRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "answer_theme"

    public var sessionID: String
    public var step: StepID
    public var theme: Theme

    public init(sessionID: String, step: StepID, theme: Theme) {
        self.sessionID = sessionID
        self.step = step
        self.theme = theme
    }

    enum CodingKeys: String, CodingKey {
        case step, theme
        case sessionID = "session_id"
    }
}

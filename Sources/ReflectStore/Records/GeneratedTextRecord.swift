import GRDB
import ReflectCore

/// A text generated for a session's flow, as shown (table `generated_text`):
/// a resumed session replays it instead of asking a provider again.
public struct GeneratedTextRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "generated_text"

    public var sessionID: String
    /// The request's id in the flow (`s:generate { id = ... }`).
    public var request: StepID
    public var text: String
    /// False when the flow's fallback was shown.
    public var generated: Bool
    /// A digest of what the text was generated from (reused only for the same).
    public var basis: String
    public var at: String

    public init(sessionID: String, request: StepID, text: String, generated: Bool, basis: String, at: String) {
        self.sessionID = sessionID
        self.request = request
        self.text = text
        self.generated = generated
        self.basis = basis
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case request, text, generated, basis, at
        case sessionID = "session_id"
    }

    /// The table's columns, named once.
    public enum Columns {
        public static let sessionID = Column(CodingKeys.sessionID)
        public static let request = Column(CodingKeys.request)
        public static let at = Column(CodingKeys.at)
    }
}

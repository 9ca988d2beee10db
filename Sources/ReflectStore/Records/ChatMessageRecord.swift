import Foundation
import GRDB
import ReflectCore

/// One message of a coach chat (table `chat_message`): the person's or the
/// coach's, as shown. Kept locally; `reflect chat --delete-history` and the
/// `chat_history_days` setting remove them.
public struct ChatMessageRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "chat_message"

    public enum Role: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible { case person, coach }

    /// The chat it belongs to (one `reflect chat` run).
    public var chatID: String
    /// Its place in the chat, from 0.
    public var position: Int
    public var user: String
    public var role: Role
    /// `just_talk` or `ask_coach`.
    public var mode: String
    public var text: String
    /// For the coach: whether a provider wrote it (false: the fallback line,
    /// a screening replacement or a crisis notice).
    public var generated: Bool
    /// For the person: the crisis gate's category.
    public var safety: SafetyCategory?
    public var at: String

    public init(chatID: String, position: Int, user: String, role: Role, mode: String, text: String, generated: Bool,
                safety: SafetyCategory? = nil, at: String) {
        self.chatID = chatID
        self.position = position
        self.user = user
        self.role = role
        self.mode = mode
        self.text = text
        self.generated = generated
        self.safety = safety
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case position, user, role, mode, text, generated, safety, at
        case chatID = "chat_id"
    }
}

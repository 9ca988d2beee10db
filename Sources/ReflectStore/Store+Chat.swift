import Foundation
import GRDB
import ReflectCore

extension Store {
    /// Appends messages of a chat in one transaction (the person's message
    /// and the reply go together).
    public func appendChat(_ messages: [ChatMessageRecord]) throws(StoreError) {
        try write { db in
            for m in messages {
                try db.execute(sql: """
                    INSERT INTO chat_message (chat_id, position, user, role, mode, text, generated, safety, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [m.chatID, m.position, m.user, m.role, m.mode, m.text, m.generated, m.safety, m.at])
            }
        }
    }

    /// The person's last `limit` messages and replies, oldest first (the context of a new chat).
    public func recentChat(user: String, limit: Int) throws(StoreError) -> [ChatMessageRecord] {
        try read { db in
            try ChatMessageRecord.fetchAll(db, sql: "SELECT * FROM chat_message WHERE user = ? ORDER BY at DESC, chat_id DESC, position DESC LIMIT ?",
                                           arguments: [user, limit]).reversed()
        }
    }

    /// All of the person's chat messages, oldest first.
    public func chatHistory(user: String) throws(StoreError) -> [ChatMessageRecord] {
        try read { db in
            try ChatMessageRecord.fetchAll(db, sql: "SELECT * FROM chat_message WHERE user = ? ORDER BY at, chat_id, position", arguments: [user])
        }
    }

    /// Deletes the person's chat history; returns how many messages went.
    @discardableResult
    public func deleteChatHistory(user: String) throws(StoreError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM chat_message WHERE user = ?", arguments: [user])
            return db.changesCount
        }
    }

    /// Deletes the person's chat messages written before `cutoff` (an
    /// ISO-8601 instant); returns how many went. Compares instants, not
    /// text, so offsets do not matter.
    @discardableResult
    public func deleteChat(user: String, before cutoff: Date) throws(StoreError) -> Int {
        try write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, at FROM chat_message WHERE user = ?", arguments: [user])
            let old: [Int64] = rows.compactMap { row in
                guard let at: String = row["at"], let date = FlowClock(iso8601: at)?.date, date < cutoff else { return nil }
                return row["id"]
            }
            for id in old { try db.execute(sql: "DELETE FROM chat_message WHERE id = ?", arguments: [id]) }
            return old.count
        }
    }
}

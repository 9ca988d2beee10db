import GRDB
import ReflectCore

extension Store {
    /// Deletes one entry (a check-in, a moment, any session) of `user`, with
    /// everything stored under it: answers, drafts, themes, distortions,
    /// events, generated texts (foreign keys cascade). A mood-log entry the
    /// session wrote stays in the mood log, no longer linked to it. Returns
    /// the flow id of what was deleted; throws ``StoreError/sessionNotFound(_:)``
    /// when `user` has no such session.
    @discardableResult
    public func deleteSession(_ id: String, user: String) throws(StoreError) -> String {
        try write { db in
            guard let s = try SessionRecord.filter(SessionRecord.Columns.id == id && SessionRecord.Columns.user == user).fetchOne(db) else {
                throw StoreError.sessionNotFound(id)
            }
            try db.execute(sql: "UPDATE mood_entry SET session_id = NULL WHERE session_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
            return s.flowID
        }
    }
}

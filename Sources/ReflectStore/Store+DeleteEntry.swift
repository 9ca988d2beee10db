import GRDB
import ReflectCore

extension Store {
    /// Deletes one entry (a check-in, a moment, any session) of `user`, with
    /// everything stored under it: answers, drafts, themes, distortions,
    /// events, generated texts (foreign keys cascade). A mood-log entry the
    /// session wrote stays in the mood log, no longer linked to it. Returns
    /// the flow id of what was deleted; throws ``StoreError/sessionNotFound(_:)``
    /// when `user` has no such session.
    /// A session open in another process (its lease held: ``SessionLease``)
    /// is refused with ``StoreError/sessionOpenElsewhere(session:holder:)``:
    /// its next answer would have nowhere to go.
    @discardableResult
    public func deleteSession(_ id: String, user: String) throws(StoreError) -> String {
        let lease = try lease(session: id)
        defer { lease.release() }
        return try write { db in
            guard let s = try SessionRecord.filter(SessionRecord.Columns.id == id && SessionRecord.Columns.user == user).fetchOne(db) else {
                throw StoreError.sessionNotFound(id)
            }
            try db.execute(sql: "UPDATE mood_entry SET session_id = NULL WHERE session_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
            return s.flowID
        }
    }
}

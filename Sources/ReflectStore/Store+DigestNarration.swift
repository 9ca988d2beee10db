import GRDB

// The weekly digest's narration (table `digest_narration`, migration v15;
// docs/journal.md, "Narration"): one per person and week, with the basis
// it was made from. Not exported: it is made again from the data. Triggers
// remove a person's narrations when a session, an answer or a mood entry
// of theirs changes or goes, so no narration keeps words that were deleted.

extension Store {
    /// The narration stored for `user`'s week starting `week` (a Monday),
    /// if it was made from `basis`; nil otherwise (none, or made from other data).
    public func digestNarration(user: String, week: String, basis: String) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT text FROM digest_narration WHERE user = ? AND week = ? AND basis = ?",
                                arguments: [user, week, basis])
        }
    }

    /// Keeps `text` as the narration of `user`'s week, replacing any other.
    public func saveDigestNarration(user: String, week: String, basis: String, text: String, at: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO digest_narration (user, week, basis, text, made_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user, week) DO UPDATE SET basis = excluded.basis, text = excluded.text, made_at = excluded.made_at
                """, arguments: [user, week, basis, text, at])
        }
    }

    /// Removes the narration of `user`'s week that was made from other data
    /// than `basis` (its words may no longer be the person's).
    public func forgetStaleDigestNarration(user: String, week: String, basis: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM digest_narration WHERE user = ? AND week = ? AND basis <> ?", arguments: [user, week, basis])
        }
    }

    /// Removes the narration of `user`'s week, whatever it was made from
    /// (one kept earlier that today's screens refuse).
    public func forgetDigestNarration(user: String, week: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM digest_narration WHERE user = ? AND week = ?", arguments: [user, week])
        }
    }
}

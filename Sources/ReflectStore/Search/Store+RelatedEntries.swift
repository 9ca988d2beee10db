import Foundation
import GRDB
import ReflectCore

// Related past entries: full-text search (SQLite FTS5, bm25) over the
// person's own free-text answers, combined with recency. The formula is
// documented in docs/journal.md ("Related past entries"); `RelatedEntryTests`
// holds it.

extension Store {
    /// Weights of the score: 0.7 × relevance + 0.3 × recency.
    static let relevanceWeight = 0.7
    static let recencyWeight = 0.3
    /// Recency is 1 / (1 + age in days / this): 1 today, 0.5 a month ago.
    static let recencyDays = 30.0
    /// From this many indexed entries on, a word in more than half of them
    /// is left out of the search.
    static let commonWordMinimumEntries = 20

    /// The person's past answers most like `text`, best first, at most `limit`.
    ///
    /// - relevance: FTS5's bm25 of each matching answer, divided by the
    ///   best bm25 among the person's matches (so the best is 1, and the
    ///   rest are in proportion);
    /// - recency: 1 / (1 + d / 30), d the days from the answer to `now`;
    /// - score: 0.7 × relevance + 0.3 × recency; ties: the later answer,
    ///   then session and step;
    /// - words: those of `text` (``SearchText/terms(_:)``), any of which
    ///   matches; once the index holds 20 entries or more, a word found in
    ///   more than half of them is not searched for.
    ///
    /// Only `user`'s kept, unflagged free-text answers are searched (the
    /// index holds nothing else), excluding session `excluding` and anything
    /// answered at or after `now` (ISO-8601 with offset), so that the same
    /// store and the same `now` give the same entries.
    ///
    /// An entry tagged with one of `avoiding` (the person's topics to avoid,
    /// docs/journal.md) is never returned, however related.
    ///
    /// Every answer committed before the call is searched: the index first
    /// catches up (``catchUpRelatedEntries()``) when answers of a session
    /// other than `excluding` are pending. A
    /// read-only store cannot write that catch-up: it then throws
    /// ``StoreError/searchNotCaughtUp(path:)`` rather than search without
    /// them (no command searches through a read-only store).
    public func relatedEntries(user: String, to text: String, now: String, excluding: String?,
                               limit: Int = 3, avoiding: [Theme] = []) throws(StoreError) -> [RelatedEntry] {
        let words = SearchText.terms(text)
        guard limit > 0, !words.isEmpty else { return [] }
        let search = { (db: Database) throws -> [RelatedEntry] in
            try Store.relatedEntries(words: words, user: user, now: now, excluding: excluding, limit: limit, avoiding: avoiding, in: db)
        }
        // The index first catches up with every durable answer (answers
        // written since the last catch-up, by any process, even one killed
        // since: Store+SearchCatchUp.swift), in the transaction that
        // searches, so that no answer committed before the search is missed.
        // The session `excluding` is never found: its own pending answers
        // (the running session's, when it recalls related entries) need no
        // catch-up, which would otherwise be a second index segment and
        // sync in that session.
        if let found = try read({ db in try Store.hasPendingEntries(db, excluding: excluding) ? nil : try search(db) }) {
            return found
        }
        guard access == .readWrite else { throw StoreError.searchNotCaughtUp(path: path) }
        return try write { db in
            try Store.catchUpRelatedEntries(in: db)
            return try search(db)
        }
    }

    /// The search itself (see the public method), on `db` as it is.
    static func relatedEntries(words: [String], user: String, now: String, excluding: String?, limit: Int, avoiding: [Theme],
                               in db: Database) throws -> [RelatedEntry] {
        // Function words ("the", "und", "que") would make any entry
        // "related": once there are enough entries to tell, a word
        // found in more than half of them is not searched for.
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_text") ?? 0
        var kept = words
        if total >= Store.commonWordMinimumEntries {
            kept = try words.filter { word in
                let found = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_search WHERE entry_search MATCH ?",
                                             arguments: [SearchText.quoted(word)]) ?? 0
                return found * 2 <= total
            }
        }
        guard let query = SearchText.query(kept) else { return [] }
        let rows = try Row.fetchAll(db, sql: """
            WITH matched AS (
                SELECT t.session_id, t.step, bm25(entry_search) AS b
                FROM entry_search JOIN entry_text t ON t.id = entry_search.rowid
                WHERE entry_search MATCH ?
            ),
            mine AS MATERIALIZED (
                SELECT m.session_id, m.step, m.b, a.answered_at AS at, a.value, s.flow_id
                FROM matched m
                JOIN session s ON s.id = m.session_id
                JOIN answer a ON a.session_id = m.session_id AND a.step = m.step
                WHERE s.user = ? AND m.session_id <> ? AND julianday(a.answered_at) < julianday(?)
                  AND NOT EXISTS (SELECT 1 FROM answer_theme t WHERE t.session_id = m.session_id AND t.step = m.step
                                  AND t.theme IN (SELECT value FROM json_each(?)))
            )
            SELECT session_id, step, at, value, flow_id,
                   ? * (b / (SELECT min(b) FROM mine))
                   + ? / (1.0 + max(0.0, julianday(?) - julianday(at)) / ?) AS score
            FROM mine
            ORDER BY score DESC, at DESC, session_id, step
            LIMIT ?
            """, arguments: [query, user, excluding ?? "", now, Store.themeList(avoiding),
                             Store.relevanceWeight, Store.recencyWeight, now, Store.recencyDays, limit])
        return rows.compactMap { row -> RelatedEntry? in
            guard let step = StepID.fromDatabaseValue(row["step"]),
                  case .text(let answer)? = AnswerValue.fromDatabaseValue(row["value"]) else { return nil }
            let at: String = row["at"] ?? ""
            let score: Double = row["score"] ?? 0
            return RelatedEntry(day: String(at.prefix(10)), text: answer, flow: row["flow_id"] ?? "",
                                session: row["session_id"] ?? "", step: step, score: (score * 10_000).rounded() / 10_000)
        }
    }
}

extension Store {
    /// Puts the kept, unflagged free-text answers of `session` (one `step`,
    /// or all) into the related-entries index, replacing what was there for
    /// them. Called by import, in its transaction (an answer's write leaves
    /// its session pending instead: `AnswerStatements.write`); an answer
    /// changed or deleted leaves the index by the table's triggers
    /// (migration v13).
    static func indexAnswers(session: String, step: StepID? = nil, in db: Database) throws {
        let only = step == nil ? "" : " AND step = ?"
        var arguments: StatementArguments = [session]
        if let step { arguments += [step.rawValue] }
        // Cached: an import runs this once per session.
        try db.cachedStatement(sql: "DELETE FROM entry_text WHERE session_id = ?" + only).execute(arguments: arguments)
        try db.cachedStatement(sql: """
            INSERT INTO entry_text (session_id, step, body)
                SELECT session_id, step, \(SearchText.sqlName)(value) FROM answer
                WHERE session_id = ?\(only) AND state = 'answer' AND safety IS NULL AND kind = 'text'
                  AND \(SearchText.sqlName)(value) IS NOT NULL
                ORDER BY position, step
            """).execute(arguments: arguments)
    }
}

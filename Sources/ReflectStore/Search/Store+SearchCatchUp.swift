import GRDB

// The related-entries index (`entry_text` / `entry_search`, FTS5) is derived
// from the answers, and is written after them, not in their transaction:
// FTS5 writes a new segment at every transaction that changes it, which
// made the index most of each answer's durable write (BENCHMARKS.md).
//
// - The answer's transaction records its session in `entry_pending`
//   (`AnswerStatements.write`, `INSERT OR IGNORE`: no page is written when
//   the session is already there; not even that statement when the writer
//   connection knows the marker is there and nothing changed the file
//   since, AnswerWrite.swift).
// - ``catchUpRelatedEntries()`` indexes every pending session's answers
//   that are not in the index yet, in ONE transaction (one FTS5 segment),
//   and empties `entry_pending`. The run calls it when it stops; and every
//   search (``relatedEntries(user:to:now:excluding:limit:avoiding:)``)
//   first catches up, in the transaction it searches in, whenever a session
//   it could find answers of is pending (not the session it leaves out:
//   the running one, whose answers it never returns). So a search never
//   misses a durable answer, whichever process wrote it and even if that
//   process was killed before its own catch-up.
// - An index row that exists always matches its answer: changing an
//   answer's session, step, kind, value, state or safety, or deleting it,
//   removes its row (the triggers of migrations v13 and v14, any tool), so
//   catching up only adds the rows that are missing.

extension Store {
    /// Whether `answer` may enter the related-entries index, so that its
    /// write leaves its session pending (`AnswerStatements.write`, in the
    /// answer's transaction); not when it can never be indexed (not free
    /// text, a draft, flagged, empty). A superset of the answers the index
    /// holds (the catch-up decides), so that the write does none of the
    /// indexed form's work.
    static func isIndexable(_ answer: AnswerRecord) -> Bool {
        guard answer.kind == .text, answer.state == .answer, answer.safety == nil,
              case .text(let text) = answer.value, !text.isEmpty else { return false }
        return true
    }

    /// Whether some session (other than `excluding`) has answers the index
    /// may not hold yet.
    static func hasPendingEntries(_ db: Database, excluding: String? = nil) throws -> Bool {
        guard let excluding else {
            return try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM entry_pending)")) ?? false
        }
        return try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM entry_pending WHERE session_id <> ?)"),
                                 arguments: [excluding]) ?? false
    }

    /// Brings the related-entries index up to date with every answer
    /// written so far, by any process, in one transaction (one FTS5
    /// segment); nothing is written when nothing is pending. Safe to call at
    /// any time, from several processes at once: the answers are the truth
    /// and catching up only adds what is missing. A read-only store does
    /// nothing (it cannot write; its searches read the answers instead).
    public func catchUpRelatedEntries() throws(StoreError) {
        guard access == .readWrite else { return }
        // Looked at on the writer connection, outside a transaction (a read,
        // no write lock): a pool would otherwise open a reader connection
        // (its set-up, the schema read) only to find out.
        let pending: Bool
        do { pending = try writer.writeWithoutTransaction { db in try Store.hasPendingEntries(db) } } catch {
            throw StoreError.mapping(error, path: path)
        }
        guard pending else { return }
        try write { db in try Store.catchUpRelatedEntries(in: db) }
    }

    /// The catch-up, inside a write transaction: the kept, unflagged
    /// free-text answers of the pending sessions that have no index row
    /// yet, in their indexed form (``SearchText/sqlName``, the same function
    /// import and the v13 backfill use), then no session pending.
    static func catchUpRelatedEntries(in db: Database) throws {
        guard try hasPendingEntries(db) else { return }
        try db.cachedStatement(sql: catchUpSQL).execute()
        try db.cachedStatement(sql: "DELETE FROM entry_pending").execute()
    }

    /// The catch-up's insert. `CROSS JOIN` makes SQLite read the pending
    /// sessions first and each one's answers by key: with a plain JOIN (and
    /// no statistics) it chose to scan every stored answer and probe the
    /// index for each, so a catch-up cost grew with the whole history
    /// (15× the work at 14,000 answers for one pending session).
    /// `SearchCatchUpTests.catchUpReadsByKey` holds the plan.
    static let catchUpSQL = """
        WITH missing AS MATERIALIZED (
            SELECT a.session_id, a.step, a.position, \(SearchText.sqlName)(a.value) AS body
            FROM entry_pending p CROSS JOIN answer a ON a.session_id = p.session_id
            WHERE a.state = 'answer' AND a.safety IS NULL AND a.kind = 'text'
              AND NOT EXISTS (SELECT 1 FROM entry_text t WHERE t.session_id = a.session_id AND t.step = a.step)
        )
        INSERT INTO entry_text (session_id, step, body)
            SELECT session_id, step, body FROM missing WHERE body IS NOT NULL
            ORDER BY session_id, position, step
        """
}

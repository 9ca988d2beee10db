import Foundation
import GRDB
import ReflectCore

/// A session with everything recorded about it.
public struct SessionDetail: Sendable, Equatable {
    public var session: SessionRecord
    /// Answers in log order, then drafts.
    public var answers: [AnswerRecord]
    public var distortions: [DistortionRecord]
    public var events: [SessionEventRecord]
}

extension Store {
    // MARK: Writing (each call is one committed transaction)

    public func beginSession(_ session: SessionRecord) throws(StoreError) {
        try write { db in try session.insert(db) }
    }

    /// Records an answer (or re-answers a step), and its safety event if it
    /// was flagged, in one transaction: committed when this returns.
    public func recordAnswer(_ answer: AnswerRecord, safetyEvent: SessionEventRecord? = nil) throws(StoreError) {
        try write { db in
            // The hot write (one before every next prompt): one cached
            // upsert with explicit arguments. A record `save` costs an
            // UPDATE, then an INSERT, each with Codable encoding: about ten
            // times the instructions (see BENCHMARKS.md).
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (session_id, step) DO UPDATE SET
                    position = excluded.position, kind = excluded.kind, question = excluded.question,
                    value = excluded.value, state = excluded.state, answered_at = excluded.answered_at,
                    safety = excluded.safety
                """)
            try upsert.execute(arguments: [answer.sessionID, answer.step, answer.position, answer.kind, answer.question,
                                           answer.value, answer.state.rawValue, answer.answeredAt, answer.safety])
            try safetyEvent?.insert(db)
        }
    }

    /// Going back: the step's answer becomes a draft.
    public func markDraft(session: String, step: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE answer SET state = 'draft' WHERE session_id = ? AND step = ?", arguments: [session, step])
        }
    }

    public func recordDistortion(_ d: DistortionRecord) throws(StoreError) {
        try write { db in try d.save(db, onConflict: .replace) }
    }

    public func recordEvent(_ e: SessionEventRecord) throws(StoreError) {
        try write { db in try e.insert(db) }
    }

    /// Marks a session complete with its intensities; logs the session's
    /// mood for `day` in the same transaction when the session has one.
    public func completeSession(_ id: String, pre: Int?, post: Int?, at: String, moodDay: String?) throws(StoreError) {
        try write { db in
            guard var s = try SessionRecord.fetchOne(db, key: id) else { throw StoreError.sessionNotFound(id) }
            s.status = .completed
            s.completedAt = at
            s.pre = pre
            s.post = post
            try s.update(db)
            if let day = moodDay, let raw = s.mood, let mood = Mood(rawValue: raw) {
                try MoodLog.record(MoodLogRequest(user: s.user, day: day, mood: mood, note: nil, source: .reflection,
                                                  sessionID: id, at: at), in: db)
            }
        }
    }

    // MARK: Reading

    /// Unfinished sessions, newest first (optionally of one flow).
    public func unfinishedSessions(user: String, flowID: String? = nil) throws(StoreError) -> [SessionRecord] {
        try read { db in
            var q = SessionRecord.filter(Column("user") == user && Column("status") == SessionRecord.Status.active.rawValue)
            if let flowID { q = q.filter(Column("flow_id") == flowID) }
            return try q.order(Column("started_at").desc, Column("id")).fetchAll(db)
        }
    }

    public func recentSessions(user: String, limit: Int = 20) throws(StoreError) -> [SessionRecord] {
        try read { db in
            try SessionRecord.filter(Column("user") == user).order(Column("started_at").desc, Column("id")).limit(limit).fetchAll(db)
        }
    }

    /// The session whose id is `idOrPrefix`, or starts with it.
    public func resolveSession(_ idOrPrefix: String) throws(StoreError) -> String {
        try read { db in
            if try SessionRecord.exists(db, key: idOrPrefix) { return idOrPrefix }
            let escaped = idOrPrefix.replacingOccurrences(of: "%", with: "").replacingOccurrences(of: "_", with: "")
            let ids = try String.fetchAll(db, sql: "SELECT id FROM session WHERE id LIKE ? || '%' LIMIT 2", arguments: [escaped])
            switch ids.count {
            case 0: throw StoreError.sessionNotFound(idOrPrefix)
            case 1: return ids[0]
            default:
                let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM session WHERE id LIKE ? || '%'", arguments: [escaped]) ?? 2
                throw StoreError.ambiguousSession(idOrPrefix, matches: n)
            }
        }
    }

    public func detail(_ id: String) throws(StoreError) -> SessionDetail {
        try read { db in
            guard let s = try SessionRecord.fetchOne(db, key: id) else { throw StoreError.sessionNotFound(id) }
            let answers = try AnswerRecord.filter(Column("session_id") == id)
                .order(sql: "CASE state WHEN 'answer' THEN 0 ELSE 1 END, position").fetchAll(db)
            let distortions = try DistortionRecord.filter(Column("session_id") == id).order(Column("step")).fetchAll(db)
            let events = try SessionEventRecord.filter(Column("session_id") == id).order(Column("at"), Column("step")).fetchAll(db)
            return SessionDetail(session: s, answers: answers, distortions: distortions, events: events)
        }
    }

    /// Number of answers (not drafts) stored for a session.
    public func answerCount(_ id: String) throws(StoreError) -> Int {
        try read { db in
            try AnswerRecord.filter(Column("session_id") == id && Column("state") == "answer").fetchCount(db)
        }
    }
}

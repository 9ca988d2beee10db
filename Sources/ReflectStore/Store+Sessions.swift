import Foundation
import GRDB
import ReflectCore

/// How a session ended: its intensities, and the day its mood is logged for.
public struct SessionCompletion: Sendable, Equatable {
    public var pre: Int?
    public var post: Int?
    /// When it ended (ISO-8601).
    public var at: String
    /// The session's local day (YYYY-MM-DD): its mood is logged for it.
    public var moodDay: String?

    public init(pre: Int?, post: Int?, at: String, moodDay: String?) {
        self.pre = pre
        self.post = post
        self.at = at
        self.moodDay = moodDay
    }
}

/// A session with everything recorded about it.
public struct SessionDetail: Sendable, Equatable {
    public var session: SessionRecord
    /// Answers in log order, then drafts.
    public var answers: [AnswerRecord]
    public var distortions: [DistortionRecord]
    public var events: [SessionEventRecord]
    /// Texts generated for the flow, in the order they were recorded.
    public var generated: [GeneratedTextRecord] = []
    /// Experiments whose exposure this session recorded.
    public var exposed: [String] = []
    /// Celebrations fired in it, in order.
    public var celebrations: [CelebrationRow] = []
}

extension Store {
    // MARK: Writing (each call is one committed transaction)

    public func beginSession(_ session: SessionRecord) throws(StoreError) {
        try write { db in
            // Every column, as GRDB's record insert writes them (the record's
            // coding keys; BeginSessionTests compares the two), without the
            // schema look-ups and record encoding of its first use in a
            // process: a run's start.
            try db.cachedStatement(sql: """
                INSERT INTO session (id, flow_id, flow_version, locale, personality, user, mood, seed, clock, started_at,
                                     completed_at, status, pre, post, facts, variants, set_aside_at, recalled)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [session.id, session.flowID, session.flowVersion, session.locale, session.personality,
                                         session.user, session.mood?.rawValue, session.seed, session.clock, session.startedAt,
                                         session.completedAt, session.status.rawValue, session.pre, session.post, session.facts,
                                         session.variants, session.setAsideAt, session.recalled])
            try Store.markReturn(user: session.user, session: session.id, startedAt: session.startedAt, in: db)
        }
    }

    /// Records an answer (or re-answers a step) with everything it led to,
    /// in one transaction: committed and synced when this returns. A kill
    /// at any moment leaves either all of it or none of it.
    /// - Parameters:
    ///   - safetyEvent: the safety event, when the gate flagged the answer;
    ///   - events: other events it led to (a probe);
    ///   - distortions: distortions the flow detected in it;
    ///   - completion: when it was the last answer, the session's end;
    ///   - activityDay: the person's day the answer counts for: its
    ///     showed-up day, step day and completion go through
    ///     ``markActivity(_:user:in:)`` in the same transaction (nil: none);
    ///   - celebrations: celebrations the answer earned, each stored once
    ///     per session, step and reason;
    ///   - recalled: the session's related entries (JSON), when they
    ///     changed since the last answer: replaces what was stored.
    public func recordAnswer(_ answer: AnswerRecord, safetyEvent: SessionEventRecord? = nil, events: [SessionEventRecord] = [],
                             distortions: [DistortionRecord] = [], generated: [GeneratedTextRecord] = [],
                             themes: [Theme] = [], completion: SessionCompletion? = nil, coach: [CoachRecord] = [],
                             coachDay: String? = nil, exposures: [VariantAssignment] = [], activityDay: CalendarDay? = nil,
                             celebrations: [CelebrationRow] = [], recalled: String? = nil) throws(StoreError) {
        try writeAnswer { db, statements in
            // The hot write (one before every next prompt): the answer's row
            // on statements prepared once, its values bound directly, and
            // its session left pending for the related-entries index, which
            // catches up later, in one transaction per session
            // (AnswerWrite.swift, Store+SearchCatchUp.swift).
            try statements.write(answer, db)
            try safetyEvent?.insert(db)
            for e in events { try e.insert(db) }
            for d in distortions { try Store.upsert(d, in: db) }
            for g in generated { try g.upsert(db) }
            if let recalled {
                try db.execute(sql: "UPDATE session SET recalled = ? WHERE id = ?", arguments: [recalled, answer.sessionID])
            }
            if let coachDay { try Store.recordCoach(coach, session: answer.sessionID, day: coachDay, at: answer.answeredAt, in: db) }
            try Store.insertExposures(exposures, session: answer.sessionID, at: answer.answeredAt, in: db)
            // An edited answer's themes replace the earlier ones: the upsert
            // removed them (trigger `answer_theme_update`, migration v16),
            // and a first answer has none.
            if !themes.isEmpty {
                let insert = try db.cachedStatement(sql: "INSERT INTO answer_theme (session_id, step, theme) VALUES (?, ?, ?)")
                for theme in themes { try insert.execute(arguments: [answer.sessionID, answer.step, theme]) }
            }
            if let completion { try Store.complete(answer.sessionID, completion, in: db) }
            if activityDay != nil || !celebrations.isEmpty, let owner = try statements.owner(of: answer.sessionID, db) {
                let user = owner.user, flow = owner.flow
                if let day = activityDay {
                    var marks = ActivityMark.answer(answer.value, flow: flow, step: answer.step, day: day)
                    if completion != nil { marks.append(.completed(flow: flow, day: day)) }
                    try Store.markActivity(marks, user: user, in: db)
                }
                let insert = try db.cachedStatement(sql: """
                    INSERT OR IGNORE INTO celebration (session_id, user, step, item, tier, reason, pool, line_index, line, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for c in celebrations {
                    try insert.execute(arguments: [answer.sessionID, user, c.step, c.item ?? "", c.tier?.rawValue, c.reason, c.pool, c.lineIndex,
                                                   c.line, c.at])
                }
            }
        }
    }

    /// Going back: the step's answer becomes a draft.
    public func markDraft(session: String, step: StepID) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE answer SET state = ? WHERE session_id = ? AND step = ?",
                           arguments: [AnswerRecord.State.draft, session, step])
            try db.execute(sql: "DELETE FROM answer_theme WHERE session_id = ? AND step = ?", arguments: [session, step])
        }
    }

    public func recordDistortion(_ d: DistortionRecord) throws(StoreError) {
        try write { db in try Store.upsert(d, in: db) }
    }

    public func recordEvent(_ e: SessionEventRecord) throws(StoreError) {
        try write { db in try e.insert(db) }
    }

    /// Marks a session complete with its intensities, in one transaction:
    /// logs the session's mood for `moodDay` when the session has one and,
    /// with `activityDay`, marks the flow completed on that day (its
    /// showed-up day, step day and achievements, as the last answer's
    /// ``recordAnswer(_:safetyEvent:events:distortions:generated:themes:completion:coach:coachDay:exposures:activityDay:celebrations:recalled:)``
    /// does for a finish).
    public func completeSession(_ id: String, pre: Int?, post: Int?, at: String, moodDay: String?,
                                activityDay: CalendarDay? = nil) throws(StoreError) {
        try write { db in
            try Store.finish(id, SessionCompletion(pre: pre, post: post, at: at, moodDay: moodDay), activityDay: activityDay, in: db)
        }
    }

    /// Completes a session found at its end when it is resumed: every step
    /// answered, its end not recorded (stopped right after its last answer
    /// by a Reflect that recorded the end in a transaction of its own, or a
    /// flow that now ends sooner). Records exactly what the last answer's
    /// transaction records for a finish, as if it had: the end at that
    /// answer's time (`now` only for a session without answers), the
    /// intensities, the mood entry for `moodDay`, the experiment outcome,
    /// and the flow's completion on `activityDay` (streaks, achievements)
    /// when the session has an answer: a session without any logged
    /// nothing, and counts for no day (as import and migration v20 decide).
    public func completeAtLastAnswer(_ id: String, pre: Int?, post: Int?, now: String, moodDay: String?,
                                     activityDay: CalendarDay?) throws(StoreError) {
        try write { db in
            let last = try String.fetchOne(db, sql: """
                SELECT answered_at FROM answer WHERE session_id = ? AND state = ? ORDER BY position DESC LIMIT 1
                """, arguments: [id, AnswerRecord.State.answer])
            let answered = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM answer WHERE session_id = ?)", arguments: [id]) ?? false
            try Store.finish(id, SessionCompletion(pre: pre, post: post, at: last ?? now, moodDay: moodDay),
                             activityDay: answered ? activityDay : nil, in: db)
        }
    }

    /// The end of a session outside an answer's transaction: its
    /// completion and, with `activityDay`, the flow's completion mark.
    static func finish(_ id: String, _ c: SessionCompletion, activityDay: CalendarDay?, in db: Database) throws {
        try complete(id, c, in: db)
        guard let day = activityDay,
              let owner = try Row.fetchOne(db, sql: "SELECT user, flow_id FROM session WHERE id = ?", arguments: [id]) else { return }
        try markActivity([.completed(flow: owner["flow_id"], day: day)], user: owner["user"], in: db)
    }

    /// The answer's upsert: inserts the step's answer or replaces every
    /// column of the one stored (an edit; the triggers on `answer` then take
    /// it out of the search index and remove its themes).
    static let answerUpsertSQL = """
        INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety, options)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (session_id, step) DO UPDATE SET
            position = excluded.position, kind = excluded.kind, question = excluded.question,
            value = excluded.value, state = excluded.state, answered_at = excluded.answered_at,
            safety = excluded.safety, options = excluded.options
        """

    /// The answer's write through GRDB's statement arguments and one upsert:
    /// the general path, which `DirectStatementTests` holds the answer
    /// write's own statements (AnswerWrite.swift) to.
    static func upsertAnswerInFull(_ answer: AnswerRecord, in db: Database) throws {
        try db.cachedStatement(sql: answerUpsertSQL).execute(arguments: [
            answer.sessionID, answer.step, answer.position, answer.kind, answer.question, answer.value, answer.state,
            answer.answeredAt, answer.safety, answer.options.flatMap(StoredJSON.text),
        ])
    }

    // Explicit SQL with explicit keys: a table whose key differs from the
    // expected one (a newer schema, a foreign file) gives an SQLite error,
    // never a GRDB precondition failure that would stop the process.

    static func upsert(_ d: DistortionRecord, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO distortion (session_id, step, type, detected_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (session_id, step) DO UPDATE SET type = excluded.type, detected_at = excluded.detected_at
            """).execute(arguments: [d.sessionID, d.step, d.type, d.detectedAt])
    }

    static func complete(_ id: String, _ c: SessionCompletion, in db: Database) throws {
        guard let s = try SessionRecord.filter(SessionRecord.Columns.id == id).fetchOne(db) else { throw StoreError.sessionNotFound(id) }
        try db.execute(sql: "UPDATE session SET status = ?, completed_at = ?, pre = ?, post = ? WHERE id = ?",
                       arguments: [SessionRecord.Status.completed, c.at, c.pre, c.post, id])
        // The experiment report reads the outcome from the exposure rows.
        let change: Int? = if let pre = c.pre, let post = c.post { pre - post } else { nil }
        try db.execute(sql: "UPDATE experiment_exposure SET completed = 1, intensity_change = ? WHERE session_id = ?", arguments: [change, id])
        if let day = c.moodDay, let mood = s.mood {
            try MoodLog.record(MoodLogRequest(user: s.user, day: day, mood: mood, note: nil, source: .reflection,
                                              sessionID: id, at: c.at), in: db)
        }
    }

    // MARK: Reading

    /// Sets an unfinished session aside: its flow changed under it and the
    /// person chose to start anew. Its answers stay as they are (readable
    /// by `reflect show` and the export); it is no longer offered for
    /// resuming (``unfinishedSessions(user:flowID:)``).
    public func setAside(_ id: String, at: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE session SET set_aside_at = ? WHERE id = ? AND status = ? AND set_aside_at IS NULL",
                           arguments: [at, id, SessionRecord.Status.active])
            if db.changesCount == 0, try SessionRecord.filter(SessionRecord.Columns.id == id).fetchCount(db) == 0 {
                throw StoreError.sessionNotFound(id)
            }
        }
    }

    /// Unfinished sessions that can be resumed (not set aside), newest
    /// first (optionally of one flow).
    public func unfinishedSessions(user: String, flowID: String? = nil) throws(StoreError) -> [SessionRecord] {
        try read { db in
            typealias C = SessionRecord.Columns
            var q = SessionRecord.filter(C.user == user && C.status == SessionRecord.Status.active && C.setAsideAt == nil)
            if let flowID { q = q.filter(C.flowID == flowID) }
            return try q.order(C.startedAt.desc, C.id).fetchAll(db)
        }
    }

    public func recentSessions(user: String, limit: Int = 20) throws(StoreError) -> [SessionRecord] {
        try read { db in
            typealias C = SessionRecord.Columns
            return try SessionRecord.filter(C.user == user).order(C.startedAt.desc, C.id).limit(limit).fetchAll(db)
        }
    }

    /// The session whose id is `idOrPrefix`, or starts with it.
    public func resolveSession(_ idOrPrefix: String) throws(StoreError) -> String {
        try read { db in
            if try SessionRecord.filter(SessionRecord.Columns.id == idOrPrefix).fetchCount(db) > 0 { return idOrPrefix }
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
            guard let s = try SessionRecord.filter(SessionRecord.Columns.id == id).fetchOne(db) else { throw StoreError.sessionNotFound(id) }
            typealias A = AnswerRecord.Columns
            typealias D = DistortionRecord.Columns
            typealias E = SessionEventRecord.Columns
            typealias G = GeneratedTextRecord.Columns
            let answers = try AnswerRecord.filter(A.sessionID == id)
                .order(AnswerRecord.logOrder, A.position).fetchAll(db)
            let distortions = try DistortionRecord.filter(D.sessionID == id).order(D.step).fetchAll(db)
            let events = try SessionEventRecord.filter(E.sessionID == id).order(E.at, E.step).fetchAll(db)
            let generated = try GeneratedTextRecord.filter(G.sessionID == id).order(G.at, G.request).fetchAll(db)
            let exposed = try String.fetchAll(db, sql: "SELECT experiment FROM experiment_exposure WHERE session_id = ? ORDER BY id",
                                              arguments: [id])
            let celebrations = try Store.celebrationRows(sql: "WHERE session_id = ? ORDER BY id", arguments: [id], in: db)
            return SessionDetail(session: s, answers: answers, distortions: distortions, events: events, generated: generated,
                                 exposed: exposed, celebrations: celebrations)
        }
    }

    /// Number of answers (not drafts) stored for a session.
    public func answerCount(_ id: String) throws(StoreError) -> Int {
        try read { db in
            try AnswerRecord.filter(AnswerRecord.Columns.sessionID == id && AnswerRecord.Columns.state == AnswerRecord.State.answer).fetchCount(db)
        }
    }
}

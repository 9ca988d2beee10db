import GRDB
import ReflectCore

// The days stored rows count for, derived again from the rows themselves
// (migration v20). Migration v8 made the showed-up and step days but
// derived none from what was already stored: sessions, mood entries, prep
// marks and craving notes from before it never counted for a streak or an
// achievement. Every later write marks its days as it is made
// (``Store/markActivity(_:user:in:)``), so the marks derived here for rows
// written since are already there, and adding them again adds nothing.

extension Store {
    /// Marks, for every person, the days their stored rows count for,
    /// exactly as the live writes mark them:
    /// - a session's answers (drafts too: going back keeps an answer's
    ///   marks; not a skipped step) on the session's day
    ///   (``sessionDay(facts:clock:)``), `saved` and, for a Yes or a
    ///   checklist with a Done, `positive`; and its completion when it is
    ///   complete. A session without answers marks nothing: a live
    ///   completion is recorded with the last answer (a simulated
    ///   experiment's session has none);
    /// - a mood entry (`logged` `mood`), a day's prep marks (`prep`) and a
    ///   craving note (`craving`), on their days.
    /// Then records what the added days earned (``markActivity(_:user:in:)``).
    /// `layout`: `.beforeV21` only for v20 itself, where the showed-up and
    /// step days have no running figures yet (v21 computes them) and step
    /// days are keyed by their set's texts (v24 gives sets ids).
    static func markStoredActivity(in db: Database, layout: DayLayout = .current) throws {
        struct Owner {
            var user: String
            var flow: String
            var day: CalendarDay?
            var completed: Bool
        }
        var activity: [String: Set<ActivityMark>] = [:]
        var sessions: [String: Owner] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, user, flow_id, status, facts, clock FROM session s WHERE EXISTS (SELECT 1 FROM answer WHERE session_id = s.id)
            """)
        while let row = try rows.next() {
            sessions[row["id"]] = Owner(user: row["user"], flow: row["flow_id"], day: sessionDay(facts: row["facts"], clock: row["clock"]),
                                        completed: (row["status"] as String?) == SessionRecord.Status.completed.rawValue)
        }
        for (_, s) in sessions where s.completed {
            if let day = s.day { activity[s.user, default: []].insert(.completed(flow: s.flow, day: day)) }
        }
        let answers = try Row.fetchCursor(db, sql: "SELECT session_id, step, value FROM answer")
        while let row = try answers.next() {
            // A value this version cannot read marks nothing (never guessed at).
            guard let s = sessions[row["session_id"]], let day = s.day, let step = StepID.fromDatabaseValue(row["step"] as DatabaseValue),
                  let value = AnswerValue.fromDatabaseValue(row["value"] as DatabaseValue) else { continue }
            activity[s.user, default: []].formUnion(ActivityMark.answer(value, flow: s.flow, step: step, day: day))
        }
        for (what, sql) in [("mood", "SELECT user, day FROM mood_entry"), ("prep", "SELECT DISTINCT user, day FROM prep_mark"),
                            ("craving", "SELECT user, day FROM craving_note")] {
            let logged = try Row.fetchCursor(db, sql: sql)
            while let row = try logged.next() {
                guard let text = row["day"] as String?, let day = CalendarDay(text) else { continue }
                activity[row["user"], default: []].insert(.logged(what, day: day))
            }
        }
        for user in activity.keys.sorted() {
            let marks = activity[user, default: []].sorted {
                ($0.day, $0.flow, $0.step, $0.kind.rawValue) < ($1.day, $1.flow, $1.step, $1.kind.rawValue)
            }
            try markActivity(marks, user: user, layout: layout, in: db)
        }
    }
}

import Foundation
import GRDB
import ReflectCore

// The journal's view of the store: sessions as `JournalEntry`s (answers,
// themes, distortions) on the person's logical days, the mood log and the
// craving notes, for `reflect insights` and `reflect letter`.

extension Store {
    /// A person's sessions as journal entries, each on the logical day its
    /// clock falls on under `rules`. Drafts are left out; a session whose
    /// clock cannot be read is skipped (the export reports such rows).
    public func journalEntries(user: String, rules: DayRules) throws(StoreError) -> [JournalEntry] {
        try read { db in
            var entries: [String: JournalEntry] = [:]
            for s in try SessionRecord.filter(SessionRecord.Columns.user == user).fetchAll(db) {
                guard let clock = FlowClock(iso8601: s.clock) else { continue }
                entries[s.id] = JournalEntry(sessionID: s.id, flow: s.flowID, day: rules.moment(clock).day, startedAt: s.startedAt,
                                             completed: s.status == .completed, pre: s.pre, post: s.post)
            }
            let answers = try Row.fetchCursor(db, sql: """
                SELECT a.session_id, a.step, a.value FROM answer a JOIN session s ON s.id = a.session_id
                WHERE s.user = ? AND a.state = 'answer'
                """, arguments: [user])
            while let row = try answers.next() {
                let id: String = row["session_id"]
                guard entries[id] != nil, let step = StepID.fromDatabaseValue(row["step"]),
                      let value = AnswerValue.fromDatabaseValue(row["value"]) else { continue }
                entries[id]?.answers[step] = value
            }
            let themes = try Row.fetchCursor(db, sql: """
                SELECT t.session_id, t.step, t.theme FROM answer_theme t JOIN session s ON s.id = t.session_id
                WHERE s.user = ? ORDER BY t.session_id, t.step, t.theme
                """, arguments: [user])
            while let row = try themes.next() {
                let id: String = row["session_id"]
                guard entries[id] != nil, let step = StepID.fromDatabaseValue(row["step"]),
                      let theme = Theme.fromDatabaseValue(row["theme"]) else { continue }
                entries[id]?.themes[step, default: []].append(theme)
            }
            let distortions = try Row.fetchCursor(db, sql: """
                SELECT d.session_id, d.type FROM distortion d JOIN session s ON s.id = d.session_id
                WHERE s.user = ? ORDER BY d.session_id, d.step
                """, arguments: [user])
            while let row = try distortions.next() {
                let id: String = row["session_id"]
                guard entries[id] != nil, let type = DistortionType.fromDatabaseValue(row["type"]) else { continue }
                entries[id]?.distortions.append(type)
            }
            return entries.values.map { e in
                var e = e
                e.themes = e.themes.mapValues { $0.sorted() }
                return e
            }.sorted { ($0.day, $0.startedAt, $0.sessionID) < ($1.day, $1.startedAt, $1.sessionID) }
        }
    }

    /// A person's 5-point mood log, with the notes written with it.
    public func moodDays(user: String) throws(StoreError) -> [MoodDay] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT day, mood, note FROM mood_entry WHERE user = ? ORDER BY day", arguments: [user]).compactMap { row in
                guard let text = row["day"] as String?, let day = CalendarDay(text), let mood = Mood.fromDatabaseValue(row["mood"]) else { return nil }
                return MoodDay(day: day, mood: mood, note: row["note"] as String?)
            }
        }
    }

    /// A person's craving notes: day and type.
    public func cravingDays(user: String) throws(StoreError) -> [CravingDay] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT day, type FROM craving_note WHERE user = ? ORDER BY day, at", arguments: [user]).compactMap { row in
                guard let text = row["day"] as String?, let day = CalendarDay(text), let type = row["type"] as String? else { return nil }
                return CravingDay(day: day, type: type)
            }
        }
    }
}

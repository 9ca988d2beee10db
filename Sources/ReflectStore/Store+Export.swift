import Foundation
import GRDB
import ReflectCore

/// What an import did.
public struct ImportReport: Sendable, Equatable {
    public var sessionsAdded = 0
    public var sessionsAlreadyPresent = 0
    public var moodEntriesAdded = 0
    public var moodEntriesAlreadyPresent = 0
    /// Coach rows (settings, prep items and marks, craving notes).
    public var coachRowsAdded = 0
    public var coachRowsAlreadyPresent = 0
    public var exposuresAdded = 0
    public var chatMessagesAdded = 0
    public var chatMessagesAlreadyPresent = 0
}

// The export reads answers, distortions, events and generated texts straight from their rows,
// keeping closed-set values as stored text (see `Store.export(at:)`).
extension ExportedAnswer: FetchableRecord {}
extension ExportedDistortion: FetchableRecord {}
extension ExportedEvent: FetchableRecord {}
extension ExportedGeneratedText: FetchableRecord {}
extension ExportedTheme: FetchableRecord {}
extension ExportedMoodEntry: FetchableRecord {}

extension Store {
    /// Everything in the database, as a document.
    ///
    /// Each row is read on its own: a row that cannot be read (a value that
    /// does not decode, a column of the wrong type) is left out and named
    /// in ``ExportDocument/problems``, and the rest is exported. Values are
    /// exported exactly as stored, known or not.
    public func export(at now: String) throws(StoreError) -> ExportDocument {
        try read { db in
            var problems: [String] = []
            var out: [ExportedSession] = []
            let sessions = try Row.fetchAll(db, sql: "SELECT * FROM session ORDER BY started_at, id")
            // One query per table, rows grouped by session in the order the
            // export lists them. Each child row is read as stored
            // (``ExportedAnswer`` etc. keep closed-set values as text), then
            // as a typed record: a value this version does not know is
            // reported, and kept. Problems are kept with their session so
            // that they read in session order.
            struct Group<T> {
                var rows: [T] = []
                var problems: [String] = []
            }
            func readRows<T: FetchableRecord, Typed: FetchableRecord>(_ request: SQLRequest<Row>, as _: Typed.Type,
                                                                      _ what: (Row) -> String) throws -> [String: Group<T>] {
                var groups: [String: Group<T>] = [:]
                let cursor = try Row.fetchCursor(db, request)
                while let row = try cursor.next() {
                    let stored: DatabaseValue = row["session_id"]
                    let id = String.fromDatabaseValue(stored) ?? stored.description
                    do {
                        groups[id, default: Group()].rows.append(try T(row: row))
                    } catch {
                        groups[id, default: Group()].problems.append("session \(id): \(what(row)): cannot be read (\(Store.reason(error))); left out")
                        continue
                    }
                    do { _ = try Typed(row: row) } catch {
                        groups[id, default: Group()].problems.append(
                            "session \(id): \(what(row)): a value this version does not know (\(Store.reason(error))); exported as stored")
                    }
                }
                return groups
            }
            let answers: [String: Group<ExportedAnswer>] = try readRows(
                "SELECT * FROM answer ORDER BY session_id, \(AnswerRecord.logOrder), position, step", as: AnswerRecord.self) {
                    "answer \(Store.label($0["step"]))" }
            let distortions: [String: Group<ExportedDistortion>] = try readRows(
                "SELECT * FROM distortion ORDER BY session_id, step", as: DistortionRecord.self) { "distortion of \(Store.label($0["step"]))" }
            let events: [String: Group<ExportedEvent>] = try readRows(
                "SELECT * FROM session_event ORDER BY session_id, id", as: SessionEventRecord.self) { "event \(Store.label($0["id"]))" }
            let generated: [String: Group<ExportedGeneratedText>] = try readRows(
                "SELECT * FROM generated_text ORDER BY session_id, at, request", as: GeneratedTextRecord.self) {
                    "generated text \(Store.label($0["request"]))" }
            let themes: [String: Group<ExportedTheme>] = try readRows(
                "SELECT * FROM answer_theme ORDER BY session_id, step, theme", as: AnswerThemeRecord.self) {
                    "theme of \(Store.label($0["step"]))" }
            for row in sessions {
                guard var exported = Store.exportedSession(row, problems: &problems) else { continue }
                let id = exported.id
                exported.answers = answers[id]?.rows ?? []
                problems += answers[id]?.problems ?? []
                exported.distortions = distortions[id]?.rows ?? []
                problems += distortions[id]?.problems ?? []
                exported.events = events[id]?.rows ?? []
                problems += events[id]?.problems ?? []
                exported.generated = generated[id]?.rows ?? []
                problems += generated[id]?.problems ?? []
                if let json = row["recalled"] as String? {
                    if let decoded = try? JSONDecoder().decode([RecalledEntries].self, from: Data(json.utf8)) {
                        exported.recalled = decoded.isEmpty ? nil : decoded
                    } else {
                        problems.append("session \(id): its related entries cannot be read; left out")
                    }
                }
                if let json = row["variants"] as String?, let data = json.data(using: .utf8) {
                    if let decoded = try? JSONDecoder().decode([VariantAssignment].self, from: data) {
                        exported.variants = decoded.isEmpty ? nil : decoded
                    } else {
                        problems.append("session \(id): its experiment arms cannot be read; left out")
                    }
                }
                exported.themes = themes[id]?.rows ?? []
                problems += themes[id]?.problems ?? []
                out.append(exported)
            }
            let exposures = try Row.fetchAll(db, sql: "SELECT * FROM experiment_exposure ORDER BY at, id").map { r in
                ExportedExposure(user: r["user"], experiment: r["experiment"], variant: r["variant"], sessionID: r["session_id"], at: r["at"])
            }
            let assignments = try Row.fetchAll(db, sql: "SELECT * FROM experiment_assignment ORDER BY user, experiment, bucket_version").map { r in
                ExportedAssignment(user: r["user"], experiment: r["experiment"], bucketVersion: r["bucket_version"], variant: r["variant"],
                                   assignedAt: r["assigned_at"], seed: r["seed"])
            }
            // As stored, like the sessions' child rows: a mood this version
            // does not know is exported as it is, with a problem saying so.
            var moods: [ExportedMoodEntry] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM mood_entry ORDER BY user, day") {
                let what = "mood entry \(Store.label(row["user"]))/\(Store.label(row["day"]))"
                do { moods.append(try ExportedMoodEntry(row: row)) } catch {
                    problems.append("\(what): cannot be read (\(Store.reason(error))); left out")
                    continue
                }
                do { _ = try MoodEntryRecord(row: row) } catch {
                    problems.append("\(what): a value this version does not know (\(Store.reason(error))); exported as stored")
                }
            }
            var chat: [ExportedChatMessage] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM chat_message ORDER BY user, at, chat_id, position") {
                guard let chatID: String = row["chat_id"], let position: Int = row["position"], let user: String = row["user"],
                      let role: String = row["role"], let mode: String = row["mode"], let text: String = row["text"],
                      let generated: Bool = row["generated"], let at: String = row["at"] else {
                    problems.append("chat message \(Store.label(row["id"])): cannot be read; left out")
                    continue
                }
                chat.append(ExportedChatMessage(chatID: chatID, position: position, user: user, role: role, mode: mode, text: text,
                                                generated: generated, safety: row["safety"], at: at))
            }
            let coach = try Store.exportCoach(db, problems: &problems)
            let progress = try Store.exportedProgress(in: db, problems: &problems)
            var document = ExportDocument(exportedAt: now, sessions: out, moodEntries: moods, coach: coach, progress: progress, problems: problems,
                                          experimentExposures: exposures, experimentAssignments: assignments)
            document.chatMessages = chat.isEmpty ? nil : chat
            let personalization = try Store.exportedPersonalization(in: db)
            document.personalization = personalization.isEmpty ? nil : personalization
            return document
        }
    }

    /// A session row as exported, without its answers, distortions and
    /// events; nil (and a problem) when it cannot be read.
    ///
    /// The export keeps values as stored (docs/storage.md), but
    /// ``SessionRecord/mood`` is a ``Mood``: a mood this version does not
    /// know (a foreign or newer file) does not decode. Only here, at the
    /// export boundary, such a row is read again without its mood, and the
    /// stored text is exported as it is, with a problem saying so.
    static func exportedSession(_ row: Row, problems: inout [String]) -> ExportedSession? {
        let s: SessionRecord
        var storedMood: String?
        do {
            s = try SessionRecord(row: row)
            storedMood = s.mood?.rawValue
        } catch {
            let column = SessionRecord.CodingKeys.mood.stringValue
            let rawMood: String? = row[column]
            var columns = Dictionary(row.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
            columns[column] = DatabaseValue.null
            guard let rawMood, let withoutMood = try? SessionRecord(row: Row(columns)) else {
                problems.append("session \(Store.label(row["id"])): cannot be read (\(Store.reason(error))); left out")
                return nil
            }
            problems.append("session \(withoutMood.id): a value this version does not know (\(Store.reason(error))); exported as stored")
            s = withoutMood
            storedMood = rawMood
        }
        return ExportedSession(
            id: s.id, flowID: s.flowID, flowVersion: s.flowVersion, locale: s.locale, personality: s.personality,
            user: s.user, mood: storedMood, seed: s.seedValue, clock: s.clock, startedAt: s.startedAt, completedAt: s.completedAt,
            status: s.status, pre: s.pre, post: s.post, answers: [], distortions: [], events: [], facts: s.facts)
            .settingAside(s.setAsideAt)
    }

    /// Why a row cannot be read, for a problem report: GRDB's message
    /// (`could not decode Mood from database value "ecstatic" - column:
    /// "mood", …`) without the dump of the whole row and the SQL that it
    /// appends, which would repeat the person's text at length.
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        for marker in [", row: [", " - row: ["] {
            if let r = text.range(of: marker) { return String(text[..<r.lowerBound]) }
        }
        return String(text.prefix(200))
    }

    /// A stored value, shown in a problem report whatever its type.
    static func label(_ value: DatabaseValue?) -> String {
        guard let value else { return "?" }
        switch value.storage {
        case .string(let s): return "'\(s.prefix(64))'"
        case .null: return "NULL"
        default: return "\(value)"
        }
    }

    /// Imports a validated document in one transaction. Sessions already
    /// present (same id) and mood entries already present (same person and
    /// day) are left as they are, so importing a file twice adds nothing.
    ///
    /// What it adds counts for the days it happened, as if the person had
    /// used the app then: each added session's answers (drafts too; not a
    /// skipped step) and completion,
    /// each added prep mark and craving note, each added mood entry mark
    /// their days (``markActivity(_:user:in:)``, the one write path live
    /// actions take), whether or not the file has a `progress` section.
    public func importDocument(_ doc: ExportDocument) throws(StoreError) -> ImportReport {
        try doc.validate()
        return try write { db in
            var report = ImportReport()
            // The days the added rows count for, per person (marked once all
            // rows, and any achievement reset the file holds, are in).
            var activity: [String: Set<ActivityMark>] = [:]
            // Statements run per session or per answer are prepared once.
            let present = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM session WHERE id = ?)")
            let insertAnswer = try db.cachedStatement(sql: """
                INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety, options)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (i, s) in doc.sessions.enumerated() {
                if try Bool.fetchOne(present, arguments: [s.id]) == true {
                    report.sessionsAlreadyPresent += 1
                    continue
                }
                // `validate()` checked every closed-set value: none is unknown here.
                try SessionRecord(id: s.id, flowID: s.flowID, flowVersion: s.flowVersion, locale: s.locale, personality: s.personality,
                                  user: s.user, mood: s.mood.flatMap(Mood.init(rawValue:)), seed: s.seed, clock: s.clock, startedAt: s.startedAt,
                                  completedAt: s.completedAt, status: s.status, pre: s.pre, post: s.post, facts: s.facts,
                                  variants: s.variants.flatMap(StoredJSON.text),
                                  setAsideAt: s.setAsideAt,
                                  recalled: s.recalled.flatMap(StoredJSON.text))
                    .insert(db)
                try Store.markReturn(user: s.user, session: s.id, startedAt: s.startedAt, in: db)
                for (j, a) in s.answers.enumerated() {
                    guard let kind = PromptKind(rawValue: a.kind) else { throw StoreError.invalidImport(record: "sessions[\(i)]", field: "answers[\(j)].kind", reason: "unknown kind") }
                    // The options as shown, JSON (only choices and checklists have them).
                    let options = a.options.flatMap(StoredJSON.text)
                    try insertAnswer.execute(arguments: [s.id, a.step, a.position, kind, a.question, a.value, a.state, a.answeredAt,
                                                         a.safety.flatMap(SafetyCategory.init(rawValue:)), options])
                }
                try Store.indexAnswers(session: s.id, in: db)
                for (j, d) in s.distortions.enumerated() {
                    guard let type = DistortionType(rawValue: d.type) else { throw StoreError.invalidImport(record: "sessions[\(i)]", field: "distortions[\(j)].type", reason: "unknown distortion") }
                    try DistortionRecord(sessionID: s.id, step: d.step, type: type, detectedAt: d.detectedAt).insert(db)
                }
                for e in s.events {
                    try SessionEventRecord(sessionID: s.id, kind: e.kind, step: e.step, category: e.category.flatMap(SafetyCategory.init(rawValue:)),
                                           at: e.at).insert(db)
                }
                for g in s.generated {
                    try GeneratedTextRecord(sessionID: s.id, request: g.request, text: g.text, generated: g.generated,
                                            basis: g.basis, at: g.at).insert(db)
                }
                for t in s.themes {
                    // `validate()` checked every theme is known.
                    guard let theme = Theme(rawValue: t.theme) else { continue }
                    try AnswerThemeRecord(sessionID: s.id, step: t.step, theme: theme).insert(db)
                }
                if let day = Store.sessionDay(facts: s.facts, clock: s.clock) {
                    // A draft was answered then too (going back keeps its
                    // mark, live): every answer but a skipped step counts.
                    var marks = s.answers.flatMap { ActivityMark.answer($0.value, flow: s.flowID, step: $0.step, day: day) }
                    // A completion is recorded with the last answer, live: a
                    // session without answers logged nothing, and counts for
                    // no day (as migration v20 and a resume at the end decide).
                    if s.status == .completed && !s.answers.isEmpty { marks.append(.completed(flow: s.flowID, day: day)) }
                    activity[s.user, default: []].formUnion(marks)
                }
                report.sessionsAdded += 1
            }
            // Experiment rows: ones already present are kept (unique keys).
            for e in doc.experimentExposures ?? [] {
                let known = try e.sessionID.map { try SessionRecord.filter(SessionRecord.Columns.id == $0).fetchCount(db) > 0 } ?? true
                // A row whose session is gone has no unique key to stop a second import: look for it.
                try db.execute(sql: """
                    INSERT OR IGNORE INTO experiment_exposure (user, experiment, variant, session_id, at, completed, intensity_change)
                    SELECT ?, ?, ?, s.id, ?, COALESCE(s.status = 'completed', 0),
                           CASE WHEN s.status = 'completed' AND s.pre IS NOT NULL AND s.post IS NOT NULL THEN s.pre - s.post END
                    FROM (SELECT 1) LEFT JOIN session s ON s.id = ?
                    WHERE NOT EXISTS (SELECT 1 FROM experiment_exposure
                        WHERE user = ? AND experiment = ? AND variant = ? AND session_id IS ? AND at = ?)
                    """, arguments: [e.user, e.experiment, e.variant, e.at, known ? e.sessionID : nil,
                                     e.user, e.experiment, e.variant, known ? e.sessionID : nil, e.at])
                report.exposuresAdded += db.changesCount
            }
            // "Came back" for the imported exposures (the sessions are all in by now).
            if !(doc.experimentExposures ?? []).isEmpty {
                try db.execute(sql: """
                    UPDATE experiment_exposure SET returned = 1 WHERE returned = 0 AND \(Store.cameBackSQL(
                        user: "experiment_exposure.user", session: "experiment_exposure.session_id", at: "experiment_exposure.at"))
                    """)
            }
            for a in doc.experimentAssignments ?? [] {
                try db.execute(sql: "INSERT OR IGNORE INTO experiment_assignment (user, experiment, bucket_version, variant, assigned_at, seed) "
                               + "VALUES (?, ?, ?, ?, ?, ?)", arguments: [a.user, a.experiment, a.bucketVersion, a.variant, a.assignedAt, a.seed])
            }
            if let progress = doc.progress { try Store.importProgress(progress, in: db) }
            for (i, m) in doc.moodEntries.enumerated() {
                guard let mood = Mood(rawValue: m.mood) else {
                    throw StoreError.invalidImport(record: "mood_entries[\(i)]", field: "mood", reason: "unknown mood '\(m.mood)'")
                }
                let changed = try MoodLog.record(MoodLogRequest(user: m.user, day: m.day, mood: mood, note: m.note, source: m.source,
                                                                sessionID: m.sessionID, at: m.createdAt, conflict: .keepExisting), in: db).changed
                if changed {
                    // Keep the entry's own history, not the import time.
                    try db.execute(sql: "UPDATE mood_entry SET updated_at = ? WHERE user = ? AND day = ?",
                                   arguments: [m.updatedAt, m.user, m.day])
                    report.moodEntriesAdded += 1
                } else {
                    report.moodEntriesAlreadyPresent += 1
                }
            }
            for (user, marks) in try Store.importCoach(doc.coach, in: db, report: &report) {
                activity[user, default: []].formUnion(marks)
            }
            for user in activity.keys.sorted() {
                let marks = activity[user, default: []].sorted {
                    ($0.day, $0.flow, $0.step, $0.kind.rawValue) < ($1.day, $1.flow, $1.step, $1.kind.rawValue)
                }
                try Store.markActivity(marks, user: user, in: db)
            }
            for c in doc.chatMessages ?? [] {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO chat_message (chat_id, position, user, role, mode, text, generated, safety, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [c.chatID, c.position, c.user, c.role, c.mode, c.text, c.generated, c.safety, c.at])
                if db.changesCount > 0 { report.chatMessagesAdded += 1 } else { report.chatMessagesAlreadyPresent += 1 }
            }
            // A person's choices already here are theirs: kept; ratings add what is missing.
            for c in doc.personalization?.choices ?? [] {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO personalization_profile (user, tone, response_length, preferred_actions, avoid_topics, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [c.user, c.tone, c.responseLength, Store.themeList(c.preferredActions.compactMap(Theme.init(rawValue:))),
                                     Store.themeList(c.avoidTopics.compactMap(Theme.init(rawValue:))), c.updatedAt])
            }
            for r in doc.personalization?.ratings ?? [] {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO reply_rating (user, target, target_id, rating, length, themes, action, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [r.user, r.target, r.targetID, r.rating, r.length, Store.themeList(r.themes.compactMap(Theme.init(rawValue:))),
                                     Store.themeList(r.actionThemes.compactMap(Theme.init(rawValue:))), r.at])
            }
            return report
        }
    }

    /// The person's day a stored session counts for: ``sessionDay(factsDay:clock:)``
    /// of its facts snapshot's day.
    static func sessionDay(facts: String?, clock: String) -> CalendarDay? {
        // Only the snapshot's day is read, not the whole facts (earlier
        // answers, prep items, progress): the same day `UserFacts` decodes
        // (`day` is an optional string there too), at a fraction of the cost.
        let day = facts.flatMap { try? JSONDecoder().decode(FactsDay.self, from: Data($0.utf8)) }?.day
        return sessionDay(factsDay: day, clock: clock)
    }

    /// The person's day a session counts for, whichever way it is stored
    /// (live, imported, derived again by migration v20): its facts
    /// snapshot's day (the logical day, after the day boundary) when that
    /// reads as a day, else the local date of its clock; nil when neither
    /// reads. A snapshot whose day does not read (a file edited by hand, a
    /// foreign export) never leaves the session's answers counting for no
    /// day, and never for another day on one path than on another.
    public static func sessionDay(factsDay: String?, clock: String) -> CalendarDay? {
        if let day = factsDay.flatMap(CalendarDay.init) { return day }
        guard let local = FlowClock(iso8601: clock)?.local else { return nil }
        return CalendarDay(year: local.year, month: local.month, day: local.day)
    }

    /// The one field of a stored ``UserFacts`` snapshot ``sessionDay(facts:clock:)`` reads.
    private struct FactsDay: Decodable {
        var day: String?
    }

    /// What ``deleteAll()`` would remove, counted: sessions, their answers,
    /// mood entries, and every other row of ``Migrations/tables``.
    public struct Contents: Sendable, Equatable {
        public var sessions = 0
        public var answers = 0
        public var moodEntries = 0
        public var otherRows = 0
    }

    /// Counts what is stored, for every person (read-only).
    public func contents() throws(StoreError) -> Contents {
        try read { db in
            var c = Contents()
            // (`day_set` names the step days' sets: no record of its own.)
            for table in Migrations.tables.sorted() where table != "day_set" {
                let n = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
                switch table {
                case "session": c.sessions = n
                case "answer": c.answers = n
                case "mood_entry": c.moodEntries = n
                default: c.otherRows += n
                }
            }
            return c
        }
    }

    /// Removes every row of every table the migrations create
    /// (``Migrations/tables``), in one transaction: a table added by a new
    /// migration is covered without being named here.
    /// Refused with ``StoreError/sessionOpenElsewhere(session:holder:)``
    /// while a session is open in any process (``SessionLease``): its next
    /// answer would have nowhere to go.
    public func deleteAll() throws(StoreError) {
        try SessionLease.withNoSessionOpen(databasePath: path) { () throws(StoreError) in try deleteAllRows() }
    }

    private func deleteAllRows() throws(StoreError) {
        try write { db in
            // Children and parents in any order: foreign keys are checked at commit.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            for table in Migrations.tables.sorted() where !Migrations.searchIndexes.contains(table) {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            // An external-content FTS5 index is emptied with its own
            // command (its rows were removed with entry_text's already;
            // this also resets what FTS5 keeps in its shadow tables).
            for index in Migrations.searchIndexes.sorted() {
                try db.execute(sql: "INSERT INTO \(index) (\(index)) VALUES ('delete-all')")
            }
        }
        try? writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }
}

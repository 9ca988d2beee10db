import Foundation
import GRDB
import ReflectCore

/// What an import did.
public struct ImportReport: Sendable, Equatable {
    public var sessionsAdded = 0
    public var sessionsAlreadyPresent = 0
    public var moodEntriesAdded = 0
    public var moodEntriesAlreadyPresent = 0
}

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
            for row in sessions {
                let s: SessionRecord
                do { s = try SessionRecord(row: row) } catch {
                    problems.append("session \(Store.label(row["id"])): cannot be read (\(error)); left out")
                    continue
                }
                func readRows<T: FetchableRecord>(_ sql: String, _ what: (Row) -> String) throws -> [T] {
                    try Row.fetchAll(db, sql: sql, arguments: [s.id]).compactMap { row in
                        do { return try T(row: row) } catch {
                            problems.append("session \(s.id): \(what(row)): cannot be read (\(error)); left out")
                            return nil
                        }
                    }
                }
                let answers: [AnswerRecord] = try readRows(
                    "SELECT * FROM answer WHERE session_id = ? ORDER BY CASE state WHEN 'answer' THEN 0 ELSE 1 END, position, step") {
                        "answer \(Store.label($0["step"]))" }
                let distortions: [DistortionRecord] = try readRows("SELECT * FROM distortion WHERE session_id = ? ORDER BY step") {
                    "distortion of \(Store.label($0["step"]))" }
                let events: [SessionEventRecord] = try readRows("SELECT * FROM session_event WHERE session_id = ? ORDER BY id") {
                    "event \(Store.label($0["id"]))" }
                var exported = ExportedSession(
                    id: s.id, flowID: s.flowID, flowVersion: s.flowVersion, locale: s.locale, personality: s.personality,
                    user: s.user, mood: s.mood, seed: s.seedValue, clock: s.clock, startedAt: s.startedAt, completedAt: s.completedAt,
                    status: s.status, pre: s.pre, post: s.post, answers: [], distortions: [], events: [])
                for a in answers {
                    guard let step = StepID(a.step), let value = try? JSONDecoder().decode(AnswerValue.self, from: Data(a.value.utf8)) else {
                        problems.append("session \(s.id): answer '\(a.step.prefix(64))': stored answer cannot be read (\(a.value.prefix(80))); left out")
                        continue
                    }
                    exported.answers.append(ExportedAnswer(step: step, position: a.position, kind: a.kind, question: a.question, value: value,
                                                           state: a.state, answeredAt: a.answeredAt, safety: a.safety))
                }
                for d in distortions {
                    guard let step = StepID(d.step) else {
                        problems.append("session \(s.id): distortion of '\(d.step.prefix(64))': invalid step id; left out")
                        continue
                    }
                    exported.distortions.append(ExportedDistortion(step: step, type: d.type, detectedAt: d.detectedAt))
                }
                for e in events {
                    guard let step = StepID(e.step) else {
                        problems.append("session \(s.id): event at '\(e.step.prefix(64))': invalid step id; left out")
                        continue
                    }
                    exported.events.append(ExportedEvent(kind: e.kind, step: step, category: e.category, at: e.at))
                }
                out.append(exported)
            }
            var moods: [ExportedMoodEntry] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM mood_entry ORDER BY user, day") {
                do {
                    let m = try MoodEntryRecord(row: row)
                    moods.append(ExportedMoodEntry(user: m.user, day: m.day, mood: m.mood, note: m.note, source: m.source,
                                                   sessionID: m.sessionID, createdAt: m.createdAt, updatedAt: m.updatedAt))
                } catch {
                    problems.append("mood entry \(Store.label(row["user"]))/\(Store.label(row["day"])): cannot be read (\(error)); left out")
                }
            }
            return ExportDocument(exportedAt: now, sessions: out, moodEntries: moods, problems: problems)
        }
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
    public func importDocument(_ doc: ExportDocument) throws(StoreError) -> ImportReport {
        try doc.validate()
        return try write { db in
            var report = ImportReport()
            for s in doc.sessions {
                if try SessionRecord.filter(Column("id") == s.id).fetchCount(db) > 0 {
                    report.sessionsAlreadyPresent += 1
                    continue
                }
                try SessionRecord(id: s.id, flowID: s.flowID, flowVersion: s.flowVersion, locale: s.locale, personality: s.personality,
                                  user: s.user, mood: s.mood, seed: s.seed, clock: s.clock, startedAt: s.startedAt,
                                  completedAt: s.completedAt, status: s.status, pre: s.pre, post: s.post).insert(db)
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                for a in s.answers {
                    try AnswerRecord(sessionID: s.id, step: a.step.rawValue, position: a.position, kind: a.kind,
                                     question: a.question, value: String(decoding: try encoder.encode(a.value), as: UTF8.self),
                                     state: a.state, answeredAt: a.answeredAt, safety: a.safety).insert(db)
                }
                for d in s.distortions {
                    try DistortionRecord(sessionID: s.id, step: d.step.rawValue, type: d.type, detectedAt: d.detectedAt).insert(db)
                }
                for e in s.events {
                    try SessionEventRecord(sessionID: s.id, kind: e.kind, step: e.step.rawValue, category: e.category, at: e.at).insert(db)
                }
                report.sessionsAdded += 1
            }
            for (i, m) in doc.moodEntries.enumerated() {
                guard let mood = Mood(rawValue: m.mood) else {
                    throw StoreError.invalidImport(record: "mood_entries[\(i)]", field: "mood", reason: "unknown mood '\(m.mood)'")
                }
                let (_, changed) = try MoodLog.record(MoodLogRequest(user: m.user, day: m.day, mood: mood, note: m.note, source: m.source,
                                                                     sessionID: m.sessionID, at: m.createdAt, conflict: .keepExisting), in: db)
                if changed {
                    // Keep the entry's own history, not the import time.
                    try db.execute(sql: "UPDATE mood_entry SET updated_at = ? WHERE user = ? AND day = ?",
                                   arguments: [m.updatedAt, m.user, m.day])
                    report.moodEntriesAdded += 1
                } else {
                    report.moodEntriesAlreadyPresent += 1
                }
            }
            return report
        }
    }

    /// Removes every row of every table, in one transaction.
    public func deleteAll() throws(StoreError) {
        try write { db in
            for table in ["session_event", "distortion", "answer", "celebration", "experiment_exposure", "session", "mood_entry", "achievement"] {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
        try? writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }
}

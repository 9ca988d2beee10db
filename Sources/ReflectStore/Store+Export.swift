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
    public func export(at now: String) throws(StoreError) -> ExportDocument {
        try read { db in
            let sessions = try SessionRecord.order(Column("started_at"), Column("id")).fetchAll(db)
            var out: [ExportedSession] = []
            for s in sessions {
                let answers = try AnswerRecord.filter(Column("session_id") == s.id)
                    .order(sql: "CASE state WHEN 'answer' THEN 0 ELSE 1 END, position, step").fetchAll(db)
                let distortions = try DistortionRecord.filter(Column("session_id") == s.id).order(Column("step")).fetchAll(db)
                let events = try SessionEventRecord.filter(Column("session_id") == s.id).order(Column("id")).fetchAll(db)
                out.append(ExportedSession(
                    id: s.id, flowID: s.flowID, flowVersion: s.flowVersion, locale: s.locale, personality: s.personality,
                    user: s.user, mood: s.mood.flatMap(Mood.init(rawValue:)), seed: s.seedValue, clock: s.clock,
                    startedAt: s.startedAt, completedAt: s.completedAt, status: s.status, pre: s.pre, post: s.post,
                    answers: try answers.map { a in
                        ExportedAnswer(step: try Store.step(a.step), position: a.position, kind: PromptKind(rawValue: a.kind) ?? .text,
                                       question: a.question, value: try JSONDecoder().decode(AnswerValue.self, from: Data(a.value.utf8)),
                                       state: a.state, answeredAt: a.answeredAt, safety: a.safety.flatMap(SafetyCategory.init(rawValue:)))
                    },
                    distortions: try distortions.map {
                        ExportedDistortion(step: try Store.step($0.step), type: DistortionType(rawValue: $0.type) ?? .unknown,
                                           detectedAt: $0.detectedAt)
                    },
                    events: try events.map { ExportedEvent(kind: $0.kind, step: try Store.step($0.step), category: $0.category, at: $0.at) }))
            }
            let moods = try MoodEntryRecord.order(Column("user"), Column("day")).fetchAll(db).map { m in
                ExportedMoodEntry(user: m.user, day: m.day, mood: Mood(rawValue: m.mood) ?? .average, note: m.note, source: m.source,
                                  sessionID: m.sessionID, createdAt: m.createdAt, updatedAt: m.updatedAt)
            }
            return ExportDocument(exportedAt: now, sessions: out, moodEntries: moods)
        }
    }

    static func step(_ raw: String) throws -> StepID {
        guard let id = StepID(raw) else { throw StoreError.database("stored step id '\(raw)' is invalid") }
        return id
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
                                  user: s.user, mood: s.mood?.rawValue, seed: s.seed, clock: s.clock, startedAt: s.startedAt,
                                  completedAt: s.completedAt, status: s.status, pre: s.pre, post: s.post).insert(db)
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                for a in s.answers {
                    try AnswerRecord(sessionID: s.id, step: a.step.rawValue, position: a.position, kind: a.kind.rawValue,
                                     question: a.question, value: String(decoding: try encoder.encode(a.value), as: UTF8.self),
                                     state: a.state, answeredAt: a.answeredAt, safety: a.safety?.rawValue).insert(db)
                }
                for d in s.distortions {
                    try DistortionRecord(sessionID: s.id, step: d.step.rawValue, type: d.type.rawValue, detectedAt: d.detectedAt).insert(db)
                }
                for e in s.events {
                    try SessionEventRecord(sessionID: s.id, kind: e.kind, step: e.step.rawValue, category: e.category, at: e.at).insert(db)
                }
                report.sessionsAdded += 1
            }
            for m in doc.moodEntries {
                let (_, changed) = try MoodLog.record(MoodLogRequest(user: m.user, day: m.day, mood: m.mood, note: m.note, source: m.source,
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

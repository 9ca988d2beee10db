import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// A session counts for the same days whichever way it reached the store:
// written live (the journal's answers and a resume at its end), imported,
// or derived again from stored rows by migration v20. A completion is
// recorded with the last answer, live: a completed session without any
// answer logged nothing (coach spec §6: a day counts when anything was
// logged), and counts for no day on any path.

@Suite("Session days: live, import and migration v20 agree")
struct SessionDayPathsTests {
    static let clock = "2026-11-20T18:00:00+01:00"

    static func record(_ id: String, status: SessionRecord.Status) -> SessionRecord {
        SessionRecord(id: id, flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil, user: "default", mood: nil,
                      seed: 0, clock: clock, startedAt: clock, completedAt: status == .completed ? clock : nil, status: status)
    }

    static func days(_ store: Store) throws -> [String] {
        try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT 'showed_up', user, day FROM showed_up_day ORDER BY user, day").map { "\($0)" }
                + Row.fetchAll(db, sql: "SELECT 'step', user, flow, step, kind, day FROM \(stepDaysWithTexts) ORDER BY user, flow, step, kind, day").map { "\($0)" }
        }
    }

    @Test("a completed session without answers counts for no day, live, imported or derived by v20; with an answer, for its day on each")
    func completedWithoutAnswers() throws {
        let day = try #require(CalendarDay("2026-11-20"))
        for answered in [false, true] {
            // Live: the session begun, (its one answer,) resumed at its end.
            let live = try temporaryStore()
            try live.beginSession(Self.record("s", status: .active))
            if answered {
                try live.recordAnswer(AnswerRecord(sessionID: "s", step: "pre", position: 0, kind: .intensity, question: "How strong?",
                                                   value: .integer(6), answeredAt: Self.clock), activityDay: day)
            }
            try live.completeAtLastAnswer("s", pre: nil, post: nil, now: "2026-11-22T09:00:00+01:00", moodDay: nil, activityDay: day)
            // Imported.
            let imported = try temporaryStore()
            let answers = answered ? [ExportedAnswer(step: "pre", position: 0, kind: "intensity", question: "How strong?", value: .integer(6),
                                                     state: .answer, answeredAt: Self.clock, safety: nil)] : []
            _ = try imported.importDocument(ExportDocument(exportedAt: "2026-11-24T00:00:00Z", sessions: [
                ExportedSession(id: "s", flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil, user: "default",
                                mood: nil, seed: 0, clock: Self.clock, startedAt: Self.clock, completedAt: Self.clock, status: .completed,
                                pre: nil, post: nil, answers: answers, distortions: [], events: [], facts: nil),
            ], moodEntries: []))
            // Stored without its days (as before v8), then v20's back-fill.
            let migrated = try temporaryStore()
            try migrated.writer.write { db in
                try Self.record("s", status: .completed).insert(db)
                if answered {
                    try Store.upsertAnswerInFull(AnswerRecord(sessionID: "s", step: "pre", position: 0, kind: .intensity, question: "How strong?",
                                                              value: .integer(6), answeredAt: Self.clock), in: db)
                }
                try Store.markStoredActivity(in: db)
            }
            let expected = try Self.days(live)
            #expect(expected.isEmpty != answered, "answered: \(answered): \(expected)")
            #expect(try Self.days(imported) == expected, "answered: \(answered)")
            #expect(try Self.days(migrated) == expected, "answered: \(answered)")
        }
    }
}

import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// Migration v20: sessions, mood entries, prep marks and craving notes
// stored before v8 (which made the showed-up and step days but derived
// none) count for their days. The same rows written live today and the
// same rows stored in a v7 database, then upgraded, leave the same
// showed-up days, step days and achievements.

@Suite("Migration v20")
struct MigrationV20Tests {
    static func temp(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-\(name)-\(UUID().uuidString).sqlite").path
    }

    /// One session as it is written live (``StoreJournal``): its answers,
    /// each with the session's day as its activity day, the last with the
    /// completion when `completes`.
    struct LiveSession {
        var id: String
        var flow: String
        var clock: String
        var factsDay: String?
        var mood: Mood? = .bad
        var answers: [(StepID, PromptKind, AnswerValue)]
        var draft: (StepID, AnswerValue)? = nil
        var completes = true
    }

    static let sessions: [LiveSession] = [
        // The 17th by its clock (no facts): a morning with its stress response, completed.
        LiveSession(id: "s1", flow: AchievementRules.morningFlow, clock: "2026-11-17T08:00:00+01:00", factsDay: nil,
                    answers: [("focus", .text, .text("The report")), (AchievementRules.stressStep, .text, .text("Breathe")),
                              ("ready", .yesNo, .boolean(true))]),
        // After midnight, its logical day (facts) the 17th: an evening with prep done.
        LiveSession(id: "s2", flow: AchievementRules.eveningFlow, clock: "2026-11-18T01:30:00+01:00", factsDay: "2026-11-17",
                    answers: [(AchievementRules.prepStep, .checklist, .checklist(["water": .done, "shoes": .skip])),
                              ("skipped", .text, .skipped), ("rested", .yesNo, .boolean(false))]),
        // The 18th, with a draft (answered, then gone back from), not finished.
        LiveSession(id: "s3", flow: "reflection.negative", clock: "2026-11-18T20:00:00+01:00", factsDay: "2026-11-18",
                    answers: [("pre", .intensity, .integer(7))], draft: ("situation", .text("The meeting")), completes: false),
        // The 19th and 20th: mornings completed (a streak of four with the 17th and 18th).
        LiveSession(id: "s4", flow: AchievementRules.morningFlow, clock: "2026-11-19T07:00:00+01:00", factsDay: "2026-11-19",
                    answers: [("focus", .text, .text("Calls"))]),
        LiveSession(id: "s5", flow: AchievementRules.morningFlow, clock: "2026-11-20T07:00:00+01:00", factsDay: "2026-11-20",
                    answers: [("focus", .text, .text("Quiet"))]),
    ]

    /// The rows the test holds to: what streaks and achievements read.
    static func progress(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT 'showed_up', user, day FROM showed_up_day ORDER BY user, day").map { "\($0)" }
            + Row.fetchAll(db, sql: "SELECT 'step', user, flow, step, kind, day FROM \(stepDaysWithTexts) ORDER BY user, flow, step, kind, day").map { "\($0)" }
            + Row.fetchAll(db, sql: "SELECT 'achievement', user, key, achieved_at FROM achievement ORDER BY user, key").map { "\($0)" }
    }

    /// Writes the sessions, a mood entry, prep marks and a craving note through the live paths.
    static func writeLive(_ store: Store) throws {
        for s in sessions {
            let facts = s.factsDay.map { #"{"day":"\#($0)"}"# }
            try store.beginSession(SessionRecord(id: s.id, flowID: s.flow, flowVersion: 1, locale: "en", personality: nil, user: "ana",
                                                 mood: s.mood, seed: 1, clock: s.clock, startedAt: s.clock, facts: facts))
            let day = try #require(Store.sessionDay(facts: facts, clock: s.clock))
            var position = 0
            if let (step, value) = s.draft {
                try store.recordAnswer(AnswerRecord(sessionID: s.id, step: step, position: position, kind: .text, question: "Q?", value: value,
                                                    answeredAt: s.clock), activityDay: day)
                try store.markDraft(session: s.id, step: step)
                position += 1
            }
            for (i, (step, kind, value)) in s.answers.enumerated() {
                let last = i == s.answers.count - 1 && s.completes
                try store.recordAnswer(AnswerRecord(sessionID: s.id, step: step, position: position, kind: kind, question: "Q?",
                                                    value: value, answeredAt: s.clock),
                                       completion: last ? SessionCompletion(pre: nil, post: nil, at: s.clock, moodDay: day.description) : nil,
                                       activityDay: day)
                position += 1
            }
        }
        _ = try store.logMood(MoodLogRequest(user: "ana", day: "2026-11-22", mood: .good, note: nil, source: .log,
                                             sessionID: nil, at: "2026-11-22T12:00:00+01:00"))
        try store.write { db in
            try db.execute(sql: """
                INSERT INTO prep_mark (user, day, item_id, mark, session_id, marked_at) VALUES
                    ('ana', '2026-11-23', 'water', 'done', NULL, '2026-11-23T21:00:00+01:00'),
                    ('ana', '2026-11-23', 'shoes', 'skip', NULL, '2026-11-23T21:00:00+01:00');
                INSERT INTO craving_note (id, user, session_id, type, detail, day, at, text) VALUES
                    ('c1', 'ana', NULL, 'stress', NULL, '2026-11-25', '2026-11-25T15:00:00+01:00', 'A long afternoon');
                """)
        }
        try store.markActivity([.logged("prep", day: try #require(CalendarDay("2026-11-23")))], user: "ana")
        try store.markActivity([.logged("craving", day: try #require(CalendarDay("2026-11-25")))], user: "ana")
    }

    @Test("rows stored at v7 count for the same days and achievements as the same rows written live")
    func fromV7() throws {
        let livePath = Self.temp("v20-live")
        let live = try Store(path: livePath)
        try Self.writeLive(live)
        let expected = try live.writer.read(Self.progress)
        #expect(expected.contains { $0.contains("completed") }, "\(expected)")
        #expect(expected.contains { $0.contains("achievement") }, "the live history earned achievements: \(expected)")
        // Deriving again from what live writes stored adds nothing: the
        // migration marks exactly what the live writes mark.
        try live.write { db in try Store.markStoredActivity(in: db) }
        #expect(try live.writer.read(Self.progress) == expected)

        // The same rows in a v7 database (before the days existed).
        let moodEntries = try live.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM mood_entry") }
        let oldPath = Self.temp("v7")
        let v7 = try #require(Migrations.identifiers.first { $0.hasPrefix("v7") })
        do {
            var config = Configuration()
            config.prepareDatabase { db in try SearchText.register(db) }
            let queue = try DatabaseQueue(path: oldPath, configuration: config)
            try Migrations.migrator.migrate(queue, upTo: v7)
            try queue.writeWithoutTransaction { db in
                #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 7)
                try db.execute(sql: "ATTACH DATABASE ? AS live", arguments: [livePath])
                try db.execute(sql: """
                    INSERT INTO session (id, flow_id, flow_version, locale, personality, user, mood, seed, clock, started_at, completed_at,
                                         status, pre, post, facts, variants)
                        SELECT id, flow_id, flow_version, locale, personality, user, mood, seed, clock, started_at, completed_at,
                               status, pre, post, facts, variants FROM live.session;
                    INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety)
                        SELECT session_id, step, position, kind, question, value, state, answered_at, safety FROM live.answer;
                    INSERT INTO mood_entry SELECT * FROM live.mood_entry;
                    INSERT INTO prep_mark SELECT * FROM live.prep_mark;
                    INSERT INTO craving_note SELECT * FROM live.craving_note;
                    """)
                try db.execute(sql: "DETACH DATABASE live")
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM session") == Self.sessions.count)
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM mood_entry") == moodEntries)
                #expect(moodEntries == 4, "three days' completions with a mood, one logged")
            }
        }
        let upgraded = try Store(path: oldPath)
        #expect(try upgraded.writer.read(Self.progress) == expected)
        #expect(try upgraded.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Migrations.schemaVersion)
        // What a person sees: the streak of the days they used the app.
        let today = try #require(CalendarDay("2026-11-20"))
        #expect(try upgraded.showedUpDays(user: "ana").figures(today: today) == live.showedUpDays(user: "ana").figures(today: today))
        #expect(try upgraded.achievements(user: "ana") == live.achievements(user: "ana"))
    }

    @Test("a simulated experiment's sessions (no answers) mark nothing")
    func sessionsWithoutAnswers() throws {
        let store = try Store(path: Self.temp("v20-sim"))
        try store.recordSimulated([ExperimentSimulation.Session(user: "sim-1", variation: "a", pre: 7, post: 4)],
                                  experiment: "x", at: "2026-11-20T09:00:00Z")
        try store.write { db in try Store.markStoredActivity(in: db) }
        #expect(try store.writer.read(Self.progress).isEmpty)
    }
}

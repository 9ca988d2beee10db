import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Migration v24: a step's days are keyed by an integer id of their set
/// (`day_set`: person, flow, step, kind) instead of the four texts. A
/// populated v23 database keeps every day and running figure, and reads
/// afterwards exactly as a store that logged the same activity live: the
/// streaks, the progress facts, the achievements and the export.
@Suite("Migration v24")
struct MigrationV24Tests {
    static let reset = (user: "ben", day: CalendarDay(ordinal: 20_340))

    /// A v23 database (as the Reflect before this one left it) holding
    /// `marks`, each set's running figures (v21) and what they earned (with
    /// a reset of achievements for ``reset``).
    static func v23Database(_ marks: [(user: String, mark: ActivityMark)]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v23-\(UUID().uuidString).sqlite").path
        var config = Configuration()
        config.prepareDatabase { db in try SearchText.register(db) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        let v20 = try #require(Migrations.identifiers.first { $0.hasPrefix("v20") })
        let v23 = try #require(Migrations.identifiers.first { $0.hasPrefix("v23") })
        try Migrations.migrator.migrate(queue, upTo: v20)
        try queue.write { (db: Database) throws in
            for (user, m) in marks {
                try db.execute(sql: "INSERT OR IGNORE INTO showed_up_day (user, day) VALUES (?, ?)", arguments: [user, m.day.ordinal])
                try db.execute(sql: "INSERT OR IGNORE INTO step_day (user, flow, step, kind, day) VALUES (?, ?, ?, ?, ?)",
                               arguments: [user, m.flow, m.step, m.kind.rawValue, m.day.ordinal])
            }
        }
        try Migrations.migrator.migrate(queue, upTo: v23)
        try queue.write { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 23)
            try db.execute(sql: "INSERT INTO achievement_reset (user, day) VALUES (?, ?)", arguments: [reset.user, reset.day.ordinal])
            // What the days earned, as that Reflect's writes recorded it
            // (the same full recomputation, on the text-keyed days).
            try Store.recordAllAchievements(layout: .beforeV21, in: db)
        }
        try queue.close()
        return path
    }

    /// Every showed-up and step day with its figures, and every achievement.
    static func rows(_ db: Database, stepDays: String) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT 'showed_up', user, day, nth, run, best FROM showed_up_day ORDER BY user, day").map { "\($0)" }
            + Row.fetchAll(db, sql: """
                SELECT 'step', user, flow, step, kind, day, nth, run, best FROM \(stepDays) ORDER BY user, flow, step, kind, day
                """).map { "\($0)" }
            + Row.fetchAll(db, sql: "SELECT 'achievement', user, key, achieved_at FROM achievement ORDER BY user, key").map { "\($0)" }
    }

    /// What a session and the export read of `store`.
    static func readings(_ store: Store) throws -> [String] {
        var out: [String] = []
        for user in ["ana", "ben"] {
            for flow in ["coach.morning", "reflection.negative", ""] {
                for offset in [0, 25, 41, 70, 89, 120] {
                    let today = CalendarDay(ordinal: 20_300 + offset)
                    let (streak, progress) = try store.progressFacts(user: user, flow: flow, today: today)
                    out.append("\(user) \(flow) \(today): \(streak) \(progress)")
                }
                let steps = try store.flowStepDays(user: user, flow: flow)
                for step in steps.keys.sorted() {
                    for (kind, days) in (steps[step] ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                        out.append("\(user) \(flow) \(step) \(kind): \(days)")
                    }
                }
            }
            out.append("\(user): \(try store.achievements(user: user))")
            out.append("\(user): \(try store.stepDays(user: user, flow: "coach.morning", step: "", kind: .completed))")
        }
        let export = try store.export(at: "2026-11-25T00:00:00Z")
        out.append("export: \(String(describing: export.progress))")
        out.append("csv: \(export.csv())")
        return out
    }

    @Test("a populated v23 database keeps every day and figure, and reads as the same activity logged live", arguments: UInt64(1)...4)
    func upgrade(seed: UInt64) throws {
        let marks = MigrationV21Tests.marks(seed: seed)
        let path = try Self.v23Database(marks)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let before = try DatabaseQueue(path: path).read { db in try Self.rows(db, stepDays: "step_day") }

        let migrated = try Store(path: path)
        try migrated.writer.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == Migrations.schemaVersion)
            #expect(try Self.rows(db, stepDays: stepDaysWithTexts) == before, "seed \(seed)")
            // No text left in a day's key; one set per person, flow, step and kind.
            #expect(try db.columns(in: "step_day").map(\.name) == ["set_id", "day", "nth", "run", "best"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM day_set")
                == (try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT DISTINCT set_id FROM step_day)")))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'step_day%'") == ["step_day"])
        }
        #expect(before.count > 20)

        // The same activity logged live: each person's marks in one batch,
        // in their random order (days before a set's last renumber it; the
        // achievements are computed in full, as that Reflect recorded them).
        let live = try temporaryStore()
        try live.write { db in
            for user in ["ana", "ben"] { try Store.markActivity(marks.filter { $0.user == user }.map(\.mark), user: user, in: db) }
        }
        try live.resetAchievements(user: Self.reset.user, day: Self.reset.day)
        #expect(try Self.readings(migrated) == (try Self.readings(live)), "seed \(seed)")

        // Later writes keep the figures on both: the next day, a day before
        // a set's last (an import), and a set the history never had.
        let later: [(String, ActivityMark)] = [
            ("ana", .completed(flow: "coach.morning", day: CalendarDay(ordinal: 20_390))),
            ("ana", ActivityMark(day: CalendarDay(ordinal: 20_301), flow: "coach.morning", step: "focus", kind: .saved)),
            ("ben", ActivityMark(day: CalendarDay(ordinal: 20_391), flow: "reflection.negative", step: "new", kind: .positive)),
        ]
        for store in [migrated, live] {
            try store.write { db in for (user, m) in later { try Store.markActivity([m], user: user, in: db) } }
        }
        let after = try migrated.writer.read { db in try Self.rows(db, stepDays: stepDaysWithTexts) }
        #expect(after == (try live.writer.read { db in try Self.rows(db, stepDays: stepDaysWithTexts) }), "seed \(seed)")
        #expect(try Self.readings(migrated) == (try Self.readings(live)), "seed \(seed)")
    }

    @Test("an empty v23 database upgrades to empty day tables")
    func emptyUpgrade() throws {
        let path = try Self.v23Database([])
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try Store(path: path)
        try store.writer.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM day_set") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM step_day") == 0)
        }
    }
}

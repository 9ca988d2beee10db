import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Migration v21: each showed-up and step day keeps its set's running
/// figures (`nth`, `run`, `best`; Store+DayRuns.swift). The figures v21
/// computes for the days a v20 database holds equal the ones the live
/// writes keep for the same days, and what each row says of its set.
@Suite("Migration v21")
struct MigrationV21Tests {
    /// Random marks of a few people, flows, steps and kinds over about
    /// ninety days, sparse to dense.
    static func marks(seed: UInt64) -> [(user: String, mark: ActivityMark)] {
        var random = SplitMix(seed: seed)
        let start = CalendarDay(ordinal: 20_300)
        var out: [(String, ActivityMark)] = []
        for _ in 0..<Int.random(in: 20...900, using: &random) {
            let user = ["ana", "ben"][Int.random(in: 0...1, using: &random)]
            let flow = ["coach.morning", "reflection.negative", ""][Int.random(in: 0...2, using: &random)]
            let step = flow.isEmpty ? ["mood", "prep"][Int.random(in: 0...1, using: &random)] : ["", "a", "focus"][Int.random(in: 0...2, using: &random)]
            let kind: ActivityMark.Kind = flow.isEmpty ? .logged : step.isEmpty ? .completed : [.saved, .positive][Int.random(in: 0...1, using: &random)]
            out.append((user, ActivityMark(day: start.adding(days: Int.random(in: 0..<90, using: &random)), flow: flow, step: step, kind: kind)))
        }
        return out
    }

    /// Every showed-up and step day with its running figures.
    static func rows(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT 'showed_up', user, day, nth, run, best FROM showed_up_day ORDER BY user, day").map { "\($0)" }
            + Row.fetchAll(db, sql: """
                SELECT 'step', user, flow, step, kind, day, nth, run, best FROM \(stepDaysWithTexts) ORDER BY user, flow, step, kind, day
                """).map { "\($0)" }
    }

    /// The figures each row should hold, from its set's days alone.
    static func expected(_ db: Database) throws -> [String] {
        var out: [String] = []
        func figures(_ label: String, _ days: [Int]) {
            var nth = 0, run = 0, best = 0
            var previous: Int?
            for day in days {
                nth += 1
                run = previous == day - 1 ? run + 1 : 1
                best = max(best, run)
                previous = day
                out.append("\(label) day:\(day) nth:\(nth) run:\(run) best:\(best)")
            }
        }
        for user in try String.fetchAll(db, sql: "SELECT DISTINCT user FROM showed_up_day ORDER BY user") {
            figures("showed_up \(user)", try Int.fetchAll(db, sql: "SELECT day FROM showed_up_day WHERE user = ? ORDER BY day", arguments: [user]))
        }
        for key in try Row.fetchAll(db, sql: "SELECT DISTINCT user, flow, step, kind FROM \(stepDaysWithTexts) ORDER BY user, flow, step, kind") {
            figures("step \(key)", try Int.fetchAll(db, sql: """
                SELECT day FROM \(stepDaysWithTexts) WHERE user = ? AND flow = ? AND step = ? AND kind = ? ORDER BY day
                """, arguments: [key[0], key[1], key[2], key[3]]))
        }
        return out
    }

    /// What each row holds, in ``expected(_:)``'s words.
    static func stored(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT user, day, nth, run, best FROM showed_up_day ORDER BY user, day").map {
            "showed_up \($0[0] as String) day:\($0[1] as Int) nth:\($0[2] as Int) run:\($0[3] as Int) best:\($0[4] as Int)"
        } + Row.fetchAll(db, sql: """
            SELECT user, flow, step, kind, day, nth, run, best FROM \(stepDaysWithTexts) ORDER BY user, flow, step, kind, day
            """).map {
            "step [user:\(String(reflecting: $0[0] as String)) flow:\(String(reflecting: $0[1] as String)) step:\(String(reflecting: $0[2] as String)) "
                + "kind:\(String(reflecting: $0[3] as String))] day:\($0[4] as Int) nth:\($0[5] as Int) run:\($0[6] as Int) best:\($0[7] as Int)"
        }
    }

    @Test("the figures v21 computes for a v20 database's days equal the ones live writes keep, and each row's own", arguments: UInt64(1)...6)
    func migratedEqualsLive(seed: UInt64) throws {
        let marks = Self.marks(seed: seed)
        // v20: the days as that Reflect stored them.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v20-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var config = Configuration()
        config.prepareDatabase { db in try SearchText.register(db) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        let v20 = try #require(Migrations.identifiers.first { $0.hasPrefix("v20") })
        try Migrations.migrator.migrate(queue, upTo: v20)
        try queue.write { db in
            for (user, m) in marks {
                try db.execute(sql: "INSERT OR IGNORE INTO showed_up_day (user, day) VALUES (?, ?)", arguments: [user, m.day.ordinal])
                try db.execute(sql: "INSERT OR IGNORE INTO step_day (user, flow, step, kind, day) VALUES (?, ?, ?, ?, ?)",
                               arguments: [user, m.flow, m.step, m.kind.rawValue, m.day.ordinal])
            }
        }
        try queue.close()
        let migrated = try Store(path: path)
        // Live: each mark as an answer or a log marks it, in the order given.
        let live = try temporaryStore()
        try live.write { db in for (user, m) in marks { try Store.markActivity([m], user: user, in: db) } }

        let migratedRows = try migrated.writer.read { db in try Self.rows(db) }
        #expect(migratedRows == (try live.writer.read { db in try Self.rows(db) }), "seed \(seed)")
        let (stored, expected) = try migrated.writer.read { db in (try Self.stored(db), try Self.expected(db)) }
        #expect(stored == expected, "seed \(seed)")
        #expect(migratedRows.count > 20)
    }
}

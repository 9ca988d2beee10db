import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// A step's days are stored under an integer id of their set (`day_set`,
// migration v24; Store+DayRuns.swift). The writer connection keeps the ids
// it found with the sets' last rows (DayHeads.swift), trusted only while no
// other transaction wrote the file; a delete-all removes the sets with
// their days.

@Suite("Day sets")
struct DaySetTests {
    static let today = CalendarDay("2026-11-20") ?? CalendarDay(ordinal: 0)

    static func day(_ offset: Int) -> CalendarDay { today.adding(days: offset) }

    /// `user`'s step days with their texts and figures.
    static func stepDays(_ store: Store, user: String = "default") throws -> [String] {
        try store.writer.read { (db: Database) throws in
            try Row.fetchAll(db, sql: "SELECT flow, step, kind, day, nth, run, best FROM \(stepDaysWithTexts) WHERE user = ? ORDER BY 1, 2, 3, 4",
                             arguments: [user]).map { "\($0[0] as String)/\($0[1] as String)/\($0[2] as String) \($0[3] as Int): \($0[4] as Int) \($0[5] as Int) \($0[6] as Int)" }
        }
    }

    @Test("each person's flow, step and kind has one set; its days are keyed by the set's id and the day")
    func oneSetPerStepAndKind() throws {
        let store = try temporaryStore(reading: .serialized)
        try store.beginSession(session("s1"))
        for offset in 0..<3 {
            try store.recordAnswer(answer("s1", "a", 0, .text("day \(offset)")), activityDay: Self.day(offset))
            try store.recordAnswer(answer("s1", "b", 1, .text("day \(offset)")), activityDay: Self.day(offset))
        }
        try store.markActivity([.logged("mood", day: Self.day(1))], user: "other")
        try store.writer.read { (db: Database) throws in
            let sets = try Row.fetchAll(db, sql: "SELECT user, flow, step, kind FROM day_set ORDER BY user, flow, step, kind").map { "\($0)" }
            #expect(sets == [#"[user:"default" flow:"reflection.negative" step:"a" kind:"saved"]"#,
                             #"[user:"default" flow:"reflection.negative" step:"b" kind:"saved"]"#,
                             #"[user:"other" flow:"" step:"mood" kind:"logged"]"#])
            #expect(try db.primaryKey("step_day").columns == ["set_id", "day"])
        }
        #expect(try Self.stepDays(store) == ["reflection.negative/a/saved \(Self.day(0).ordinal): 1 1 1",
                                             "reflection.negative/a/saved \(Self.day(1).ordinal): 2 2 2",
                                             "reflection.negative/a/saved \(Self.day(2).ordinal): 3 3 3",
                                             "reflection.negative/b/saved \(Self.day(0).ordinal): 1 1 1",
                                             "reflection.negative/b/saved \(Self.day(1).ordinal): 2 2 2",
                                             "reflection.negative/b/saved \(Self.day(2).ordinal): 3 3 3"])
        #expect(try store.stepDays(user: "default", flow: "reflection.negative", step: "a", kind: .saved).days.count == 3)
        #expect(try store.stepDays(user: "default", flow: "reflection.negative", step: "zzz", kind: .saved).days.isEmpty)
    }

    @Test("a set id the writer knows is not used after another process deleted everything and its ids were given to other sets")
    func idsGiveWayToAnotherProcess() throws {
        let store = try temporaryStore(reading: .serialized)
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "a", 0, .text("first")), activityDay: Self.day(0))
        // Another process deletes everything, then logs a mood: its set
        // takes the id the answered step's set had.
        let other = try Store(path: store.path)
        try other.deleteAll()
        try other.markActivity([.logged("mood", day: Self.day(1))], user: "default")
        try store.beginSession(session("s2"))
        try store.recordAnswer(answer("s2", "a", 0, .text("again")), activityDay: Self.day(2))
        #expect(try Self.stepDays(store) == ["/mood/logged \(Self.day(1).ordinal): 1 1 1",
                                             "reflection.negative/a/saved \(Self.day(2).ordinal): 1 1 1"])
    }

    @Test("delete-all removes every set with its days, leaves the count of records as it was, and the next answer starts new sets")
    func deleteAllRemovesSets() throws {
        let store = try temporaryStore(reading: .serialized)
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "a", 0, .text("first")), activityDay: Self.day(0))
        try store.markActivity([.logged("mood", day: Self.day(0)), .logged("prep", day: Self.day(1))], user: "default")
        // `day_set` names sets; the records counted are the days themselves.
        let counted = try store.writer.read { (db: Database) throws in
            try Migrations.tables.subtracting(["session", "answer", "mood_entry", "day_set"]).reduce(0) { n, table in
                n + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0)
            }
        }
        #expect(try store.contents().otherRows == counted)
        try store.deleteAll()
        try store.writer.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM day_set") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM step_day") == 0)
        }
        try store.beginSession(session("s2"))
        try store.recordAnswer(answer("s2", "a", 0, .text("again")), activityDay: Self.day(3))
        #expect(try Self.stepDays(store) == ["reflection.negative/a/saved \(Self.day(3).ordinal): 1 1 1"])
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM day_set") } == 1)
    }

    @Test("importing progress twice, with sets the store never had and days before a set's last, makes each set once with its own figures")
    func importMakesSetsOnce() throws {
        let store = try temporaryStore(reading: .serialized)
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "a", 0, .text("first")), activityDay: Self.day(3))
        let progress = ExportedProgress(stepDays: [
            ExportedStepDay(user: "default", flow: "reflection.negative", step: "a", kind: .saved, day: Self.day(1)),
            ExportedStepDay(user: "default", flow: "reflection.negative", step: "a", kind: .saved, day: Self.day(2)),
            ExportedStepDay(user: "default", flow: "coach.morning", step: "", kind: .completed, day: Self.day(0)),
        ])
        for _ in 0..<2 {
            _ = try store.importDocument(ExportDocument(exportedAt: "2026-11-24T00:00:00Z", sessions: [], moodEntries: [], progress: progress))
        }
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM day_set") } == 2)
        #expect(try Self.stepDays(store) == ["coach.morning//completed \(Self.day(0).ordinal): 1 1 1",
                                             "reflection.negative/a/saved \(Self.day(1).ordinal): 1 1 1",
                                             "reflection.negative/a/saved \(Self.day(2).ordinal): 2 2 2",
                                             "reflection.negative/a/saved \(Self.day(3).ordinal): 3 3 3"])
        // The writer's next answer continues the renumbered set.
        try store.recordAnswer(answer("s1", "a", 0, .text("next")), activityDay: Self.day(4))
        #expect(try Self.stepDays(store).last == "reflection.negative/a/saved \(Self.day(4).ordinal): 4 4 4")
    }
}

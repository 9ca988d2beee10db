import Foundation
import GRDB
import Testing

/// The day a session counts for is decided once, the same way whether its
/// answers were written live, imported or derived again by migration v20:
/// its facts snapshot's day when that reads as a day, else its clock's local
/// date (`Store.sessionDay(factsDay:clock:)`). A snapshot whose day does not
/// read (a file edited by hand, a foreign export) made a live answer count
/// for no day at all, while the same session imported counted for its
/// clock's date: the person's streak differed with the way the data came in.
@Suite("The session's day, live and imported", .hangGuard)
struct SessionDayCLITests {
    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-session-day-\(UUID().uuidString).sqlite").path
    }

    /// The showed-up and step days stored, per person.
    func days(_ db: String) throws -> [String] {
        try DatabaseQueue(path: db).read { db in
            try Row.fetchAll(db, sql: "SELECT 'showed_up', user, day FROM showed_up_day ORDER BY user, day").map { "\($0)" }
                + Row.fetchAll(db, sql: "SELECT 'step', user, flow, step, kind, day FROM step_day JOIN day_set ON day_set.id = step_day.set_id ORDER BY user, flow, step, kind, day").map { "\($0)" }
        }
    }

    @Test("a session whose facts' day does not read counts its live answers on its clock's date, as its import does")
    func unreadableFactsDay() throws {
        let live = tempDB(), imported = tempDB()
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-session-day-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: export) }
        // The first answer on the 20th, then the run stops (out of answers).
        let run = try CLIRunner.run(["run", "reflection", "--mood", "bad", "--db", live, "--answers", "-", "--format", "jsonl",
                                     "--now", "2026-11-20T18:00:00+01:00"], stdin: "6\n", in: repositoryRoot)
        #expect(run.status == 0, "\(run.stderr)")
        // A tool leaves the snapshot's day unreadable.
        try DatabaseQueue(path: live).write { db in
            try db.execute(sql: "UPDATE session SET facts = json_set(facts, '$.day', '2026-02-30')")
            #expect(try String.fetchOne(db, sql: "SELECT json_extract(facts, '$.day') FROM session") == "2026-02-30")
        }
        let id = try #require(try DatabaseQueue(path: live).read { db in try String.fetchOne(db, sql: "SELECT id FROM session") })
        // The next answer, days later: it counts for the session's day, the 20th.
        let resume = try CLIRunner.run(["resume", id, "--db", live, "--answers", "-", "--format", "jsonl",
                                        "--now", "2026-11-23T09:00:00+01:00"], stdin: "\"We argued about the plan\"\n", in: repositoryRoot)
        #expect(resume.status == 0, "\(resume.stderr)")
        let liveDays = try days(live)
        #expect(try DatabaseQueue(path: live).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM answer") } == 2)
        let (steps, allDays) = try DatabaseQueue(path: live).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(DISTINCT step) FROM step_day JOIN day_set ON day_set.id = step_day.set_id WHERE kind = 'saved'") ?? 0,
             try Int.fetchAll(db, sql: "SELECT day FROM step_day UNION SELECT day FROM showed_up_day ORDER BY day"))
        }
        #expect(steps == 2, "both answers count: \(liveDays)")
        #expect(allDays == [20_777], "on the 20th: \(liveDays)")
        // The same session imported into a new database counts for the same days.
        let exported = try CLIRunner.run(["export", "--db", live, "--out", export], in: repositoryRoot)
        #expect(exported.status == 0, "\(exported.stderr)")
        let imports = try CLIRunner.run(["import", export, "--db", imported], in: repositoryRoot)
        #expect(imports.status == 0, "\(imports.stderr)")
        #expect(try days(imported) == liveDays)
    }
}

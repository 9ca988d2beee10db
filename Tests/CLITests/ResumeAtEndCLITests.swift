import Foundation
import GRDB
import Testing

/// A session whose every step is answered but whose end was not recorded
/// (a Reflect that recorded the end in a transaction of its own, killed
/// right after the last answer) is completed when it is resumed. The person
/// gets the same record as one whose run was not interrupted: the end at
/// the last answer's time, the mood entry, and the flow's completion on the
/// session's day (streaks and achievements read it).
@Suite("Resuming a session at its end records the same finish", .hangGuard)
struct ResumeAtEndCLITests {
    static let answers = "6\n\"A long walk by the river with my brother\"\n\"We both took the afternoon off\"\n\"Plan one more walk on Sunday\"\n8\n"

    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-resume-end-\(UUID().uuidString).sqlite").path
    }

    /// What a finish records, row by row (the session's id as `ID`: each run has its own).
    func record(_ db: String) throws -> [String] {
        try DatabaseQueue(path: db).read { db in
            let id = try String.fetchOne(db, sql: "SELECT id FROM session") ?? ""
            func rows(_ sql: String) throws -> [String] {
                try Row.fetchAll(db, sql: sql).map { row in
                    row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: " ").replacingOccurrences(of: id, with: "ID")
                }
            }
            return try rows("SELECT id, status, completed_at, pre, post FROM session")
                + rows("SELECT * FROM mood_entry ORDER BY user, day")
                + rows("SELECT * FROM showed_up_day ORDER BY user, day")
                + rows("SELECT user, flow, step, kind, day, nth, run, best FROM step_day JOIN day_set ON day_set.id = step_day.set_id ORDER BY user, flow, step, kind, day")
                + rows("SELECT * FROM achievement ORDER BY user, key")
        }
    }

    @Test("killed after the last answer, before the end was recorded: resuming days later records what an uninterrupted run did")
    func resumedAtEnd() throws {
        let finished = tempDB(), resumed = tempDB()
        for db in [finished, resumed] {
            let run = try CLIRunner.run(["run", "reflection", "--mood", "good", "--db", db, "--answers", "-", "--format", "jsonl",
                                         "--now", "2026-11-20T18:00:00+01:00"], stdin: Self.answers, in: repositoryRoot)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let expected = try record(finished)
        #expect(expected.contains { $0.contains(#"kind="completed""#) }, "a finish marks the flow completed: \(expected)")
        // What the end's own transaction would have written, not written.
        try DatabaseQueue(path: resumed).writeWithoutTransaction { db in
            try db.execute(sql: """
                UPDATE session SET status = 'active', completed_at = NULL, pre = NULL, post = NULL;
                DELETE FROM mood_entry;
                DELETE FROM step_day WHERE set_id IN (SELECT id FROM day_set WHERE kind = 'completed' OR (flow = '' AND step = 'mood'));
                DELETE FROM day_set WHERE id NOT IN (SELECT set_id FROM step_day);
                """)
        }
        let id = try #require(try DatabaseQueue(path: resumed).read { db in try String.fetchOne(db, sql: "SELECT id FROM session") })
        let resume = try CLIRunner.run(["resume", id, "--db", resumed, "--answers", "-", "--format", "jsonl",
                                        "--now", "2026-11-22T09:00:00+01:00"], stdin: "", in: repositoryRoot)
        #expect(resume.status == 0, "\(resume.stderr)")
        #expect(resume.events.contains { $0["event"] as? String == "done" }, "\(resume.stdout)")
        #expect(try record(resumed) == expected)
    }
}

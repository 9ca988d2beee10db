import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Migration v19: `step_day`'s CHECK on `kind` is written as comparisons,
/// so that SQLite no longer builds a temporary b-tree of the list at every
/// insert (every journalled answer's transaction writes a step day). The
/// step days stored before are all kept, and the constraint still refuses
/// any other kind.
@Suite("Migration v19")
struct MigrationV19Tests {
    static let days: [(user: String, flow: String, step: String, kind: String, day: Int)] = [
        ("default", "reflection.negative", "situation", "saved", 20_400),
        ("default", "reflection.negative", "", "completed", 20_400),
        ("default", "morning.intention", "stress_response", "saved", 20_401),
        ("default", "evening.review", "prep", "positive", 20_401),
        ("other", "craving", "", "logged", 20_399),
    ]

    /// A v17 database (as the Reflect before this one left it) with step days.
    func oldDatabase() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v17-\(UUID().uuidString).sqlite").path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in try SearchText.register(db) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        let v17 = try #require(Migrations.identifiers.first { $0.hasPrefix("v17") })
        try Migrations.migrator.migrate(queue, upTo: v17)
        try queue.write { db in
            for d in Self.days {
                try db.execute(sql: "INSERT INTO step_day (user, flow, step, kind, day) VALUES (?, ?, ?, ?, ?)",
                               arguments: [d.user, d.flow, d.step, d.kind, d.day])
            }
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 17)
        }
        try queue.close()
        return path
    }

    /// Whether SQLite's program for `sql` builds a temporary b-tree (on a
    /// connection that can write: a read-only one leaves the checks out).
    static func opensEphemeral(_ sql: String, in db: Database) throws -> Bool {
        let parameters = sql.filter { $0 == "?" }.count
        return try Row.fetchAll(db, sql: "EXPLAIN " + sql, arguments: StatementArguments(Array(repeating: DatabaseValue.null, count: parameters)))
            .contains { ($0["opcode"] as String?) == "OpenEphemeral" }
    }

    @Test("after the upgrade every step day is kept, another kind is still refused, and the insert builds no temporary list")
    func upgrade() throws {
        let path = try oldDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let insert = "INSERT OR IGNORE INTO step_day (user, flow, step, kind, day) VALUES (?, ?, ?, ?, ?)"
        let setInsert = "INSERT OR IGNORE INTO day_set (user, flow, step, kind) VALUES (?, ?, ?, ?)"
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { db in try Self.opensEphemeral(insert, in: db) }, "v17's CHECK builds the list at every insert")
        try queue.close()

        let store = try Store(path: path)
        // On the writer's connection: a read-only one compiles no constraint checks.
        try store.writer.writeWithoutTransaction { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == Migrations.schemaVersion)
            let rows = try Row.fetchAll(db, sql: "SELECT user, flow, step, kind, day FROM \(stepDaysWithTexts) ORDER BY user, flow, step, kind, day")
            let kept = rows.map { "\($0["user"] as String)|\($0["flow"] as String)|\($0["step"] as String)|\($0["kind"] as String)|\($0["day"] as Int)" }
            #expect(kept.sorted() == Self.days.map { "\($0.user)|\($0.flow)|\($0.step)|\($0.kind)|\($0.day)" }.sorted())
            // (Since v24 the kind is its set's, checked in `day_set`.)
            #expect(try !Self.opensEphemeral(setInsert, in: db))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'step_day%'") == ["step_day"])
        }
        try store.writer.write { db in
            // (OR IGNORE would skip the row without an error: a plain INSERT.)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO day_set (user, flow, step, kind) VALUES (?, ?, ?, ?)",
                               arguments: ["default", "reflection.negative", "situation", "sometimes"])
            }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM day_set WHERE kind = 'sometimes'") == 0)
            for kind in ActivityMark.Kind.allCases {
                try db.execute(sql: setInsert, arguments: ["default", "reflection.negative", "situation.new", kind.rawValue])
                #expect(db.changesCount == 1, "\(kind)")
            }
        }
        // The day an answer counts for is still stored through the journal's write.
        try store.beginSession(SessionRecord(id: "s", flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil,
                                             user: "default", mood: nil, seed: 0, clock: "2026-11-24T09:00:00Z",
                                             startedAt: "2026-11-24T09:00:00Z"))
        try store.recordAnswer(AnswerRecord(sessionID: "s", step: "situation", position: 0, kind: .text, question: "What happened?",
                                            value: .text("The meeting"), answeredAt: "2026-11-24T09:01:00Z"),
                               activityDay: CalendarDay(ordinal: 20_416))
        #expect(try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM step_day WHERE day = 20416")
        } == 1)
    }

    @Test("no insert an answer's transaction makes builds a temporary b-tree (a CHECK's list of values, a subquery)")
    func answerPathInserts() throws {
        let store = try temporaryStore()
        try store.writer.writeWithoutTransaction { db in
            for table in ["answer", "entry_pending", "showed_up_day", "step_day", "day_set", "answer_theme", "achievement", "session_event",
                          "distortion"] {
                let columns = try db.columns(in: table).map(\.name)
                let sql = "INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
                #expect(try !Self.opensEphemeral(sql, in: db), "\(table)")
            }
        }
    }
}

import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// Issue 20: migration v14 rebuilds `answer` keyed (session_id, step)
// WITHOUT ROWID. A v13 database holding answers, drafts, a flagged answer,
// their search index and themes opens with everything as it was, and the
// search index's triggers work on the new table.

@Suite("Migration v14")
struct MigrationV14Tests {
    @Test("a v13 database's answers, index and themes survive the rebuild; edits, drafts and deletes still leave the index")
    func fromV13() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v13-\(UUID().uuidString).sqlite").path
        let v13 = try #require(Migrations.identifiers.first { $0.hasPrefix("v13") })
        do {
            var config = Configuration()
            config.prepareDatabase { db in try SearchText.register(db) }
            let queue = try DatabaseQueue(path: path, configuration: config)
            try Migrations.migrator.migrate(queue, upTo: v13)
            try queue.write { db in
                #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 13)
                for id in ["s1", "s2"] {
                    try session(id).insert(db)
                }
                let rows: [(String, String, Int, String, String, String?)] = [
                    ("s1", "situation", 0, "\"The meeting with my manager\"", "answer", nil),
                    ("s1", "thought", 1, "\"I always fail\"", "draft", nil),
                    ("s1", "pre", 2, "7", "answer", nil),
                    ("s1", "worst", 3, "\"I want to hurt myself\"", "answer", "self_harm"),
                    ("s2", "situation", 0, "\"明日の会議が怖い\"", "answer", nil),
                ]
                for (s, step, position, value, state, safety) in rows {
                    try db.execute(sql: """
                        INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety)
                        VALUES (?, ?, ?, ?, 'Q?', ?, ?, '2026-11-20T08:00:00Z', ?)
                        """, arguments: [s, step, position, step == "pre" ? "intensity" : "text", value, state, safety])
                }
                try Store.indexAnswers(session: "s1", in: db)
                try Store.indexAnswers(session: "s2", in: db)
                try db.execute(sql: "INSERT INTO answer_theme (session_id, step, theme) VALUES ('s1', 'situation', 'work')")
                // Days an import left without the streak they earn.
                for d in 0..<3 { try db.execute(sql: "INSERT INTO showed_up_day (user, day) VALUES ('default', ?)", arguments: [20_400 + d]) }
            }
        }
        func snapshot(_ store: Store) throws -> [[String]] {
            try store.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM answer ORDER BY session_id, step").map { row in
                    row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }
                } + Row.fetchAll(db, sql: "SELECT session_id, step, body FROM entry_text ORDER BY session_id, step").map { row in
                    ["entry", row["session_id"], row["step"], row["body"]]
                }
            }
        }
        // The same rows read through a v13 connection, then through the store (v14).
        let before: [[String]] = try {
            let queue = try DatabaseQueue(path: path)
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM answer ORDER BY session_id, step").map { row in
                    row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }
                } + Row.fetchAll(db, sql: "SELECT session_id, step, body FROM entry_text ORDER BY session_id, step").map { row in
                    ["entry", row["session_id"], row["step"], row["body"]]
                }
            }
        }()
        let store = try Store(path: path)
        #expect(try snapshot(store) == before)
        #expect(before.count == 5 + 2, "two indexed answers: the draft, the number and the flagged one are not")
        let schema = try store.writer.read { db in
            (try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'answer'") ?? "",
             try Int.fetchOne(db, sql: "PRAGMA user_version"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'answer' ORDER BY name"),
             try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count)
        }
        #expect(schema.0.contains("WITHOUT ROWID"))
        #expect(schema.1 == Migrations.schemaVersion, "later migrations ran after v14")
        #expect(Set(schema.2).isSuperset(of: ["answer_search_delete", "answer_search_update"]), "the search triggers were made again: \(schema.2)")
        #expect(schema.3 == 0)
        // What the import left undone is recorded.
        #expect(try store.achievements(user: "default").map(\.key) == ["streak_3"])
        // Search, an edit, going back and deleting work on the rebuilt table.
        func related(_ text: String) throws -> [String] {
            try store.relatedEntries(user: "default", to: text, now: "2026-11-24T08:00:00Z", excluding: nil).map { "\($0.session)/\($0.step)" }
        }
        #expect(try related("meeting manager") == ["s1/situation"])
        #expect(try related("会議") == ["s2/situation"])
        try store.recordAnswer(answer("s1", "situation", 0, .text("The deadline slipped")))
        #expect(try related("meeting manager").isEmpty)
        #expect(try related("deadline") == ["s1/situation"])
        #expect(try store.detail("s1").answers.first { $0.step == "situation" }?.value == .text("The deadline slipped"))
        try store.markDraft(session: "s1", step: "situation")
        #expect(try related("deadline").isEmpty)
        try store.deleteSession("s2", user: "default")
        #expect(try related("会議").isEmpty)
        try store.write { db in try db.execute(sql: "INSERT INTO entry_search (entry_search, rank) VALUES ('integrity-check', 1)") }
        // Export and delete-all as before.
        #expect(try store.export(at: "2026-11-24T08:00:00Z").sessions.first?.answers.count == 4)
        try store.deleteAll()
        #expect(try store.contents() == Store.Contents())
    }
}

import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Migration v17: answers the search function of before its fix left out of
/// the related-entries index (a text starting with a combining mark, a
/// zero-width joiner or a skin-tone modifier) are found after the upgrade.
/// The database is made as an older Reflect made it: its answers written at
/// v12, the index filled by v13's backfill through the old function, then
/// migrated to v16 (and an import at v16, through the old function too).
@Suite("Migration v17")
struct MigrationV17Tests {
    /// The indexed form as Reflect computed it before the fix: `hasPrefix`
    /// compares the first Character, which a leading combining mark, joiner
    /// or skin tone merges with the quote.
    static let oldFunction = DatabaseFunction(SearchText.sqlName, argumentCount: 1, pure: true) { values in
        guard let json = String.fromDatabaseValue(values[0]), json.hasPrefix("\""),
              let text = try? JSONDecoder().decode(String.self, from: Data(json.utf8)) else { return nil }
        let indexed = SearchText.indexed(text)
        return indexed.isEmpty ? nil : indexed
    }

    static let leading: [(session: String, text: String)] = [
        ("mark", "\u{301}Presentation day, my hands were shaking"),
        ("joiner", "\u{200D}The presentation went better than I feared"),
        ("tone", "\u{1F3FD} presentation at work again, I froze"),
    ]

    func insertSession(_ id: String, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO session (id, flow_id, flow_version, locale, user, seed, clock, started_at, status)
            VALUES (?, 'reflection.negative', 1, 'en', 'default', 1, '2026-11-01T09:00:00+01:00', '2026-11-01T09:00:00+01:00', 'completed')
            """, arguments: [id])
    }

    func insertAnswer(_ session: String, _ step: String, _ position: Int, _ value: String, kind: String = "text",
                      state: String = "answer", safety: String? = nil, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety)
            VALUES (?, ?, ?, ?, 'What happened?', ?, ?, '2026-11-01T09:00:00+01:00', ?)
            """, arguments: [session, step, position, kind, value, state, safety])
    }

    /// A v16 database whose index was made by the old function: answers
    /// stored at v12 (backfilled by v13) and a session imported at v16.
    func oldDatabase() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v16-\(UUID().uuidString).sqlite").path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in db.add(function: Self.oldFunction) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        let v12 = try #require(Migrations.identifiers.first { $0.hasPrefix("v12") })
        let v16 = try #require(Migrations.identifiers.first { $0.hasPrefix("v16") })
        try Migrations.migrator.migrate(queue, upTo: v12)
        try queue.write { db in
            for (i, entry) in Self.leading.enumerated() where i < 2 {
                try insertSession(entry.session, in: db)
                try insertAnswer(entry.session, "situation", 0, try #require(AnswerValue.text(entry.text).storedJSON), in: db)
            }
            try insertSession("plain", in: db)
            try insertAnswer("plain", "situation", 0, #""A presentation I gave calmly""#, in: db)
            try insertAnswer("plain", "thought", 1, "\"\u{301}presentation draft\"", state: "draft", in: db)
            try insertAnswer("plain", "worst", 2, "\"\u{301}presentation and I want to die\"", safety: "suicide", in: db)
        }
        try Migrations.migrator.migrate(queue, upTo: v16)
        try queue.write { db in
            // An import at v16: its answers, indexed in its transaction.
            let entry = Self.leading[2]
            try insertSession(entry.session, in: db)
            try insertAnswer(entry.session, "situation", 0, try #require(AnswerValue.text(entry.text).storedJSON), in: db)
            try Store.indexAnswers(session: entry.session, in: db)
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 16)
            #expect(try String.fetchAll(db, sql: "SELECT session_id FROM entry_text ORDER BY session_id") == ["plain"],
                    "the old function left the three answers out")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_pending") == 0, "nothing is pending: no catch-up will add them")
        }
        try queue.close()
        return path
    }

    @Test("after the upgrade a search finds answers that start with a combining mark, a joiner or a skin tone")
    func reindexed() throws {
        let path = try oldDatabase()
        let store = try Store(path: path)
        let found = try store.relatedEntries(user: "default", to: "presentation", now: "2026-11-24T09:00:00+01:00",
                                             excluding: nil, limit: 10)
        #expect(Set(found.map(\.session)) == ["mark", "joiner", "tone", "plain"], "\(found.map(\.session))")
        // Exactly what a full rebuild holds: the draft and the flagged answer stay out.
        let rows = try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT session_id, step, body FROM entry_text ORDER BY session_id, step").map {
                "\($0["session_id"] as String)/\($0["step"] as String)/\($0["body"] as String)"
            }
        }
        let rebuilt = try store.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT session_id, step, \(SearchText.sqlName)(value) AS body FROM answer
                WHERE state = 'answer' AND safety IS NULL AND kind = 'text' AND \(SearchText.sqlName)(value) IS NOT NULL
                ORDER BY session_id, step
                """).map { "\($0["session_id"] as String)/\($0["step"] as String)/\($0["body"] as String)" }
        }
        #expect(rows == rebuilt)
        #expect(rows.count == 4)
        // The FTS5 index agrees with its content table.
        try store.writer.write { db in
            try db.execute(sql: "INSERT INTO entry_search (entry_search, rank) VALUES ('integrity-check', 1)")
        }
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == Migrations.schemaVersion)
    }
}

import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Migration v13 fills the related-entries index from the answers a database
/// already holds (docs/journal.md, "Related past entries"): a person who
/// upgrades finds their earlier entries, and never a draft, a flagged answer
/// or a non-text answer.
@Suite("Related entries: v13 backfill of an older database")
struct SearchBackfillTests {
    /// A database file migrated up to and including v12, as Reflect left it
    /// before the search existed, holding `rows` (session id, step, kind,
    /// JSON value, state, safety category).
    func databaseAtV12(_ rows: [(String, String, String, String, String, String?)]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-backfill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("reflect.sqlite").path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in try SearchText.register(db) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        let v12 = try #require(Migrations.identifiers.first { $0.hasPrefix("v12") })
        try Migrations.migrator.migrate(queue, upTo: v12)
        try queue.write { db in
            #expect(try !db.tableExists("entry_text"), "the database is from before v13")
            for session in Set(rows.map(\.0)).sorted() {
                try db.execute(sql: """
                    INSERT INTO session (id, flow_id, flow_version, locale, user, seed, clock, started_at, status)
                    VALUES (?, 'reflection.negative', 1, 'en', 'default', 1, '2026-11-01T09:00:00+01:00',
                            '2026-11-01T09:00:00+01:00', 'completed')
                    """, arguments: [session])
            }
            for (i, row) in rows.enumerated() {
                try db.execute(sql: """
                    INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety)
                    VALUES (?, ?, ?, ?, '?', ?, ?, '2026-11-01T09:00:00+01:00', ?)
                    """, arguments: [row.0, row.1, i, row.2, row.3, row.4, row.5])
            }
        }
        try queue.close()
        return path
    }

    @Test("opening a v12 database indexes its kept, unflagged text answers, and only those")
    func backfill() throws {
        let path = try databaseAtV12([
            ("kept", "situation", "text", #""The presentation for my boss went badly""#, "answer", nil),
            ("kept", "mood", "number", "7", "answer", nil),
            ("draft", "situation", "text", #""A presentation draft I never sent""#, "draft", nil),
            ("flagged", "situation", "text", #""The presentation made me want to die""#, "answer", "suicide"),
            ("other", "situation", "text", #""Walked the dog in the rain""#, "answer", nil),
        ])
        let store = try Store(path: path)
        let found = try store.relatedEntries(user: "default", to: "presentation", now: "2026-11-24T09:00:00+01:00",
                                             excluding: nil, limit: 10)
        #expect(found.map(\.session) == ["kept"], "only the kept, unflagged text answer: \(found.map(\.session))")
        let indexed = try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT session_id, step FROM entry_text ORDER BY session_id").map { "\($0["session_id"] as String)/\($0["step"] as String)" }
        }
        #expect(indexed == ["kept/situation", "other/situation"])
        // The index answers for the backfilled rows as for new ones: the
        // entry leaves it when its answer is edited.
        try store.writer.write { db in
            try db.execute(sql: "UPDATE answer SET value = ? WHERE session_id = 'kept' AND step = 'situation'",
                           arguments: [#""Something else entirely""#])
        }
        #expect(try store.relatedEntries(user: "default", to: "presentation", now: "2026-11-24T09:00:00+01:00",
                                         excluding: nil, limit: 10).isEmpty)
    }
}

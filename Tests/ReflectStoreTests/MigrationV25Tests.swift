import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Migration v25: a celebration may be one checklist item's (coach spec §7,
/// "each prep item marked Done: tiny"), so the once-per-session key is the
/// session, step, reason and item. Rows and the AUTOINCREMENT counter are
/// kept; an older row has no item ('').
@Suite("Migration v25")
struct MigrationV25Tests {
    func oldDatabase() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v23-\(UUID().uuidString).sqlite").path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in try SearchText.register(db) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        let v23 = try #require(Migrations.identifiers.first { $0.hasPrefix("v23") })
        try Migrations.migrator.migrate(queue, upTo: v23)
        try queue.write { db in
            for (i, tier) in ["tiny", nil, "medium"].enumerated() {
                try db.execute(sql: "INSERT INTO celebration (user, step, tier, reason, pool, line_index, line, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               arguments: ["ana", "prep", tier, "r\(i)", "pool", i, "line \(i)", "2026-11-2\(i)T08:00:00Z"])
            }
            try db.execute(sql: "DELETE FROM celebration WHERE id = 3")
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 23)
        }
        try queue.close()
        return path
    }

    @Test("rows kept with no item, ids deleted before not used again; one row per item for the same step and reason, and once per item")
    func upgrade() throws {
        let path = try oldDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let before = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, user, step, tier, reason, pool, line_index, line, at FROM celebration ORDER BY id").map(\.description)
        }
        let store = try Store(path: path)
        try store.writer.write { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == Migrations.schemaVersion)
            let after = try Row.fetchAll(db, sql: "SELECT id, user, step, tier, reason, pool, line_index, line, at FROM celebration ORDER BY id").map(\.description)
            #expect(after == before)
            #expect(try String.fetchAll(db, sql: "SELECT item FROM celebration") == ["", ""])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE '%_v25'") == [])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'celebration_user_pool'") != nil)
            let insert = "INSERT OR IGNORE INTO celebration (session_id, user, step, item, tier, reason, at) VALUES (NULL, 'ben', 'prep', ?, 'tiny', 'prep_done', 't')"
            // (A NULL session makes every row distinct to SQLite; the key is checked on a session below.)
            try db.execute(sql: insert, arguments: ["water"])
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM celebration WHERE user = 'ben'") == [4])
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO celebration (user, step, item, reason, at) VALUES ('ben', 'prep', NULL, 'prep_done', 't')")
            }
        }
    }

    @Test("through the store: a session's per-item celebrations are each stored once, read back with their items, exported and imported")
    func perItem() throws {
        let store = try temporaryStore()
        try store.beginSession(SessionRecord(id: "e1", flowID: "coach.evening", flowVersion: 1, locale: "en", personality: nil, user: "default",
                                             mood: nil, seed: 1, clock: "2026-11-22T21:00:00+01:00", startedAt: "2026-11-22T21:00:00+01:00",
                                             completedAt: nil, status: .active))
        let at = "2026-11-22T21:00:00+01:00"
        let rows = ["water", "produce"].map {
            CelebrationRow(sessionID: "e1", user: "", step: "prep", tier: .tiny, reason: "prep_done", at: at, item: $0)
        } + [CelebrationRow(sessionID: "e1", user: "", step: "prep", tier: .medium, reason: "prep_two_done", at: at)]
        try store.recordAnswer(answer("e1", "prep", 0, .text("x")), activityDay: CalendarDay("2026-11-22"), celebrations: rows)
        // The same again (an answer recorded twice) adds nothing.
        try store.recordAnswer(answer("e1", "prep", 0, .text("x")), activityDay: CalendarDay("2026-11-22"), celebrations: rows)
        let stored = try store.celebrations(session: "e1")
        #expect(stored.map(\.item) == ["water", "produce", nil])
        #expect(stored.map(\.reason) == ["prep_done", "prep_done", "prep_two_done"])
        let doc = try store.export(at: "2026-11-23T08:00:00+01:00")
        let other = try temporaryStore()
        _ = try other.importDocument(try JSONDecoder().decode(ExportDocument.self, from: try JSONEncoder().encode(doc)))
        #expect(try other.celebrations(session: "e1").map(\.item) == ["water", "produce", nil])
    }
}

import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Migration v22: the other CHECKs on a closed set of three or more values
/// (`celebration.tier`, `prep_mark.mark`, `craving_note.type`,
/// `reply_rating.length`, `personalization_profile.tone` and
/// `response_length`) are written as comparisons, as v19 did for
/// `step_day.kind`: SQLite built a temporary b-tree of each list at every
/// insert and update of the row (a celebration is written in the answer's
/// own transaction). The rows are kept, AUTOINCREMENT counters too, and
/// each constraint still refuses any other value.
@Suite("Migration v22")
struct MigrationV22Tests {
    static let tables = ["celebration", "prep_mark", "craving_note", "reply_rating", "personalization_profile"]

    /// A v21 database (as the Reflect before this one left it) with a row
    /// or two in each table; the celebration and rating with the highest
    /// id were deleted (their ids must not be used again).
    func oldDatabase() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v21-\(UUID().uuidString).sqlite").path
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in try SearchText.register(db) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        let v21 = try #require(Migrations.identifiers.first { $0.hasPrefix("v21") })
        try Migrations.migrator.migrate(queue, upTo: v21)
        try queue.write { db in
            for (i, tier) in ["tiny", nil, "big", "medium"].enumerated() {
                try db.execute(sql: "INSERT INTO celebration (user, step, tier, reason, pool, line_index, line, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               arguments: ["ana", "s\(i)", tier, "r\(i)", "pool", i, "line \(i)", "2026-11-2\(i)T08:00:00Z"])
            }
            try db.execute(sql: "DELETE FROM celebration WHERE id = 4")
            try db.execute(sql: "INSERT INTO prep_mark (user, day, item_id, mark, session_id, marked_at) VALUES ('ana', '2026-11-20', 'water', 'partly', NULL, 't')")
            try db.execute(sql: "INSERT INTO craving_note (id, user, session_id, type, detail, day, at, text) VALUES ('c1', 'ana', NULL, 'physical', 'walk', '2026-11-20', 't', 'Tired')")
            for (i, length) in ["short", "long", "medium"].enumerated() {
                try db.execute(sql: "INSERT INTO reply_rating (user, target, target_id, rating, length, themes, at) VALUES ('ana', 'chat', ?, 'up', ?, '', 't')",
                               arguments: ["m\(i)", length])
            }
            try db.execute(sql: "DELETE FROM reply_rating WHERE id = 3")
            try db.execute(sql: """
                INSERT INTO personalization_profile (user, tone, response_length, preferred_actions, avoid_topics, updated_at)
                VALUES ('ana', 'cheerful', NULL, '', '', 't'), ('ben', NULL, 'long', 'walk', '', 't')
                """)
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 21)
        }
        try queue.close()
        return path
    }

    static func contents(_ db: Database) throws -> [String] {
        try tables.flatMap { table in
            // The columns v21 had (v25 adds the celebration's `item`).
            let columns = try db.columns(in: table).map(\.name).filter { !(table == "celebration" && $0 == "item") }.joined(separator: ", ")
            return try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(table) ORDER BY 1, 2").map { "\(table) \($0)" }
        }
    }

    /// Each table's INSERT and UPDATE of every column.
    static func writes(_ db: Database) throws -> [String] {
        try tables.flatMap { table -> [String] in
            let columns = try db.columns(in: table).map(\.name)
            return ["INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                    "UPDATE \(table) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE rowid = ?"]
        }
    }

    @Test("after the upgrade every row is kept, other values are still refused, and no write builds a temporary list")
    func upgrade() throws {
        let path = try oldDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        let before = try queue.read { db in try Self.contents(db) }
        // On a connection that can write (a read-only one compiles no checks).
        let slow = try queue.writeWithoutTransaction { db in try Self.writes(db).filter { try MigrationV19Tests.opensEphemeral($0, in: db) } }
        #expect(slow.count == 10, "v21: \(slow)")
        try queue.close()

        let store = try Store(path: path)
        let (version, after, slowAfter, leftovers, indexes) = try store.writer.writeWithoutTransaction { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version"), try Self.contents(db),
             try Self.writes(db).filter { try MigrationV19Tests.opensEphemeral($0, in: db) },
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE '%_v22'"),
             Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'")))
        }
        #expect(version == Migrations.schemaVersion)
        #expect(after == before)
        #expect(slowAfter == [])
        #expect(leftovers == [])
        #expect(indexes.isSuperset(of: ["celebration_user_pool", "craving_note_user_day"]))
        try store.writer.write { db in
            // Other values are refused (plain INSERTs: OR IGNORE would skip).
            let refused = [
                "INSERT INTO celebration (user, tier, reason, at) VALUES ('ana', 'huge', 'x', 't')",
                "INSERT INTO prep_mark (user, day, item_id, mark, marked_at) VALUES ('ana', '2026-11-21', 'w', 'maybe', 't')",
                "INSERT INTO craving_note (id, user, type, day, at, text) VALUES ('c2', 'ana', 'boredom', 'd', 't', 'x')",
                "INSERT INTO reply_rating (user, target, target_id, rating, length, themes, at) VALUES ('ana', 'chat', 'x', 'up', 'huge', '', 't')",
                "UPDATE personalization_profile SET tone = 'cold' WHERE user = 'ana'",
                "UPDATE personalization_profile SET response_length = 'endless' WHERE user = 'ben'",
            ]
            for sql in refused { #expect(throws: DatabaseError.self, "\(sql)") { try db.execute(sql: sql) } }
            // Every allowed value is taken; ids deleted before are not used again.
            for tier in ["tiny", "medium", "big"] {
                try db.execute(sql: "INSERT INTO celebration (user, tier, reason, at) VALUES ('ben', ?, ?, 't')", arguments: [tier, tier])
            }
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM celebration WHERE user = 'ben' ORDER BY id") == [5, 6, 7])
            try db.execute(sql: "INSERT INTO reply_rating (user, target, target_id, rating, length, themes, at) VALUES ('ben', 'chat', 'x', 'up', 'medium', '', 't')")
            #expect(try Int.fetchOne(db, sql: "SELECT id FROM reply_rating WHERE user = 'ben'") == 4)
            for mark in ["done", "partly", "skip"] {
                try db.execute(sql: "INSERT INTO prep_mark (user, day, item_id, mark, marked_at) VALUES ('ben', 'd', ?, ?, 't')", arguments: [mark, mark])
            }
            for type in ["stress", "habit", "physical", "other"] {
                try db.execute(sql: "INSERT INTO craving_note (id, user, type, day, at, text) VALUES (?, 'ben', ?, 'd', 't', 'x')", arguments: [type, type])
            }
            for tone in ["warm", "direct", "cheerful", "neutral"] {
                try db.execute(sql: "UPDATE personalization_profile SET tone = ? WHERE user = 'ben'", arguments: [tone])
            }
            try db.execute(sql: "UPDATE personalization_profile SET tone = NULL, response_length = 'short' WHERE user = 'ana'")
        }
    }
}

import GRDB

/// The schema, as versioned migrations. Never edit a shipped migration:
/// add a new one.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.create(table: "session") { t in
                t.primaryKey("id", .text)
                t.column("flow_id", .text).notNull().indexed()
                t.column("flow_version", .integer).notNull()
                t.column("locale", .text).notNull()
                t.column("personality", .text)
                t.column("user", .text).notNull().indexed()
                t.column("mood", .text)
                t.column("seed", .integer).notNull()
                t.column("clock", .text).notNull()
                t.column("started_at", .text).notNull()
                t.column("completed_at", .text)
                t.column("status", .text).notNull().check { ["active", "completed"].contains($0) }
                t.column("pre", .integer)
                t.column("post", .integer)
            }
            try db.create(table: "answer") { t in
                t.column("session_id", .text).notNull().references("session", onDelete: .cascade)
                t.column("step", .text).notNull()
                t.column("position", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("question", .text).notNull()
                t.column("value", .text).notNull()
                t.column("state", .text).notNull().check { ["answer", "draft"].contains($0) }
                t.column("answered_at", .text).notNull()
                t.primaryKey(["session_id", "step"])
            }
            try db.create(table: "distortion") { t in
                t.column("session_id", .text).notNull().references("session", onDelete: .cascade)
                t.column("step", .text).notNull()
                t.column("type", .text).notNull()
                t.column("detected_at", .text).notNull()
                t.primaryKey(["session_id", "step"])
            }
            try db.create(table: "session_event") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("session_id", .text).notNull().indexed().references("session", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.column("step", .text).notNull()
                t.column("category", .text)
                t.column("at", .text).notNull()
            }
            try db.create(table: "mood_entry") { t in
                t.column("user", .text).notNull()
                t.column("day", .text).notNull()
                t.column("mood", .text).notNull()
                t.column("note", .text)
                t.column("source", .text).notNull()
                t.column("session_id", .text)
                t.column("created_at", .text).notNull()
                t.column("updated_at", .text).notNull()
                t.primaryKey(["user", "day"])
            }
            // Ready for the coach and experiments (written by later features).
            try db.create(table: "celebration") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("session_id", .text).references("session", onDelete: .cascade)
                t.column("user", .text).notNull()
                t.column("tier", .text).notNull().check { ["tiny", "medium", "big"].contains($0) }
                t.column("reason", .text).notNull()
                t.column("at", .text).notNull()
            }
            try db.create(table: "achievement") { t in
                t.column("user", .text).notNull()
                t.column("key", .text).notNull()
                t.column("achieved_at", .text).notNull()
                t.primaryKey(["user", "key"])
            }
            try db.create(table: "experiment_exposure") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user", .text).notNull()
                t.column("experiment", .text).notNull()
                t.column("variant", .text).notNull()
                t.column("session_id", .text).references("session", onDelete: .setNull)
                t.column("at", .text).notNull()
                t.uniqueKey(["user", "experiment", "session_id"])
            }
        }
        m.registerMigration("v2: answer safety flag") { db in
            try db.alter(table: "answer") { t in t.add(column: "safety", .text) }
        }
        return m
    }
}

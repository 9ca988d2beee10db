import GRDB

/// The schema, as versioned migrations. Never edit a shipped migration:
/// add a new one, and have it set `PRAGMA user_version` to its number
/// (``schemaVersion``), so that an older Reflect refuses the database
/// instead of writing into a schema it does not know.
///
/// Migrating is safe when several processes first-use one database at
/// once: GRDB runs each migration in its own `BEGIN IMMEDIATE`
/// transaction, and every migration here first checks, inside that
/// transaction (so under the write lock), that no other process applied it
/// since the migrator looked. If one did, the transaction rolls back
/// (``AppliedElsewhere``) and ``migrate(_:)`` looks again.
enum Migrations {
    /// The `user_version` the last migration sets.
    static let schemaVersion = 25

    /// Every migration identifier, in order.
    static let identifiers: [String] = migrator.migrations

    /// The tables the migrations create.
    static let tables: Set<String> = ["session", "answer", "distortion", "session_event", "mood_entry", "celebration",
                                      "achievement", "experiment_exposure", "generated_text",
                                      "setting", "prep_item", "prep_mark", "craving_note", "experiment_assignment",
                                      "showed_up_day", "step_day", "day_set", "achievement_reset",
                                      "answer_theme",
                                      "chat_message",
                                      "entry_text", "entry_search", "reply_rating", "personalization_profile",
                                      "digest_narration", "entry_pending"]

    /// The full-text indexes among ``tables`` (FTS5 virtual tables). FTS5
    /// keeps each one's data in shadow tables it creates and owns
    /// (``shadowTables``): they are part of the schema but not listed in
    /// ``tables``, are never written or emptied by Reflect directly, and an
    /// empty index still has rows in them (its structure).
    static let searchIndexes: Set<String> = ["entry_search"]

    /// FTS5's shadow tables of ``searchIndexes`` (an external-content index
    /// has no `_content` table).
    static let shadowTables: Set<String> = Set(searchIndexes.flatMap { index in
        ["data", "idx", "docsize", "config"].map { "\(index)_\($0)" }
    })

    /// Thrown inside a migration's transaction when another process applied
    /// it first: the transaction rolls back and the migrator looks again.
    struct AppliedElsewhere: Error {}

    /// Runs the pending migrations, each exclusively (see the type's doc).
    static func migrate(_ writer: any DatabaseWriter) throws {
        let m = migrator
        // Each retry means another process applied at least one migration.
        for _ in 0...m.migrations.count {
            do {
                try m.migrate(writer)
                return
            } catch is AppliedElsewhere {
                continue
            }
        }
        try m.migrate(writer)
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        func register(_ id: String, _ body: @escaping @Sendable (Database) throws -> Void) {
            m.registerMigration(id) { db in
                // In GRDB's BEGIN IMMEDIATE transaction: this process holds the write lock.
                if try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier = ?", arguments: [id]) != nil {
                    throw AppliedElsewhere()
                }
                try body(db)
            }
        }
        register("v1") { db in
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
        register("v2: answer safety flag") { db in
            try db.alter(table: "answer") { t in t.add(column: "safety", .text) }
        }
        register("v3: application id and schema version") { db in
            // Lets any Reflect recognise its own databases, and refuse newer ones, before writing.
            try db.execute(sql: "PRAGMA application_id = \(DatabaseIdentity.applicationID)")
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        register("v4: facts snapshot and generated texts") { db in
            // What a session's replay needs beyond its answers (UserFacts,
            // GeneratedText in the engine's save).
            try db.alter(table: "session") { t in t.add(column: "facts", .text) }
            try db.create(table: "generated_text") { t in
                t.column("session_id", .text).notNull().references("session", onDelete: .cascade)
                t.column("request", .text).notNull()
                t.column("text", .text).notNull()
                t.column("generated", .boolean).notNull()
                t.column("basis", .text).notNull()
                t.column("at", .text).notNull()
                t.primaryKey(["session_id", "request"])
            }
            try db.execute(sql: "PRAGMA user_version = 4")
        }
        register("v5: coach settings, prep library, prep marks, craving notes") { db in
            // A person's settings, one row per key (typed `Settings` in the core).
            try db.create(table: "setting") { t in
                t.column("user", .text).notNull()
                t.column("key", .text).notNull()
                t.column("value", .text).notNull()
                t.column("updated_at", .text).notNull()
                t.primaryKey(["user", "key"])
            }
            // The Prep Library: default items (text NULL: the locale's text)
            // and custom ones (the person's literal text).
            try db.create(table: "prep_item") { t in
                t.column("user", .text).notNull()
                t.column("id", .text).notNull()
                t.column("text", .text)
                t.column("core", .boolean).notNull()
                t.column("position", .integer).notNull()
                t.column("archived_at", .text)
                t.column("hidden_on", .text)
                t.column("created_at", .text).notNull()
                t.column("updated_at", .text).notNull()
                t.primaryKey(["user", "id"])
            }
            // Evening marks, belonging to the logical day they were made on.
            try db.create(table: "prep_mark") { t in
                t.column("user", .text).notNull()
                t.column("day", .text).notNull()
                t.column("item_id", .text).notNull()
                t.column("mark", .text).notNull().check { ["done", "partly", "skip"].contains($0) }
                t.column("session_id", .text)
                t.column("marked_at", .text).notNull()
                t.primaryKey(["user", "day", "item_id"])
            }
            try db.create(table: "craving_note") { t in
                t.primaryKey("id", .text)
                t.column("user", .text).notNull()
                t.column("session_id", .text)
                t.column("type", .text).notNull().check { ["stress", "habit", "physical", "other"].contains($0) }
                t.column("detail", .text)
                t.column("day", .text).notNull()
                t.column("at", .text).notNull()
                t.column("text", .text).notNull()
            }
            try db.create(index: "craving_note_user_day", on: "craving_note", columns: ["user", "day"])
            try db.execute(sql: "PRAGMA user_version = 5")
        }
        register("v6: experiments") { db in
            // The session's arms (the engine's SessionSave.variants, JSON),
            // sticky assignments per person, and what the report needs on
            // each exposure row (the session's outcome, kept current when it
            // completes) so that it reads one covering index.
            try db.alter(table: "session") { t in t.add(column: "variants", .text) }
            try db.alter(table: "experiment_exposure") { t in
                t.add(column: "completed", .boolean).notNull().defaults(to: false)
                t.add(column: "intensity_change", .integer)
                t.add(column: "returned", .boolean).notNull().defaults(to: false)
            }
            try db.execute(sql: """
                UPDATE experiment_exposure SET
                    completed = COALESCE((SELECT status = 'completed' FROM session WHERE id = session_id), 0),
                    intensity_change = (SELECT CASE WHEN status = 'completed' AND pre IS NOT NULL AND post IS NOT NULL THEN pre - post END
                                        FROM session WHERE id = session_id),
                    returned = \(Store.cameBackSQL(user: "experiment_exposure.user", session: "experiment_exposure.session_id",
                                                   at: "experiment_exposure.at"))
                """)
            try db.create(table: "experiment_assignment") { t in
                t.column("user", .text).notNull()
                t.column("experiment", .text).notNull()
                t.column("bucket_version", .integer).notNull()
                t.column("variant", .text).notNull()
                t.column("assigned_at", .text).notNull()
                t.primaryKey(["user", "experiment", "bucket_version"])
            }
            try db.create(index: "experiment_exposure_report", on: "experiment_exposure",
                          columns: ["experiment", "user", "variant", "completed", "intensity_change", "returned"])
            try db.create(index: "experiment_exposure_session", on: "experiment_exposure", columns: ["session_id"])
            try db.execute(sql: "PRAGMA user_version = 6")
        }
        register("v7: indexes for a person's sessions by start") { db in
            // `history` (a person's sessions, newest first) and every `run`
            // (a person's unfinished sessions of a flow) read an index range
            // instead of sorting all sessions: independent of history size.
            try db.create(index: "session_user_started", on: "session", columns: ["user", "started_at"], ifNotExists: true)
            try db.create(index: "session_user_status_started", on: "session", columns: ["user", "status", "started_at"], ifNotExists: true)
            try db.execute(sql: "PRAGMA user_version = 7")
        }
        register("v8: progress (showed-up days, step days, celebrations once)") { db in
            // Streaks read these, never the answers (docs/progress.md):
            // one row per person and day, and per flow, step, kind and day,
            // days as integers (days since 1970-01-01), the key is the index.
            try db.execute(sql: """
                CREATE TABLE showed_up_day (user TEXT NOT NULL, day INTEGER NOT NULL, PRIMARY KEY (user, day)) WITHOUT ROWID
                """)
            try db.execute(sql: """
                CREATE TABLE step_day (user TEXT NOT NULL, flow TEXT NOT NULL, step TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('saved', 'positive', 'completed', 'logged')), day INTEGER NOT NULL,
                    PRIMARY KEY (user, flow, step, kind, day)) WITHOUT ROWID
                """)
            // "Reset achievements": achievements count only what came after this day.
            try db.execute(sql: "CREATE TABLE achievement_reset (user TEXT NOT NULL PRIMARY KEY, day INTEGER NOT NULL)")
            // v1's celebration table (never written before this) is rebuilt:
            // the step whose answer earned it, no tier for a line alone, the
            // pool line shown, and once per session, step and reason.
            try db.execute(sql: """
                CREATE TABLE celebration_v8 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id TEXT REFERENCES session(id) ON DELETE CASCADE,
                    user TEXT NOT NULL,
                    step TEXT,
                    tier TEXT CHECK (tier IN ('tiny', 'medium', 'big')),
                    reason TEXT NOT NULL,
                    pool TEXT,
                    line_index INTEGER,
                    line TEXT,
                    at TEXT NOT NULL,
                    UNIQUE (session_id, step, reason))
                """)
            try db.execute(sql: "INSERT INTO celebration_v8 (id, session_id, user, tier, reason, at) SELECT id, session_id, user, tier, reason, at FROM celebration")
            try db.execute(sql: "DROP TABLE celebration")
            try db.execute(sql: "ALTER TABLE celebration_v8 RENAME TO celebration")
            try db.execute(sql: "CREATE INDEX celebration_user_pool ON celebration (user, pool, id)")
            try db.execute(sql: "PRAGMA user_version = 8")
        }
        register("v9: journal themes per answer (auto-tagging)") { db in
            // The themes each answer mentions (`Theme` raw values), for
            // moments, insights (tag × mood) and the weekly letter.
            try db.create(table: "answer_theme") { t in
                t.column("session_id", .text).notNull().references("session", onDelete: .cascade)
                t.column("step", .text).notNull()
                t.column("theme", .text).notNull()
                t.primaryKey(["session_id", "step", "theme"])
            }
            try db.create(index: "answer_theme_theme", on: "answer_theme", columns: ["theme"])
            try db.execute(sql: "PRAGMA user_version = 9")
        }
        register("v10: coach chat history") { db in
            // `reflect chat` messages, the person's and the coach's, as shown.
            try db.create(table: "chat_message") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("chat_id", .text).notNull()
                t.column("position", .integer).notNull()
                t.column("user", .text).notNull()
                t.column("role", .text).notNull().check { ["person", "coach"].contains($0) }
                t.column("mode", .text).notNull()
                t.column("text", .text).notNull()
                t.column("generated", .boolean).notNull()
                t.column("safety", .text)
                t.column("at", .text).notNull()
                t.uniqueKey(["chat_id", "position"])
            }
            try db.create(index: "chat_message_user_at", on: "chat_message", columns: ["user", "at"])
            try db.execute(sql: "PRAGMA user_version = 10")
        }
        register("v11: indexes for a person's sessions by day and by flow") { db in
            // Every `run` reads the person's sessions of its logical day (by
            // the session clock's local date) and whether they ever ran the
            // flow: index ranges and probes instead of a scan of all their
            // sessions, so starting costs the same with 100,000 stored.
            try db.create(index: "session_user_clock", on: "session", columns: ["user", "clock"], ifNotExists: true)
            try db.create(index: "session_user_flow", on: "session", columns: ["user", "flow_id"], ifNotExists: true)
            try db.execute(sql: "PRAGMA user_version = 11")
        }
        register("v12: option labels as shown; sessions set aside when their flow changed") { db in
            // The options a choice or checklist offered, as shown (id and
            // label, in the flow's order), so an answer reads as it was given.
            try db.alter(table: "answer") { t in t.add(column: "options", .text) }
            // A session whose flow changed under it, set aside by the person
            // starting anew: kept and readable, never resumed.
            try db.alter(table: "session") { t in t.add(column: "set_aside_at", .text) }
            try db.execute(sql: "PRAGMA user_version = 12")
        }
        register("v13: related entries search, recalled entries, personalization profile") { db in
            // The person's own free-text answers, as the related-entries
            // search indexes them (docs/journal.md, "Related past entries"):
            // one row per answer that is kept (not a draft, not skipped) and
            // not flagged by the safety gate, so a flagged answer can never
            // be found, let alone quoted back. `body` is the answer's text
            // in indexed form (`reflect_search_text`, SearchText.swift).
            // Kept in step with `answer` on every write path (answer, edit,
            // back, import, delete an entry, delete all): below.
            try db.execute(sql: """
                CREATE TABLE entry_text (
                    id INTEGER PRIMARY KEY,
                    session_id TEXT NOT NULL,
                    step TEXT NOT NULL,
                    body TEXT NOT NULL,
                    UNIQUE (session_id, step))
                """)
            // External content: the index holds tokens only, the text is
            // entry_text's; `unicode61 remove_diacritics 2` folds case and
            // accents as the theme and distortion lists do.
            try db.execute(sql: """
                CREATE VIRTUAL TABLE entry_search USING fts5(
                    body, content = 'entry_text', content_rowid = 'id',
                    tokenize = 'unicode61 remove_diacritics 2')
                """)
            try db.execute(sql: """
                CREATE TRIGGER entry_text_insert AFTER INSERT ON entry_text BEGIN
                    INSERT INTO entry_search (rowid, body) VALUES (new.id, new.body);
                END
                """)
            try db.execute(sql: """
                CREATE TRIGGER entry_text_delete AFTER DELETE ON entry_text BEGIN
                    INSERT INTO entry_search (entry_search, rowid, body) VALUES ('delete', old.id, old.body);
                END
                """)
            // An answer leaves the index when it is changed or deleted (by
            // any tool: these triggers call nothing but SQL); it enters it
            // through the store's writes (`Store.indexAnswers`, which calls
            // `reflect_search_text`), so a tool that edits `answer` without
            // Reflect can only take entries out, never break a write.
            try db.execute(sql: """
                CREATE TRIGGER answer_search_update AFTER UPDATE OF session_id, step, kind, value, state, safety ON answer BEGIN
                    DELETE FROM entry_text WHERE session_id = old.session_id AND step = old.step;
                END
                """)
            try db.execute(sql: """
                CREATE TRIGGER answer_search_delete AFTER DELETE ON answer BEGIN
                    DELETE FROM entry_text WHERE session_id = old.session_id AND step = old.step;
                END
                """)
            try db.execute(sql: """
                INSERT INTO entry_text (session_id, step, body)
                    SELECT session_id, step, reflect_search_text(value) FROM answer
                    WHERE state = 'answer' AND safety IS NULL AND kind = 'text' AND reflect_search_text(value) IS NOT NULL
                    ORDER BY rowid
                """)
            // The related entries a session showed (`s:related`, the engine's
            // SessionSave.recalled, JSON), replayed on resume.
            try db.alter(table: "session") { t in t.add(column: "recalled", .text) }
            // 👍 / 👎 on a coach's reply, and the profile they shape
            // (docs/journal.md, "Personalization profile").
            try db.create(table: "reply_rating") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user", .text).notNull()
                t.column("target", .text).notNull().check { ["chat", "session"].contains($0) }
                t.column("target_id", .text).notNull()
                t.column("rating", .text).notNull().check { ["up", "down"].contains($0) }
                t.column("length", .text).notNull().check { ["short", "medium", "long"].contains($0) }
                t.column("themes", .text).notNull()
                t.column("action", .text)
                t.column("at", .text).notNull()
                t.uniqueKey(["user", "target", "target_id"])
            }
            try db.create(table: "personalization_profile") { t in
                t.primaryKey("user", .text)
                // The person's own choices (NULL: not chosen); the profile is
                // these with the ratings since applied (PersonalizationProfile).
                t.column("tone", .text).check { $0 == nil || ["warm", "direct", "cheerful", "neutral"].contains($0) }
                t.column("response_length", .text).check { $0 == nil || ["short", "medium", "long"].contains($0) }
                t.column("preferred_actions", .text).notNull()
                t.column("avoid_topics", .text).notNull()
                t.column("updated_at", .text).notNull()
            }
            try db.execute(sql: "PRAGMA user_version = 13")
        }
        register("v14: answers keyed by session and step alone; achievements recorded for every stored history") { db in
            // The answer row is the durable write before every next prompt.
            // A rowid table kept its (session_id, step) key as a second
            // b-tree, so each answer wrote both to the log; keyed WITHOUT
            // ROWID, the row is stored in its key's b-tree: one page less
            // per answer (BENCHMARKS.md). Same columns, checks and foreign
            // key. The related-entries triggers are dropped with the old
            // table and made again on the new one, as v13 made them.
            try db.execute(sql: "DROP TRIGGER IF EXISTS answer_search_update")
            try db.execute(sql: "DROP TRIGGER IF EXISTS answer_search_delete")
            try db.execute(sql: """
                CREATE TABLE answer_v14 (
                    session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                    step TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    question TEXT NOT NULL,
                    value TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('answer', 'draft')),
                    answered_at TEXT NOT NULL,
                    safety TEXT,
                    options TEXT,
                    PRIMARY KEY (session_id, step)) WITHOUT ROWID
                """)
            try db.execute(sql: """
                INSERT INTO answer_v14 (session_id, step, position, kind, question, value, state, answered_at, safety, options)
                    SELECT session_id, step, position, kind, question, value, state, answered_at, safety, options FROM answer
                """)
            try db.execute(sql: "DROP TABLE answer")
            try db.execute(sql: "ALTER TABLE answer_v14 RENAME TO answer")
            try db.execute(sql: """
                CREATE TRIGGER answer_search_update AFTER UPDATE OF session_id, step, kind, value, state, safety ON answer BEGIN
                    DELETE FROM entry_text WHERE session_id = old.session_id AND step = old.step;
                END
                """)
            try db.execute(sql: """
                CREATE TRIGGER answer_search_delete AFTER DELETE ON answer BEGIN
                    DELETE FROM entry_text WHERE session_id = old.session_id AND step = old.step;
                END
                """)
            // Achievements are now worked out from the days around each new
            // one (Store.markActivity), which needs every stored history to
            // have what it earned recorded: an import could leave that
            // undone until the next new day. Done once here, for everyone.
            try Store.recordAllAchievements(layout: .beforeV21, in: db)
            try db.execute(sql: "PRAGMA user_version = 14")
        }
        register("v15: the weekly digest's narration, kept by the data it was made from") { db in
            // One narration per person and week, reused only for the same
            // basis (DigestNarration.basis). It quotes the person's words, so
            // it goes when any of its sources is changed or deleted: a
            // session, an answer, a mood entry of that person.
            try db.execute(sql: """
                CREATE TABLE digest_narration (
                    user TEXT NOT NULL,
                    week TEXT NOT NULL,
                    basis TEXT NOT NULL,
                    text TEXT NOT NULL,
                    made_at TEXT NOT NULL,
                    PRIMARY KEY (user, week)) WITHOUT ROWID
                """)
            try db.execute(sql: """
                CREATE TRIGGER digest_narration_session_delete AFTER DELETE ON session BEGIN
                    DELETE FROM digest_narration WHERE user = old.user;
                END
                """)
            try db.execute(sql: """
                CREATE TRIGGER digest_narration_answer_update AFTER UPDATE OF value, state, safety ON answer BEGIN
                    DELETE FROM digest_narration WHERE user = (SELECT user FROM session WHERE id = old.session_id);
                END
                """)
            try db.execute(sql: """
                CREATE TRIGGER digest_narration_answer_delete AFTER DELETE ON answer BEGIN
                    DELETE FROM digest_narration WHERE user = (SELECT user FROM session WHERE id = old.session_id);
                END
                """)
            try db.execute(sql: """
                CREATE TRIGGER digest_narration_mood_update AFTER UPDATE ON mood_entry BEGIN
                    DELETE FROM digest_narration WHERE user = old.user;
                END
                """)
            try db.execute(sql: """
                CREATE TRIGGER digest_narration_mood_delete AFTER DELETE ON mood_entry BEGIN
                    DELETE FROM digest_narration WHERE user = old.user;
                END
                """)
            try db.execute(sql: "PRAGMA user_version = 15")
        }
        register("v16: the related-entries index catches up after the answer, not in its transaction") { db in
            // Sessions with answers written since the related-entries index
            // last caught up (Store+SearchCatchUp.swift): the answer's
            // durable transaction records its session here (`INSERT OR
            // IGNORE`: no page written when it already is), and the index
            // catches up in one transaction at the end of the run and before
            // any search. Derived data only: the answers are the truth.
            try db.execute(sql: "CREATE TABLE entry_pending (session_id TEXT PRIMARY KEY) WITHOUT ROWID")
            // An answer's themes are those auto-tagging found in its value:
            // a changed value (an edit, which the answer's write upserts) or
            // state (going back) removes them, so a first answer's write
            // does not look for earlier ones; the write inserts the new ones.
            try db.execute(sql: """
                CREATE TRIGGER answer_theme_update AFTER UPDATE OF session_id, step, value, state ON answer BEGIN
                    DELETE FROM answer_theme WHERE session_id = old.session_id AND step = old.step;
                END
                """)
            try db.execute(sql: "PRAGMA user_version = 16")
        }
        register("v17: answers the old search function left out of the related-entries index are indexed") { db in
            // Before the indexed form read a stored value's first byte
            // (SearchText.decodedJSONStringInFull), it compared the first
            // Character with a quote: a text starting with a combining mark,
            // a zero-width joiner or a skin-tone modifier makes one Character
            // with the quote, so the v13 backfill and every import left such
            // an answer out of the index, and nothing adds it later (the
            // catch-up looks only at sessions written since). Every kept,
            // unflagged free-text answer without an index row is indexed
            // now, as a full rebuild would: rows that exist always match
            // their answers (the triggers), so only missing ones are added,
            // in one transaction (one FTS5 segment); the answers that
            // already have a row cost one probe each.
            try db.execute(sql: """
                WITH missing AS MATERIALIZED (
                    SELECT a.session_id, a.step, a.position, \(SearchText.sqlName)(a.value) AS body
                    FROM answer a
                    WHERE a.state = 'answer' AND a.safety IS NULL AND a.kind = 'text'
                      AND NOT EXISTS (SELECT 1 FROM entry_text t WHERE t.session_id = a.session_id AND t.step = a.step)
                )
                INSERT INTO entry_text (session_id, step, body)
                    SELECT session_id, step, body FROM missing WHERE body IS NOT NULL
                    ORDER BY session_id, position, step
                """)
            try db.execute(sql: "PRAGMA user_version = 17")
        }
        register("v19: a step day's kind is checked by comparisons, not a list SQLite builds at every insert") { db in
            // SQLite evaluates a CHECK `kind IN (…)` of three or more values
            // by building a temporary b-tree of the list at every insert
            // (OpenEphemeral): about 32k instructions, three times the row's
            // own insert, in every journalled answer's transaction. The same
            // constraint written as comparisons costs a few instructions.
            // SQLite cannot change a CHECK in place: the table is made
            // again, its rows copied (nothing refers to it; no index or
            // trigger of its own).
            try db.execute(sql: """
                CREATE TABLE step_day_v19 (user TEXT NOT NULL, flow TEXT NOT NULL, step TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind = 'saved' OR kind = 'positive' OR kind = 'completed' OR kind = 'logged'),
                    day INTEGER NOT NULL,
                    PRIMARY KEY (user, flow, step, kind, day)) WITHOUT ROWID
                """)
            try db.execute(sql: "INSERT INTO step_day_v19 (user, flow, step, kind, day) SELECT user, flow, step, kind, day FROM step_day")
            try db.execute(sql: "DROP TABLE step_day")
            try db.execute(sql: "ALTER TABLE step_day_v19 RENAME TO step_day")
            try db.execute(sql: "PRAGMA user_version = 19")
        }
        register("v20: what was stored before v8 counts for its days (streaks, achievements)") { db in
            // v8 made the showed-up and step days without deriving any from
            // the rows already stored: sessions, mood entries, prep marks and
            // craving notes from before it never counted. They are marked
            // now as each live write marks its days (Store+ActivityBackfill.swift);
            // what rows written since already marked is there, and stays.
            // Its days get their running figures from v21, which
            // computes them for every stored day.
            try Store.markStoredActivity(in: db, layout: .beforeV21)
            try db.execute(sql: "PRAGMA user_version = 20")
        }
        register("v21: showed-up and step days keep their running count and streaks, so a session's progress facts do not read the history") { db in
            // Per set of days (a person's showed-up days; a person's days of
            // a flow's step and kind), each row's `nth` (days up to and
            // including it), `run` (consecutive days ending on it) and
            // `best` (the longest run up to it): Store+DayRuns.swift. Every
            // write keeps them (Store.insertDay); computed here for what is stored.
            for table in ["showed_up_day", "step_day"] {
                for column in ["nth", "run", "best"] {
                    try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column) INTEGER NOT NULL DEFAULT 0")
                }
            }
            try Store.renumberAllDaysBeforeV24(in: db)
            try db.execute(sql: "PRAGMA user_version = 21")
        }
        register("v22: the other closed sets of values are checked by comparisons, not lists SQLite builds at every write") { db in
            // As v19 did for `step_day.kind`: a CHECK `col IN (…)` of three
            // or more values makes SQLite build a temporary b-tree of the
            // list at every insert and update of the row (about 32k
            // instructions; a celebration is written in the answer's own
            // transaction). The same constraints as comparisons; each table
            // is made again with the same columns, keys, foreign key and
            // indexes, its rows (and its AUTOINCREMENT counter) kept.
            func rebuild(_ table: String, _ create: String, indexes: [String] = []) throws {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { "\"\($0["name"] as String)\"" }
                    .joined(separator: ", ")
                let sequence = try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
                try db.execute(sql: create.replacingOccurrences(of: "@TABLE@", with: "\(table)_v22"))
                try db.execute(sql: "INSERT INTO \(table)_v22 (\(columns)) SELECT \(columns) FROM \(table)")
                try db.execute(sql: "DROP TABLE \(table)")
                try db.execute(sql: "ALTER TABLE \(table)_v22 RENAME TO \(table)")
                if let sequence {
                    // (The renamed table's counter, when it copied rows; else none yet.)
                    try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = ? AND seq < ?", arguments: [table, sequence])
                    try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)",
                                   arguments: [table, sequence, table])
                }
                for index in indexes { try db.execute(sql: index) }
            }
            try rebuild("celebration", """
                CREATE TABLE @TABLE@ (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id TEXT REFERENCES session(id) ON DELETE CASCADE,
                    user TEXT NOT NULL,
                    step TEXT,
                    tier TEXT CHECK (tier = 'tiny' OR tier = 'medium' OR tier = 'big'),
                    reason TEXT NOT NULL,
                    pool TEXT,
                    line_index INTEGER,
                    line TEXT,
                    at TEXT NOT NULL,
                    UNIQUE (session_id, step, reason))
                """, indexes: ["CREATE INDEX celebration_user_pool ON celebration (user, pool, id)"])
            try rebuild("prep_mark", """
                CREATE TABLE @TABLE@ ("user" TEXT NOT NULL, "day" TEXT NOT NULL, "item_id" TEXT NOT NULL,
                    "mark" TEXT NOT NULL CHECK ("mark" = 'done' OR "mark" = 'partly' OR "mark" = 'skip'),
                    "session_id" TEXT, "marked_at" TEXT NOT NULL, PRIMARY KEY ("user", "day", "item_id"))
                """)
            try rebuild("craving_note", """
                CREATE TABLE @TABLE@ ("id" TEXT PRIMARY KEY NOT NULL, "user" TEXT NOT NULL, "session_id" TEXT,
                    "type" TEXT NOT NULL CHECK ("type" = 'stress' OR "type" = 'habit' OR "type" = 'physical' OR "type" = 'other'),
                    "detail" TEXT, "day" TEXT NOT NULL, "at" TEXT NOT NULL, "text" TEXT NOT NULL)
                """, indexes: [#"CREATE INDEX "craving_note_user_day" ON "craving_note"("user", "day")"#])
            try rebuild("reply_rating", """
                CREATE TABLE @TABLE@ ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user" TEXT NOT NULL,
                    "target" TEXT NOT NULL CHECK ("target" IN ('chat', 'session')), "target_id" TEXT NOT NULL,
                    "rating" TEXT NOT NULL CHECK ("rating" IN ('up', 'down')),
                    "length" TEXT NOT NULL CHECK ("length" = 'short' OR "length" = 'medium' OR "length" = 'long'),
                    "themes" TEXT NOT NULL, "action" TEXT, "at" TEXT NOT NULL, UNIQUE ("user", "target", "target_id"))
                """)
            try rebuild("personalization_profile", """
                CREATE TABLE @TABLE@ ("user" TEXT PRIMARY KEY NOT NULL,
                    "tone" TEXT CHECK ("tone" IS NULL OR "tone" = 'warm' OR "tone" = 'direct' OR "tone" = 'cheerful' OR "tone" = 'neutral'),
                    "response_length" TEXT CHECK ("response_length" IS NULL OR "response_length" = 'short' OR "response_length" = 'medium'
                                                  OR "response_length" = 'long'),
                    "preferred_actions" TEXT NOT NULL, "avoid_topics" TEXT NOT NULL, "updated_at" TEXT NOT NULL)
                """)
            try db.execute(sql: "PRAGMA user_version = 22")
        }
        register("v23: a sticky experiment arm records the seed it was chosen under, so a new seed re-randomizes everyone") { db in
            // NULL for arms stored before: they hold under any seed.
            try db.execute(sql: "ALTER TABLE experiment_assignment ADD COLUMN seed TEXT")
            try db.execute(sql: "PRAGMA user_version = 23")
        }
        register("v24: a step's days are keyed by an integer id of their set, so an answer costs the same after ten years of use") { db in
            // `step_day` was keyed by (user, flow, step, kind, day): every
            // level of its b-tree compared up to four texts again, and a
            // journalled answer reads a set's last day and inserts one (a
            // ten-year history made the answer ≈ 8k instructions dearer).
            // `day_set` gives each person's flow, step and kind an id (its
            // kind checked as v19 did); `step_day` is keyed by (set_id, day)
            // with the same running figures (v21), copied unchanged. A
            // set's row is made with its first day (Store.insertDay) and
            // removed only by a delete-all.
            try db.execute(sql: """
                CREATE TABLE day_set (id INTEGER PRIMARY KEY, user TEXT NOT NULL, flow TEXT NOT NULL, step TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind = 'saved' OR kind = 'positive' OR kind = 'completed' OR kind = 'logged'),
                    UNIQUE (user, flow, step, kind))
                """)
            try db.execute(sql: """
                INSERT INTO day_set (user, flow, step, kind)
                SELECT user, flow, step, kind FROM step_day GROUP BY user, flow, step, kind ORDER BY user, flow, step, kind
                """)
            try db.execute(sql: """
                CREATE TABLE step_day_v24 (set_id INTEGER NOT NULL, day INTEGER NOT NULL,
                    nth INTEGER NOT NULL DEFAULT 0, run INTEGER NOT NULL DEFAULT 0, best INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (set_id, day)) WITHOUT ROWID
                """)
            try db.execute(sql: """
                INSERT INTO step_day_v24 (set_id, day, nth, run, best)
                SELECT s.id, d.day, d.nth, d.run, d.best FROM step_day d
                JOIN day_set s ON s.user = d.user AND s.flow = d.flow AND s.step = d.step AND s.kind = d.kind
                """)
            try db.execute(sql: "DROP TABLE step_day")
            try db.execute(sql: "ALTER TABLE step_day_v24 RENAME TO step_day")
            try db.execute(sql: "PRAGMA user_version = 24")
        }
        register("v25: a celebration may be one checklist item's (one tiny celebration per prep item marked Done)") { db in
            // `item`: the checklist item whose mark earned it, '' for none
            // (not NULL, so that once per session, step, reason and item
            // stays a UNIQUE SQLite enforces). The table is made again with
            // the new column and key, its rows and AUTOINCREMENT counter kept.
            let sequence = try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'celebration'")
            try db.execute(sql: """
                CREATE TABLE celebration_v25 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id TEXT REFERENCES session(id) ON DELETE CASCADE,
                    user TEXT NOT NULL,
                    step TEXT,
                    tier TEXT CHECK (tier = 'tiny' OR tier = 'medium' OR tier = 'big'),
                    reason TEXT NOT NULL,
                    pool TEXT,
                    line_index INTEGER,
                    line TEXT,
                    at TEXT NOT NULL,
                    item TEXT NOT NULL DEFAULT '',
                    UNIQUE (session_id, step, reason, item))
                """)
            try db.execute(sql: """
                INSERT INTO celebration_v25 (id, session_id, user, step, tier, reason, pool, line_index, line, at)
                SELECT id, session_id, user, step, tier, reason, pool, line_index, line, at FROM celebration
                """)
            try db.execute(sql: "DROP TABLE celebration")
            try db.execute(sql: "ALTER TABLE celebration_v25 RENAME TO celebration")
            if let sequence {
                try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'celebration' AND seq < ?", arguments: [sequence])
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) SELECT 'celebration', ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'celebration')",
                               arguments: [sequence])
            }
            try db.execute(sql: "CREATE INDEX celebration_user_pool ON celebration (user, pool, id)")
            try db.execute(sql: "PRAGMA user_version = 25")
        }
        return m
    }
}

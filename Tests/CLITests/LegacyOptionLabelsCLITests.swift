import Foundation
import GRDB
import Testing

/// Sessions stored before schema v12 kept a choice's or checklist's ids,
/// not the options it offered: `reflect show` and the CSV export read them
/// by the labels of the flow as it is now (replaying the session on it),
/// say so, and say when the option or the flow no longer exists.
@Suite("Answers stored before v12: option labels", .hangGuard)
struct LegacyOptionLabelsCLITests {
    static let flow = """
        return flow {
          id = "test.labels", version = 1,
          run = function(s)
            s:choose { id = "pick", text = "Which one?", options = {
              { id = "walk", text = "A short walk" }, { id = "call", text = "Call a friend" } } }
            s:choose_many { id = "many", text = "Which ones?", options = {
              { id = "tea", text = "A cup of tea" }, { id = "nap", text = "A nap" } } }
            s:checklist { id = "list", text = "How did these go?", items = {
              { id = "water", text = "Water by the bed" }, { id = "shoes", text = "Shoes by the door" } } }
          end,
        }
        """
    static let answers = "\"call\"\n{\"choose\": [\"nap\", \"tea\"]}\n{\"checklist\": {\"water\": \"done\", \"shoes\": \"skip\"}}\n"

    /// The database as schema v11 left it: no `options` (nor anything of
    /// v12 and later), the answer table a rowid table.
    static let toV11 = """
        DROP TRIGGER answer_search_update; DROP TRIGGER answer_search_delete; DROP TRIGGER entry_text_insert; DROP TRIGGER entry_text_delete;
        DROP TRIGGER digest_narration_session_delete; DROP TRIGGER digest_narration_answer_update; DROP TRIGGER digest_narration_answer_delete;
        DROP TRIGGER digest_narration_mood_update; DROP TRIGGER digest_narration_mood_delete; DROP TRIGGER answer_theme_update;
        DROP TABLE entry_search; DROP TABLE entry_text; DROP TABLE reply_rating; DROP TABLE personalization_profile;
        DROP TABLE digest_narration; DROP TABLE entry_pending;
        CREATE TABLE answer_v11 (session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE, step TEXT NOT NULL,
            position INTEGER NOT NULL, kind TEXT NOT NULL, question TEXT NOT NULL, value TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('answer', 'draft')), answered_at TEXT NOT NULL, safety TEXT,
            PRIMARY KEY (session_id, step));
        INSERT INTO answer_v11 SELECT session_id, step, position, kind, question, value, state, answered_at, safety FROM answer;
        DROP TABLE answer; ALTER TABLE answer_v11 RENAME TO answer;
        ALTER TABLE session DROP COLUMN set_aside_at; ALTER TABLE session DROP COLUMN recalled;
        ALTER TABLE showed_up_day DROP COLUMN nth; ALTER TABLE showed_up_day DROP COLUMN run; ALTER TABLE showed_up_day DROP COLUMN best;
        CREATE TABLE step_day_v11 (user TEXT NOT NULL, flow TEXT NOT NULL, step TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('saved', 'positive', 'completed', 'logged')), day INTEGER NOT NULL,
            PRIMARY KEY (user, flow, step, kind, day)) WITHOUT ROWID;
        INSERT INTO step_day_v11 SELECT user, flow, step, kind, day FROM step_day JOIN day_set ON day_set.id = step_day.set_id;
        DROP TABLE step_day; DROP TABLE day_set; ALTER TABLE step_day_v11 RENAME TO step_day;
        ALTER TABLE experiment_assignment DROP COLUMN seed;
        CREATE TABLE celebration_v11 (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT REFERENCES session(id) ON DELETE CASCADE,
            user TEXT NOT NULL, step TEXT, tier TEXT CHECK (tier IN ('tiny', 'medium', 'big')), reason TEXT NOT NULL, pool TEXT,
            line_index INTEGER, line TEXT, at TEXT NOT NULL, UNIQUE (session_id, step, reason));
        INSERT INTO celebration_v11 SELECT id, session_id, user, step, tier, reason, pool, line_index, line, at FROM celebration;
        DROP TABLE celebration; ALTER TABLE celebration_v11 RENAME TO celebration;
        CREATE INDEX celebration_user_pool ON celebration (user, pool, id);
        DELETE FROM grdb_migrations WHERE CAST(substr(identifier, 2, instr(identifier || ':', ':') - 2) AS INTEGER) > 11;
        PRAGMA user_version = 11;
        """

    @Test("show and the CSV read a v11 session's ids by the flow's labels; a changed option or a removed flow is said")
    func labelsFromTheFlow() throws {
        let content = try ContentFixture(["flows/test/labels.lua": Self.flow])
        defer { content.remove() }
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v11-labels-\(UUID().uuidString).sqlite").path
        // The content directory as a person may set it once, for every command.
        func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
            try CLIRunner.run(args + ["--db", db], stdin: stdin, environment: ["REFLECT_CONTENT": content.root.path])
        }
        let run = try reflect(["run", "test.labels", "--answers", "-", "--format", "jsonl", "--now", "2026-11-20T15:00:00+01:00"],
                              stdin: Self.answers)
        #expect(run.status == 0, "\(run.stderr)")
        let id = try #require(run.events.first { $0["event"] as? String == "done" }?["session"] as? String)
        try DatabaseQueue(path: db).writeWithoutTransaction { db in try db.execute(sql: Self.toV11) }
        // Any writing command upgrades it (v12 adds `options`, empty for the old answers).
        #expect(try reflect(["log", "good", "--date", "2026-11-20", "--now", "2026-11-20T16:00:00+01:00"]).status == 0)
        #expect(try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM answer WHERE options IS NOT NULL") } == 0)

        let shown = try reflect(["show", id])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("their labels are read from the flow as it is now"), "\(shown.stdout)")
        #expect(shown.stdout.contains("→ Call a friend\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains("→ A cup of tea, A nap\n"), "in the flow's order: \(shown.stdout)")
        #expect(shown.stdout.contains("→ Water by the bed: done; Shoes by the door: skipped\n"), "\(shown.stdout)")
        let csv = try reflect(["export", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.contains(",Which one?,Call a friend,"), "\(csv.stdout)")
        #expect(csv.stdout.contains(",How did these go?,Water by the bed: done; Shoes by the door: skip,"), "\(csv.stdout)")

        // A session stored with its options reads them as stored, without the note.
        let later = try reflect(["run", "test.labels", "--answers", "-", "--format", "jsonl", "--now", "2026-11-21T15:00:00+01:00"],
                                stdin: Self.answers)
        let laterID = try #require(later.events.first { $0["event"] as? String == "done" }?["session"] as? String)
        let stored = try reflect(["show", laterID])
        #expect(stored.stdout.contains("→ Call a friend\n") && !stored.stdout.contains("labels are read from the flow"), "\(stored.stdout)")

        // The option is gone from the flow: said, never passed off as a label.
        let file = content.root.appendingPathComponent("flows/test/labels.lua")
        try Self.flow.replacingOccurrences(of: #"{ id = "call", text = "Call a friend" }"#, with: #"{ id = "phone", text = "Phone a friend" }"#)
            .write(to: file, atomically: true, encoding: .utf8)
        let changed = try reflect(["show", id])
        #expect(changed.stdout.contains("→ call (no longer an option)\n"), "\(changed.stdout)")
        #expect(!changed.stdout.contains("Call a friend"))

        // The flow is gone: the ids, and why there are no labels.
        try FileManager.default.removeItem(at: file)
        let gone = try reflect(["show", id])
        #expect(gone.status == 0, "\(gone.stderr)")
        #expect(gone.stdout.contains("→ call (label unknown: the flow 'test.labels' is no longer installed)\n"), "\(gone.stdout)")
        #expect(gone.stdout.contains("→ shoes=skip;water=done (label unknown: the flow 'test.labels' is no longer installed)\n"), "\(gone.stdout)")
    }
}

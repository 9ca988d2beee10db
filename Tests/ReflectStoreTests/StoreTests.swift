import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// A store in a fresh temporary directory.
func temporaryStore(reading: Store.Reading = .concurrent) throws -> Store {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-store-\(UUID().uuidString)")
    return try Store(path: dir.appendingPathComponent("sub/reflect.sqlite").path, reading: reading)
}

/// `step_day`'s rows with their set's texts (migration v24 keys them by
/// the set's id in `day_set`), for tests that read the days of a current store.
let stepDaysWithTexts = "(SELECT user, flow, step, kind, day, nth, run, best FROM step_day JOIN day_set ON day_set.id = step_day.set_id)"

func session(_ id: String, status: SessionRecord.Status = .active, started: String = "2026-11-22T20:00:00+01:00") -> SessionRecord {
    SessionRecord(id: id, flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil, user: "default",
                  mood: .bad, seed: UInt64.max - 1, clock: started, startedAt: started,
                  completedAt: status == .completed ? "2026-11-22T20:10:00+01:00" : nil, status: status)
}

func answer(_ sessionID: String, _ step: String, _ position: Int, _ value: AnswerValue) -> AnswerRecord {
    AnswerRecord(sessionID: sessionID, step: StepID(stringLiteral: step), position: position, kind: .text, question: "Question \(step)?",
                 value: value, answeredAt: "2026-11-22T20:0\(position):00+01:00")
}

@Suite("Store")
struct StoreTests {
    @Test("the database and its directory are created owner-only, in WAL mode with synchronous FULL (either way of reading)",
          arguments: [Store.Reading.concurrent, .serialized])
    func creation(reading: Store.Reading) throws {
        let store = try temporaryStore(reading: reading)
        let attrs = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attrs[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let dir = URL(fileURLWithPath: store.path).deletingLastPathComponent().path
        #expect((try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        // Asked on the writer connection: GRDB's reader connections keep SQLite's default.
        let (mode, sync) = try store.writer.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(sync == 2, "2 is FULL")
        // Reopening migrates nothing twice and keeps the data.
        try store.beginSession(session("s1"))
        #expect(try Store(path: store.path).detail("s1").session.id == "s1")
    }

    @Test("opened either way, a new database is left the same: WAL on, a non-empty write-ahead log, readable read-only at once")
    func sameFilesEitherWay() throws {
        var sizes: [Store.Reading: Int] = [:]
        for reading in [Store.Reading.concurrent, .serialized] {
            let store = try temporaryStore(reading: reading)
            let wal = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int ?? 0
            #expect(wal > 0, "\(reading): a non-empty write-ahead log")
            sizes[reading] = wal
            try store.beginSession(session("s1"))
            #expect(try Store(path: store.path, access: .readOnly).detail("s1").session.id == "s1")
            // Reopened the other way round: the same data, still WAL.
            let other = try Store(path: store.path, reading: reading == .serialized ? .concurrent : .serialized)
            #expect(try other.detail("s1").session.id == "s1")
            #expect(try other.writer.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        }
        #expect(sizes[.concurrent] == sizes[.serialized])
    }

    @Test("the default path follows XDG_DATA_HOME, else ~/.local/share")
    func defaultPath() {
        #expect(Store.defaultPath(environment: ["XDG_DATA_HOME": "/data/x", "HOME": "/home/a"]) == "/data/x/reflect/reflect.sqlite")
        #expect(Store.defaultPath(environment: ["HOME": "/home/a"]) == "/home/a/.local/share/reflect/reflect.sqlite")
        #expect(Store.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]) == "/home/a/.local/share/reflect/reflect.sqlite")
    }

    @Test("answers, drafts, distortions and completion are recorded and read back in log order")
    func sessionLifecycle() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "pre", 0, .integer(7)))
        try store.recordAnswer(answer("s1", "situation", 1, .text("The meeting")))
        try store.recordAnswer(answer("s1", "thought", 2, .text("I always fail")))
        try store.markDraft(session: "s1", step: "thought")
        try store.recordAnswer(answer("s1", "thought", 2, .text("I failed once")))
        try store.recordDistortion(DistortionRecord(sessionID: "s1", step: "thought", type: .unknown, detectedAt: "2026-11-22T20:03:00+01:00"))
        #expect(try store.unfinishedSessions(user: "default").map(\.id) == ["s1"])
        try store.completeSession("s1", pre: 7, post: 4, at: "2026-11-22T20:10:00+01:00", moodDay: "2026-11-22")
        let d = try store.detail("s1")
        #expect(d.session.status == .completed && d.session.pre == 7 && d.session.post == 4)
        #expect(d.answers.map(\.step) == ["pre", "situation", "thought"])
        #expect(d.answers.last?.value == .text("I failed once") && d.answers.last?.state == .answer)
        #expect(d.session.seedValue == UInt64.max - 1)
        #expect(try store.unfinishedSessions(user: "default").isEmpty)
        // The end of a reflection logged the session's mood for its day.
        #expect(try store.moodEntries(user: "default").map { "\($0.day) \($0.mood) \($0.source)" } == ["2026-11-22 bad reflection"])
    }

    @Test("session ids resolve by prefix; an ambiguous prefix is refused")
    func prefixes() throws {
        let store = try temporaryStore()
        try store.beginSession(session("abc-1"))
        try store.beginSession(session("abd-2"))
        #expect(try store.resolveSession("abc") == "abc-1")
        #expect(throws: StoreError.ambiguousSession("ab", matches: 2)) { try store.resolveSession("ab") }
        #expect(throws: StoreError.sessionNotFound("zz")) { try store.resolveSession("zz") }
    }

    @Test("one mood entry per person and day, edited through the day, first-logged time kept")
    func moodLog() throws {
        let store = try temporaryStore()
        try store.logMood(MoodLogRequest(user: "a", day: "2026-11-22", mood: .bad, note: "rough morning", source: .log, at: "2026-11-22T09:00:00Z"))
        try store.logMood(MoodLogRequest(user: "a", day: "2026-11-22", mood: .good, note: nil, source: .log, at: "2026-11-22T19:00:00Z"))
        try store.logMood(MoodLogRequest(user: "b", day: "2026-11-22", mood: .great, note: nil, source: .log, at: "2026-11-22T19:00:00Z"))
        let entries = try store.moodEntries(user: "a")
        #expect(entries.count == 1)
        #expect(entries[0].mood == .good && entries[0].note == "rough morning")
        #expect(entries[0].createdAt == "2026-11-22T09:00:00Z" && entries[0].updatedAt == "2026-11-22T19:00:00Z")
        for bad in ["2026-02-30", "22-11-2026", "2026-13-01", "yesterday"] {
            #expect(throws: StoreError.self) {
                try store.logMood(MoodLogRequest(user: "a", day: bad, mood: .bad, note: nil, source: .log, at: "2026-11-22T09:00:00Z"))
            }
        }
    }

    @Test("export → delete-all → import gives back the same document; importing twice adds nothing")
    func roundTrip() throws {
        let store = try temporaryStore()
        var opened = session("s1", started: "2026-11-20T08:00:00Z")
        opened.facts = String(decoding: try JSONEncoder().encode(UserFacts(day: "2026-11-20", phase: .day)), as: UTF8.self)
        try store.beginSession(opened)
        // Answers mark the session's day as a live session's do (StoreJournal).
        let s1Day = CalendarDay("2026-11-20"), s2Day = CalendarDay("2026-11-21")
        try store.recordAnswer(answer("s1", "situation", 0, .text("It rained")),
                               generated: [GeneratedTextRecord(sessionID: "s1", request: "final", text: "What would rain teach you?",
                                                               generated: true, basis: "b1", at: "2026-11-20T08:00:30Z")],
                               activityDay: s1Day)
        var choices = answer("s1", "thought", 1, .choices(["a", "b"]))
        choices.kind = .multiChoice
        try store.recordAnswer(choices, activityDay: s1Day)
        try store.markDraft(session: "s1", step: "thought")
        try store.recordEvent(SessionEventRecord(sessionID: "s1", kind: .probe, step: "situation", at: "2026-11-20T08:01:00Z"))
        try store.beginSession(session("s2", started: "2026-11-21T08:00:00Z"))
        try store.recordAnswer(answer("s2", "situation", 0, .text("Sun")),
                               completion: SessionCompletion(pre: nil, post: nil, at: "2026-11-22T20:10:00+01:00", moodDay: nil),
                               activityDay: s2Day)
        try store.logMood(MoodLogRequest(user: "default", day: "2026-11-21", mood: .average, note: "ok, \"fine\"", source: .log, at: "2026-11-21T10:00:00Z"))
        let before = try store.export(at: "2026-11-22T00:00:00Z")
        #expect(before.sessions.first?.facts == opened.facts, "the facts a session started with are exported")
        #expect(before.sessions.first?.generated.map(\.text) == ["What would rain teach you?"], "generated texts are exported")
        try store.deleteAll()
        #expect(try store.export(at: "2026-11-22T00:00:00Z").sessions.isEmpty)
        let data = try JSONEncoder().encode(before)
        let first = try store.importDocument(try ExportDocument.decodeValidated(from: data))
        #expect(first == ImportReport(sessionsAdded: 2, sessionsAlreadyPresent: 0, moodEntriesAdded: 1, moodEntriesAlreadyPresent: 0))
        #expect(try store.export(at: "2026-11-22T00:00:00Z") == before)
        let second = try store.importDocument(try ExportDocument.decodeValidated(from: data))
        #expect(second == ImportReport(sessionsAdded: 0, sessionsAlreadyPresent: 2, moodEntriesAdded: 0, moodEntriesAlreadyPresent: 1))
        #expect(try store.export(at: "2026-11-22T00:00:00Z") == before)
        #expect(before.csv().contains("\"ok, \"\"fine\"\"\""))
        #expect(before.csv().contains("generated,s1,"))
    }

    @Test("delete-all empties every table the migrations create, including ones added after it was written")
    func deleteAllCoversEveryTable() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "situation", 0, .text("It rained")),
                               generated: [GeneratedTextRecord(sessionID: "s1", request: "final", text: "Why?", generated: false,
                                                               basis: "b", at: "2026-11-22T20:00:30+01:00")])
        try store.logMood(MoodLogRequest(user: "default", day: "2026-11-22", mood: .bad, note: nil, source: .log, at: "2026-11-22T10:00:00Z"))
        try store.deleteAll()
        let tables = try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
        }
        // FTS5's own shadow tables are recognised by name, never listed (docs/storage.md).
        #expect(Set(tables) == Migrations.tables.union(Migrations.shadowTables),
                "Migrations.tables (and the search indexes' shadow tables) list every table the schema has")
        #expect(try store.relatedEntries(user: "default", to: "rained", now: "2027-01-01T00:00:00Z", excluding: nil).isEmpty)
        for table in tables where !Migrations.shadowTables.contains(table) {
            #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") } == 0, "\(table) still has rows")
        }
    }

    @Test("a malformed import names the record and field and writes nothing")
    func malformedImport() throws {
        let store = try temporaryStore()
        try store.beginSession(session("keep"))
        let good = try store.export(at: "2026-11-22T00:00:00Z")
        func reject(_ mutate: (inout [String: Any]) -> Void, record: String, field: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            var json = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(good)) as? [String: Any])
            mutate(&json)
            let data = try JSONSerialization.data(withJSONObject: json)
            let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) {
                try store.importDocument(try ExportDocument.decodeValidated(from: data))
            }
            guard case .invalidImport(let r, let f, _) = error else {
                Issue.record("wrong error \(String(describing: error))", sourceLocation: sourceLocation)
                return
            }
            #expect(r == record && f == field, "\(r).\(f)", sourceLocation: sourceLocation)
        }
        func newSession(_ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) -> Void {
            { json in
                var s = (json["sessions"] as? [[String: Any]] ?? [])[0]
                s["id"] = "new-one"
                change(&s)
                json["sessions"] = [s, s.merging(["id": "another"]) { $1 }]
            }
        }
        try reject(newSession { $0["status"] = "paused" }, record: "sessions[0]", field: "status")
        try reject(newSession { $0["answers"] = [["step": "a", "position": 0, "kind": "text", "question": "Q", "value": ["lua": "x"],
                                                  "state": "answer", "answered_at": "2026-11-22T00:00:00Z"]] },
                   record: "sessions[0]", field: "answers[0].value")
        try reject(newSession { $0["started_at"] = "last tuesday" }, record: "sessions[0]", field: "started_at")
        try reject({ $0["mood_entries"] = [["user": "default", "day": "2026-02-30", "mood": "bad", "source": "log",
                                            "created_at": "x", "updated_at": "x"]] }, record: "mood_entries[0]", field: "day")
        try reject({ $0["version"] = 9 }, record: "file", field: "version")
        // Nothing was written by any of these.
        #expect(try store.export(at: "2026-11-22T00:00:00Z") == good)
    }

    @Test("a legacy 4-answer negative reflection (flow version 1) imports, reads and counts as complete")
    func legacyFixture() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/legacy-negative-v1.json")
        let store = try temporaryStore()
        let report = try store.importDocument(try ExportDocument.decodeValidated(from: try Data(contentsOf: url)))
        #expect(report.sessionsAdded == 1)
        let d = try store.detail("legacy-v1-0001")
        #expect(d.session.flowVersion == 1 && d.session.status == .completed)
        #expect(d.answers.filter { $0.kind == .text }.map(\.step) == ["situation", "thought", "perspective", "reframe"])
        #expect(!d.answers.contains { $0.step == "evidence" })
        #expect(try store.unfinishedSessions(user: "default").isEmpty)
    }
}

@Suite("CSV export")
struct CSVTests {
    @Test("cells that start like a formula are neutralised with a leading quote (OWASP); others are plain RFC 4180")
    func formulaInjection() {
        for raw in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "=HYPERLINK(\"http://e\")"] {
            let cell = ExportDocument.field(raw)
            #expect(cell.hasPrefix("\"'"), "\(raw.debugDescription) → \(cell)")
            #expect(cell == "\"'" + raw.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        }
        #expect(ExportDocument.field("plain text") == "plain text")
        #expect(ExportDocument.field("a, b") == "\"a, b\"")
        #expect(ExportDocument.field("a=b") == "a=b", "only the first character matters")
        #expect(ExportDocument.field("") == "")
    }

    @Test("the answer column reads as the person answered: option and checklist labels in the flow's order, not ids")
    func answerLabels() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s1"))
        let offered = [PromptOption(id: "walk", text: "Go for a walk"), PromptOption(id: "call", text: "Call a friend"),
                       PromptOption(id: "tea", text: "Make tea")]
        var many = answer("s1", "ideas", 0, .choices(["tea", "walk"]))
        many.kind = .multiChoice
        many.options = offered
        var one = answer("s1", "pick", 1, .choice("call"))
        one.kind = .singleChoice
        one.options = offered
        var list = answer("s1", "plan", 2, .checklist(["tea": .done, "walk": .skip]))
        list.kind = .checklist
        list.options = offered
        var older = answer("s1", "legacy", 3, .choice("walk"))
        older.kind = .singleChoice
        for a in [many, one, list, older] { try store.recordAnswer(a) }
        let rows = try store.export(at: "2026-11-22T21:00:00+01:00").csv().components(separatedBy: "\r\n")
        func row(_ step: String) throws -> String { try #require(rows.first { $0.contains(",\(step),") }) }
        let ideas = try row("ideas")
        #expect(ideas.contains("\"Go for a walk, Make tea\""), "\(ideas)")
        #expect(try row("pick").contains(",Call a friend,"))
        #expect(try row("plan").contains("Go for a walk: skip; Make tea: done"))
        #expect(try row("legacy").contains(",walk,"), "an answer stored without its options keeps its id")
    }
}

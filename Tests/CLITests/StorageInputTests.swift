import Foundation
import GRDB
import ReflectStore
import Testing

/// Issue 12, items 6, 8 and 9: what goes in and what comes out.
@Suite("storage: answers in, exports out", .hangGuard)
struct StorageInputTests {
    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    func tempFile(_ name: String, _ data: Data) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-\(UUID().uuidString)-\(name)")
        try data.write(to: url)
        return url.path
    }

    let negative = ["run", "reflection", "--mood", "bad", "--format", "jsonl", "--now", "2026-11-22T21:00:00+01:00"]

    func stored(_ db: String) throws -> [String] {
        let store = try Store(path: db, access: .readOnly)
        guard let id = try store.recentSessions(user: "default").first?.id else { return [] }
        // The answers as stored: their JSON text.
        return try store.detail(id).answers.filter { $0.state == .answer }.map { String.fromDatabaseValue($0.value.databaseValue) ?? "" }
    }

    // MARK: item 6

    @Test("a NUL in a text answer is refused at the door; the session goes on and can be resumed")
    func nulAnswer() throws {
        let db = tempDB()
        let out = try CLIRunner.run(negative + ["--db", db, "--answers", "-"], stdin: "7\n\"before\\u0000after\"\n\"The meeting went badly\"\n",
                                    in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let invalid = try #require(out.events.first { $0["event"] as? String == "invalid" })
        #expect(invalid["code"] as? String == "nul" && invalid["step"] as? String == "situation")
        #expect(try stored(db) == ["7", "\"The meeting went badly\""])
        let resumed = try CLIRunner.run(["resume", "--db", db, "--answers", "-", "--format", "jsonl"], stdin: "\"I always fail\"\n",
                                        in: repositoryRoot)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.events.contains { $0["event"] as? String == "saved" && $0["step"] as? String == "thought" })
    }

    // MARK: item 9, answers

    @Test("whitespace-only text does not answer a required question")
    func blankAnswer() throws {
        let db = tempDB()
        let out = try CLIRunner.run(negative + ["--db", db, "--answers", "-"], stdin: "7\n\"   \\t \\u3000 \"\n", in: repositoryRoot)
        let invalid = try #require(out.events.first { $0["event"] as? String == "invalid" }, "\(out.stdout)")
        #expect(invalid["code"] as? String == "required")
        #expect(try stored(db) == ["7"])
    }

    @Test("invalid UTF-8 in an answers file is an error naming the line, never replaced and saved")
    func invalidUTF8() throws {
        let db = tempDB()
        var data = Data("7\n\"caf".utf8)
        data += [0xE9, 0x22, 0x0A]  // Latin-1 é: not UTF-8
        let file = try tempFile("latin1.jsonl", data)
        let out = try CLIRunner.run(negative + ["--db", db, "--answers", file], in: repositoryRoot)
        #expect(out.status == 1)
        let error = try #require(out.events.first { $0["event"] as? String == "error" }, "\(out.stdout)")
        #expect(error["code"] as? String == "answers.invalid" && error["line"] as? Int == 2)
        #expect((error["message"] as? String)?.contains("not valid UTF-8") == true, "\(error)")
        #expect(try stored(db) == ["7"], "nothing replaced and saved")
    }

    @Test("an answers file with CRLF line endings is read like one with LF")
    func crlf() throws {
        let db = tempDB()
        let file = try tempFile("crlf.jsonl", Data("7\r\n\"My manager criticised my report\"\r\n\r\n\"I always mess everything up\"\r\n".utf8))
        let out = try CLIRunner.run(negative + ["--db", db, "--answers", file], in: repositoryRoot)
        #expect(out.status == 0, "\(out.stdout) \(out.stderr)")
        #expect(try stored(db) == ["7", "\"My manager criticised my report\"", "\"I always mess everything up\""])
    }

    @Test("an answer after done is an error (session.finished) naming its line; the finished session is kept")
    func answerAfterDone() throws {
        let db = tempDB()
        let file = try tempFile("extra.jsonl", Data("6\n\"A long walk by the river\"\n\"We took the afternoon off\"\n\"Plan one more\"\n8\n\n\"one more thing\"\n".utf8))
        let out = try CLIRunner.run(["run", "reflection", "--mood", "good", "--format", "jsonl", "--db", db, "--answers", file],
                                    in: repositoryRoot)
        #expect(out.status == 1)
        #expect(out.events.contains { $0["event"] as? String == "done" })
        let error = try #require(out.events.last)
        #expect(error["event"] as? String == "error" && error["code"] as? String == "session.finished" && error["line"] as? Int == 7, "\(error)")
        #expect(try Store(path: db, access: .readOnly).recentSessions(user: "default").first?.status == .completed)
    }

    // MARK: item 9, one transaction per answer

    @Test("an answer and its distortion are one transaction: when the distortion cannot be stored, neither is")
    func answerWithDistortion() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-01", "--db", db]).status == 0)
        try DatabaseQueue(path: db).writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TRIGGER refuse_distortion BEFORE INSERT ON distortion BEGIN SELECT RAISE(ABORT, 'no room for it'); END")
        }
        let out = try CLIRunner.run(negative + ["--db", db, "--answers", "-"],
                                    stdin: "7\n\"My manager criticised my report\"\n\"I always mess everything up\"\n", in: repositoryRoot)
        #expect(out.status == 1)
        #expect(!out.events.contains { $0["event"] as? String == "saved" && $0["step"] as? String == "thought" })
        #expect(try stored(db) == ["7", "\"My manager criticised my report\""], "the answer whose distortion failed was not kept alone")
    }

    // MARK: item 8 — export

    @Test("export: an unreadable row is left out and reported, the rest exported; unknown values are kept as stored")
    func exportProblems() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(negative + ["--db", db, "--answers", "-"],
                                  stdin: "7\n\"=HYPERLINK(\\\"http://evil\\\")\"\n\"I always mess everything up\"\n", in: repositoryRoot).status == 0)
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-20", "--note", "@SUM(1+1)", "--db", db]).status == 0)
        #expect(try CLIRunner.run(["log", "bad", "--date", "2026-11-21", "--db", db]).status == 0)
        #expect(try CLIRunner.run(["log", "bad", "--date", "2026-11-22", "--user", "other", "--db", db]).status == 0)
        try DatabaseQueue(path: db).writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE answer SET value = 'not json' WHERE step = 'pre'")
            try db.execute(sql: "UPDATE mood_entry SET mood = 'ecstatic' WHERE day = '2026-11-21'")
            try db.execute(sql: "UPDATE mood_entry SET source = 'telepathy' WHERE user = 'other'")
        }
        let json = try CLIRunner.run(["export", "--db", db])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.contains("warning: session ") && json.stderr.contains("answer 'pre'"), "\(json.stderr)")
        #expect(json.stderr.contains("mood entry 'other'/'2026-11-22'"), "\(json.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let answers = try #require(((doc["sessions"] as? [[String: Any]])?.first?["answers"]) as? [[String: Any]])
        #expect(answers.map { $0["step"] as? String } == ["situation", "thought"], "the other answers are exported")
        let moods = try #require(doc["mood_entries"] as? [[String: Any]])
        #expect(moods.map { $0["mood"] as? String } == ["good", "ecstatic"], "an unknown mood is exported as stored, not rewritten")
        let problems = (doc["problems"] as? [String]) ?? []
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("mood entry 'default'/'2026-11-21'") && $0.contains("\"ecstatic\"") && $0.hasSuffix("exported as stored") },
                "an unknown mood is named as a problem, like a session's: \(problems)")

        let csv = try CLIRunner.run(["export", "--format", "csv", "--db", db])
        #expect(csv.status == 0)
        #expect(csv.stdout.contains(#""'=HYPERLINK(""http://evil"")""#), "\(csv.stdout)")
        #expect(csv.stdout.contains(#",'@SUM(1+1)"#) || csv.stdout.contains(#","'@SUM(1+1)""#), "\(csv.stdout)")
        #expect(!csv.stdout.contains(",=") && !csv.stdout.contains(",@") && !csv.stdout.contains(",\"="))
    }

    // MARK: item 9 — import checks everything

    @Test("import refuses non-dates, negative positions, out-of-range intensities, huge or NUL-holding texts, 7.5 and unknown moods, naming the field")
    func importValidation() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-19", "--db", db]).status == 0)
        let before = try CLIRunner.run(["export", "--db", db]).stdout.split(separator: "\n").filter { !$0.contains("exported_at") }
        let legacy = try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/legacy-negative-v1.json"))
        let base = try #require(try JSONSerialization.jsonObject(with: legacy) as? [String: Any])
        func variant(_ change: (inout [String: Any], inout [[String: Any]], inout [String: Any]) -> Void) throws -> String {
            var doc = base
            var session = try #require((doc["sessions"] as? [[String: Any]])?.first)
            var answers = try #require(session["answers"] as? [[String: Any]])
            var mood: [String: Any] = ["user": "default", "day": "2026-11-20", "mood": "bad", "source": "log",
                                       "created_at": "2026-11-20T08:00:00Z", "updated_at": "2026-11-20T08:00:00Z"]
            change(&session, &answers, &mood)
            session["answers"] = answers
            doc["sessions"] = [session]
            doc["mood_entries"] = [mood]
            return try tempFile("import.json", try JSONSerialization.data(withJSONObject: doc))
        }
        let cases: [(String, (inout [String: Any], inout [[String: Any]], inout [String: Any]) -> Void)] = [
            ("sessions[0].distortions[0].detected_at", { s, _, _ in
                s["distortions"] = [["step": "thought", "type": "overgeneralization", "detected_at": "yesterday"]] }),
            ("mood_entries[0].created_at", { _, _, m in m["created_at"] = "not a date" }),
            ("sessions[0].answers[1].position", { _, a, _ in a[1]["position"] = -3 }),
            ("sessions[0].answers[0].value", { _, a, _ in a[0]["value"] = 99 }),
            ("sessions[0].answers[1].question", { _, a, _ in a[1]["question"] = String(repeating: "x", count: 70_000) }),
            ("sessions[0].answers[1].question", { _, a, _ in a[1]["question"] = "What\u{0}happened?" }),
            ("sessions[0].answers[1].value", { _, a, _ in a[1]["value"] = "cut\u{0}here" }),
            ("mood_entries[0].note", { _, _, m in m["note"] = "cut\u{0}here" }),
            ("sessions[0].pre", { s, _, _ in s["pre"] = 7.5 }),
            ("mood_entries[0].mood", { _, _, m in m["mood"] = "ecstatic" }),
            ("sessions[0].answers[1].kind", { _, a, _ in a[1]["kind"] = "essay" }),
        ]
        for (field, change) in cases {
            let out = try CLIRunner.run(["import", try variant(change), "--db", db])
            #expect(out.status == 1, "\(field)")
            #expect(out.stderr.contains("invalid import: \(field):"), "\(field): \(out.stderr)")
        }
        let after = try CLIRunner.run(["export", "--db", db]).stdout.split(separator: "\n").filter { !$0.contains("exported_at") }
        #expect(after == before, "nothing was imported")
        // The unchanged file imports.
        #expect(try CLIRunner.run(["import", try variant { _, _, _ in }, "--db", db]).status == 0)
    }

    @Test("import of a missing file, a directory, or JSON that is not an object: a typed error naming the file, exit 1, nothing written")
    func importUnreadableOrNotAnObject() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-19", "--db", db]).status == 0)
        let before = try CLIRunner.run(["export", "--db", db]).stdout.split(separator: "\n").filter { !$0.contains("exported_at") }
        let missing = NSTemporaryDirectory() + "reflect-missing-\(UUID().uuidString).json"
        let directory = NSTemporaryDirectory()
        let cases: [(String, String)] = [
            (missing, "cannot read \(missing): no such file"),
            (directory, "cannot read \(directory): it is a directory"),
            (try tempFile("list.json", Data("[]".utf8)), "its top level is a list"),
            (try tempFile("text.json", Data("\u{FEFF} \"sessions\"".utf8)), "its top level is a text"),
            (try tempFile("number.json", Data("42\n".utf8)), "its top level is a number"),
            (try tempFile("null.json", Data("null".utf8)), "its top level is null"),
        ]
        for (file, reason) in cases {
            let out = try CLIRunner.run(["import", file, "--db", db])
            #expect(out.status == 1, "\(file): \(out.stderr)")
            #expect(out.stderr.contains("error: invalid import: file: ") && out.stderr.contains(reason), "\(file): \(out.stderr)")
            #expect(out.stderr.contains("[import.invalid]"), "\(file): \(out.stderr)")
            #expect(!out.stderr.contains("Usage:") && !out.stderr.contains("Expected to decode"), "\(file): \(out.stderr)")
        }
        let after = try CLIRunner.run(["export", "--db", db]).stdout.split(separator: "\n").filter { !$0.contains("exported_at") }
        #expect(after == before, "nothing was imported")
        // A missing file does not create the store either.
        let fresh = tempDB()
        #expect(try CLIRunner.run(["import", missing, "--db", fresh]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }
}

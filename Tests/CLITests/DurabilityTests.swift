import Foundation
import Testing

/// Issue 4's must-shows, through the real binary and a real database file.
@Suite("durable sessions", .hangGuard)
struct DurabilityTests {
    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    func export(_ db: String) throws -> [String: Any] {
        let out = try CLIRunner.run(["export", "--db", db, "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        json.removeValue(forKey: "exported_at")
        return json
    }

    func storedAnswers(_ doc: [String: Any], session: Int = 0) -> [(String, Any)] {
        let sessions = doc["sessions"] as? [[String: Any]] ?? []
        guard session < sessions.count else { return [] }
        return (sessions[session]["answers"] as? [[String: Any]] ?? [])
            .filter { $0["state"] as? String == "answer" }
            .map { ($0["step"] as? String ?? "", $0["value"] ?? NSNull()) }
    }

    @Test("SIGKILL right after answer 3 of the negative flow, then resume: prompt 4 appears and answers 1–3 are intact")
    func killAndResume() throws {
        let db = tempDB()
        let live = try LiveProcess(["run", "reflection", "--mood", "bad", "--db", db, "--answers", "-", "--format", "jsonl",
                                    "--now", "2026-11-22T21:00:00+01:00"], in: repositoryRoot)
        let answers = ["7", #""My manager criticised my report in front of the team""#, #""I always mess everything up""#,
                       #""Last month's demo went well""#]
        let steps = ["pre", "situation", "thought", "perspective"]
        for (answer, step) in zip(answers, steps) {
            try #require(live.waitFor { $0["event"] as? String == "prompt" && $0["step"] as? String == step } != nil)
            live.send(answer)
            try #require(live.waitFor { $0["event"] as? String == "saved" && $0["step"] as? String == step } != nil)
        }
        // Answer 3 (perspective, Q3) is saved: kill the process on the spot.
        live.kill()
        #expect(live.process.terminationReason == .uncaughtSignal)

        let resumed = try CLIRunner.run(["resume", "--db", db, "--answers", "-", "--format", "jsonl"], stdin: "")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let prompt = try #require(resumed.events.first)
        #expect(prompt["event"] as? String == "prompt")
        #expect(prompt["step"] as? String == "evidence")
        #expect(prompt["index"] as? Int == 4 && prompt["total"] as? Int == 5)
        #expect(prompt["text"] as? String == "What evidence supports 'I always mess everything up', and what challenges it?")

        let stored = storedAnswers(try export(db))
        #expect(stored.map(\.0) == steps)
        #expect(stored.map { "\($0.1)" } == ["7", "My manager criticised my report in front of the team",
                                             "I always mess everything up", "Last month's demo went well"])
    }

    @Test("SIGKILL after an answer, before the run's catch-up of the related-entries index: the next search finds the answer")
    func killBeforeSearchCatchUp() throws {
        let db = tempDB()
        let live = try LiveProcess(["run", "reflection", "--mood", "bad", "--db", db, "--answers", "-", "--format", "jsonl",
                                    "--now", "2026-11-20T21:00:00+01:00"], in: repositoryRoot)
        for (answer, step) in [("7", "pre"), (#""The presentation to the board made me shake""#, "situation")] {
            try #require(live.waitFor { $0["event"] as? String == "prompt" && $0["step"] as? String == step } != nil)
            live.send(answer)
            try #require(live.waitFor { $0["event"] as? String == "saved" && $0["step"] as? String == step } != nil)
        }
        // The situation is durable; the run would index it when it stops. Kill it first.
        live.kill()
        #expect(live.process.terminationReason == .uncaughtSignal)

        // Another process's search (the CBT session recalls related entries after its situation) finds it.
        let cbt = try CLIRunner.run(["run", "cbt.session", "--db", db, "--answers", "-", "--format", "jsonl", "--new",
                                     "--now", "2026-11-24T20:00:00+01:00"],
                                    stdin: "\"My fear of presenting\"\n\"I have to give a presentation tomorrow\"\n", in: repositoryRoot)
        let related = try #require(cbt.events.first { $0["event"] as? String == "prompt" && $0["step"] as? String == "related" },
                                   "\(cbt.stdout)\n\(cbt.stderr)")
        #expect(related["text"] as? String == "You wrote about something similar on 2026-11-20: 'The presentation to the board made me shake'")
    }

    @Test("export → delete-all → import gives back the same sessions and entries")
    func exportDeleteImport() throws {
        let db = tempDB()
        let finished = try CLIRunner.run(["run", "reflection", "--mood", "good", "--db", db, "--answers", "-", "--format", "jsonl",
                                          "--now", "2026-11-20T18:00:00+01:00"],
                                         stdin: "6\n\"A long walk by the river with my brother\"\n\"We both took the afternoon off\"\n\"Plan one more walk on Sunday\"\n8\n",
                                         in: repositoryRoot)
        #expect(finished.status == 0)
        _ = try CLIRunner.run(["run", "reflection", "--mood", "bad", "--db", db, "--answers", "-", "--format", "jsonl", "--new",
                               "--now", "2026-11-21T09:00:00+01:00"],
                              stdin: "5\n\"idk\"\n{\"command\":\"back\"}\n", in: repositoryRoot)
        #expect(try CLIRunner.run(["log", "average", "--note", "long day, \"mixed\"", "--date", "2026-11-21", "--db", db]).status == 0)

        let before = try export(db)
        #expect((before["sessions"] as? [Any])?.count == 2)
        #expect((before["mood_entries"] as? [Any])?.count == 2, "the finished reflection logged its mood too")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-export-\(UUID().uuidString).json").path
        #expect(try CLIRunner.run(["export", "--db", db, "--out", file]).status == 0)
        #expect(try CLIRunner.run(["delete-all", "--db", db]).status != 0, "refuses without --yes")
        #expect(try CLIRunner.run(["delete-all", "--yes", "--db", db]).status == 0)
        #expect((try export(db)["sessions"] as? [Any])?.isEmpty == true)
        let imported = try CLIRunner.run(["import", file, "--db", db])
        #expect(imported.status == 0)
        #expect(imported.stdout.contains("Imported — sessions: 2, mood entries: 2,"))
        #expect(NSDictionary(dictionary: try export(db)).isEqual(to: before))
        let again = try CLIRunner.run(["import", file, "--db", db])
        #expect(again.stdout.contains("Imported — sessions: 0, mood entries: 0,"))
        #expect(NSDictionary(dictionary: try export(db)).isEqual(to: before))
    }

    @Test("a malformed import file leaves the database untouched and names the bad record")
    func malformedImport() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-19", "--db", db]).status == 0)
        let before = try export(db)
        let legacy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/legacy-negative-v1.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: legacy)) as? [String: Any])
        var sessions = try #require(json["sessions"] as? [[String: Any]])
        var second = sessions[0]
        second["id"] = "legacy-v1-0002"
        var secondAnswers = try #require(second["answers"] as? [[String: Any]])
        secondAnswers[3]["value"] = ["not": "an answer"]
        second["answers"] = secondAnswers
        sessions.append(second)
        json["sessions"] = sessions
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-bad-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let out = try CLIRunner.run(["import", file.path, "--db", db])
        #expect(out.status == 1)
        #expect(out.stderr.contains("sessions[1].answers[3].value"), "\(out.stderr)")
        #expect(NSDictionary(dictionary: try export(db)).isEqual(to: before), "the first, valid session was not imported either")
    }

    @Test("two concurrent writers of 500 answers each: all 1,000 present")
    func concurrentWriters() throws {
        let fixture = try ContentFixture([
            "flows/test/many.lua": """
                return flow { id = "test.many", version = 1, run = function(s)
                  for i = 1, 500 do s:ask { id = "q" .. i, text = "Question " .. i } end
                end }
                """,
        ])
        defer { fixture.remove() }
        let db = tempDB()
        let answers = (1...500).map { "\"answer \($0)\"" }.joined(separator: "\n") + "\n"
        for name in ["a", "b"] {
            try answers.replacingOccurrences(of: "answer", with: "\(name) answer")
                .write(to: fixture.root.appendingPathComponent("\(name).jsonl"), atomically: true, encoding: .utf8)
        }
        // Create the database first, so both writers race on writes (first use is StorageConcurrencyTests).
        #expect(try CLIRunner.run(["log", "average", "--date", "2026-11-01", "--db", db]).status == 0)
        let writers = try ["a", "b"].map { name in
            try LiveProcess(["run", "test.many", "--content", fixture.root.path, "--db", db, "--new", "--format", "jsonl",
                             "--answers", fixture.root.appendingPathComponent("\(name).jsonl").path])
        }
        for w in writers {
            #expect(w.waitFor { $0["event"] as? String == "done" } != nil)
            w.process.waitUntilExit()
            #expect(w.process.terminationStatus == 0)
        }
        let doc = try export(db)
        let all = (0..<2).flatMap { storedAnswers(doc, session: $0) }
        #expect(all.count == 1000)
        #expect(Set(all.map { "\($0.1)" }).count == 1000)
        #expect(all.filter { "\($0.1)".hasPrefix("a answer") }.count == 500)
    }

    @Test("the legacy 4-answer fixture is reported complete by reflect show, and exports")
    func legacyShow() throws {
        let db = tempDB()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/legacy-negative-v1.json").path
        #expect(try CLIRunner.run(["import", fixture, "--db", db]).status == 0)
        let show = try CLIRunner.run(["show", "legacy", "--db", db])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.hasPrefix("reflection.negative (version 1) · complete"))
        #expect(show.stdout.contains("intensity 8 → 5 (-3)"))
        #expect(show.stdout.contains("Can you think of one counter-example to 'Nobody ever makes time for me'?"))
        #expect(show.stdout.contains("   → My friend drove two hours to see me last month"))
        #expect(show.stdout.contains("distortion: one moment turning into 'always'"))
        #expect(!show.stdout.contains("evidence"))
        let history = try CLIRunner.run(["history", "--db", db])
        #expect(history.stdout.contains("legacy-v") && history.stdout.contains("finished"))
        #expect(storedAnswers(try export(db)).count == 6)
        // Not offered for resuming: it is complete.
        let resume = try CLIRunner.run(["resume", "--db", db, "--answers", "-", "--format", "jsonl"])
        #expect(resume.status == 1)
    }
}

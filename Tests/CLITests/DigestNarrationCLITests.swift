import Foundation
import Testing
import GRDB
import LoopbackHTTP

/// `reflect digest` narrated by a configured server (docs/journal.md,
/// "Narration"): shown when it keeps to the week's figures, kept by the
/// data it was made from, forgotten when that data is deleted, and never
/// in the way when the server is slow, wrong or silent.
@Suite("reflect digest: narration by a configured server", .serialized, .hangGuard)
struct DigestNarrationCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-digest-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], environment: [String: String] = [:], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot, environment: environment)
    }

    /// Two weeks of check-ins, as `JournalCLITests.digest` has them.
    func week() throws {
        for (d, mood, note) in [(9, 4, "Long day"), (10, 5, "Tired"), (11, 4, "Slept badly"),
                                (16, 6, "Quiet"), (17, 8, "A walk after work"), (19, 7, "Lunch with friends")] {
            let answers = "\(mood)\n5\n4\n7\n6\n\"\(note)\"\n{\"done\": true}\n"
            let out = try reflect(["run", "journal.check-in", "--answers", "-", "--format", "jsonl", "--new",
                                   "--now", String(format: "2026-11-%02dT21:00:00+01:00", d)], stdin: answers)
            #expect(out.status == 0, "\(out.stderr)")
        }
    }

    func digest(_ server: LoopbackServer?, format: String = "text") throws -> CLIRunner.Output {
        let env = server.map { ["REFLECT_LLM_URL": $0.baseURL, "REFLECT_LLM_MODEL": "tiny"] } ?? [:]
        return try reflect(["digest", "--week", "2026-11-18", "--now", "2026-11-23T10:00:00+01:00", "--format", format], environment: env)
    }

    static let told = "A lighter week: your check-in mood averaged 7, up 2.7, and Tuesday's walk after work was your best day (8 of 10). "
        + "Next week you mean to rehearse once with Sam."

    @Test("a server's narration replaces the story, the figures stay; asked once per data; deleting an entry forgets it")
    func narrated() throws {
        try week()
        let template = try digest(nil)
        #expect(template.stdout.contains("Your best day was Tuesday (mood 8 of 10)"), "no server: the template, as before")
        // The server retells what it is sent: the walk while the week has it, else a line without figures.
        let server = try LoopbackServer { request in
            let sent = request.messages.map(\.content).joined(separator: "\n")
            return .chat(sent.contains("A walk after work") ? Self.told : "A quieter week, and you kept coming back.")
        }
        let out = try digest(server)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("Your week in brief, 2026-11-16 – 2026-11-22\n\n" + Self.told + "\n\n"), "\(out.stdout)")
        #expect(out.stdout.contains("Days you showed up: 3 of 7") && !out.stdout.contains("Your best day was Tuesday"))
        #expect(server.requestCount == 1)
        let sent = try #require(server.requests.first).messages.map(\.content).joined(separator: "\n")
        #expect(sent.contains("A walk after work") && sent.contains("Days you showed up: 3 of 7") && !sent.contains("Lunch with friends"),
                "only the week's digest is sent: \(sent)")
        // The same data again: the stored narration, no second request, in every format.
        let again = try digest(server)
        #expect(again.stdout == out.stdout && server.requestCount == 1)
        let json = try digest(server, format: "json")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let narration = try #require(doc["narration"] as? [String: Any])
        #expect(narration["text"] as? String == Self.told && narration["cached"] as? Bool == true && narration["generated"] as? Bool == true)
        #expect((doc["highlight"] as? [String: Any])?["day"] as? String == "2026-11-17", "the digest's own fields are still there")
        let md = try digest(server, format: "md")
        #expect(md.stdout.hasPrefix("# Your week in brief") && md.stdout.contains(Self.told) && md.stdout.contains("\n- Days you showed up"))
        #expect(server.requestCount == 1)
        // Deleting the entry it quotes: the narration goes with it, and the next digest is told afresh.
        let exported = try reflect(["export", "--format", "json"])
        let sessions = try #require((try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])?["sessions"] as? [[String: Any]])
        let walk = try #require(sessions.first { s in
            (s["answers"] as? [[String: Any]])?.contains { $0["value"] as? String == "A walk after work" } == true
        }?["id"] as? String)
        let deleted = try reflect(["delete", walk])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try storedNarrations() == 0, "no narration keeps the words of a deleted entry")
        let after = try digest(server)
        #expect(server.requestCount == 2 && after.stdout.contains("A quieter week, and you kept coming back."), "\(after.stdout)")
        #expect(!after.stdout.contains("walk after work"))
        #expect(try storedNarrations() == 1)
        // delete-all takes it too.
        _ = try reflect(["delete-all", "--yes"])
        #expect(try storedNarrations() == 0)
    }

    /// Narrations in the database, read directly (not through Reflect's own queries).
    func storedNarrations() throws -> Int {
        let queue = try DatabaseQueue(path: db)
        return try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM digest_narration") } ?? -1
    }

    @Test("an invented figure, a slow server, an error, or --generator none: the template's digest, no error, nothing stored")
    func refused() throws {
        try week()
        let template = try digest(nil).stdout
        let invented = try LoopbackServer { _ in .chat("Your mood averaged 9 this week, your best yet.") }
        let a = try digest(invented, format: "json")
        let narration = try #require((try JSONSerialization.jsonObject(with: Data(a.stdout.utf8)) as? [String: Any])?["narration"] as? [String: Any])
        #expect(narration["refused"] as? String == "rule.invented_figure" && narration["text"] == nil)
        #expect(try digest(invented).stdout == template)
        let failing = try LoopbackServer { _ in LoopbackServer.Reply(status: 500, body: "{}") }
        let b = try digest(failing)
        #expect(b.status == 0 && b.stdout == template && b.stderr.isEmpty, "\(b.stderr)")
        let slow = try LoopbackServer { _ in .chat(Self.told, delay: 8) }
        let started = Date()
        let c = try digest(slow)
        #expect(c.stdout == template && Date().timeIntervalSince(started) < 7, "waited at most the 3 s deadline (contained)")
        let none = try LoopbackServer { _ in .chat(Self.told) }
        let d = try reflect(["digest", "--week", "2026-11-18", "--now", "2026-11-23T10:00:00+01:00", "--generator", "none"],
                            environment: ["REFLECT_LLM_URL": none.baseURL])
        #expect(d.stdout == template && none.requestCount == 0)
        #expect(try storedNarrations() == 0)
    }
}

import Foundation
import Testing
import LoopbackHTTP

/// `reflect chat` end to end: JSONL, history stored, exported, imported,
/// deleted and auto-deleted.
@Suite("reflect chat", .serialized, .hangGuard)
struct ChatCLITests {
    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-chat-\(UUID().uuidString).db").path
    }

    func chat(_ lines: [String], db: String, extra: [String] = [], environment: [String: String] = [:]) throws -> CLIRunner.Output {
        try CLIRunner.run(["chat", "--messages", "-", "--format", "jsonl", "--db", db] + extra,
                          stdin: lines.joined(separator: "\n") + "\n", in: repositoryRoot, environment: environment)
    }

    @Test("plan consent: after the coach's plan, the person's yes (or {\"try\": true}) is one tiny celebration before the reply; none with celebrations off")
    func planConsent() throws {
        let lines = [#"{"mode":"ask_coach"}"#, #""What can I do tonight?""#, #""yes, I will try it""#, #""yes""#, #"{"try": true}"#]
        let out = try chat(lines, db: tempDB(), extra: ["--now", "2026-11-22T20:00:00+01:00"])
        #expect(out.status == 0, "\(out.stderr)")
        let kinds = out.events.map { $0["event"] as? String ?? "" }
        #expect(kinds == ["chat", "celebration", "chat", "chat"], "\(out.stdout)")
        let c = try #require(out.events.first { $0["event"] as? String == "celebration" })
        #expect(c["tier"] as? String == "tiny" && c["reason"] as? String == "plan_consent")

        let db = tempDB()
        #expect(try CLIRunner.run(["settings", "set", "celebrations", "off", "--db", db], in: repositoryRoot).status == 0)
        let off = try chat(lines, db: db, extra: ["--now", "2026-11-22T20:00:00+01:00"])
        #expect(off.status == 0 && !off.events.contains { $0["event"] as? String == "celebration" }, "\(off.stdout)")
    }

    @Test("JSONL: replies from the default provider, the disclaimer once, a crisis message met with resources; history exported and re-imported")
    func jsonlAndHistory() throws {
        let db = tempDB()
        let out = try chat([#""Work was loud and I grazed all day""#, #"{"mode":"ask_coach"}"#, #""What can I do tonight?""#,
                            #""I want to end it all""#], db: db, extra: ["--now", "2026-11-22T20:00:00+01:00"])
        #expect(out.status == 0, "\(out.stderr)")
        let replies = out.events.filter { $0["event"] as? String == "chat" }
        #expect(replies.count == 3)
        #expect(replies.compactMap { $0["disclaimer"] as? String } == ["This isn't medical advice—consult professionals for mental health/nutrition."])
        #expect(replies.map { $0["mode"] as? String } == ["just_talk", "ask_coach", "ask_coach"])
        #expect((replies[0]["reply"] as? String)?.contains("Work was loud and I grazed all day") == true)
        #expect(replies[2]["safety"] as? String == "suicide")
        #expect((replies[2]["resources"] as? [String])?.isEmpty == false)

        let export = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-chat-\(UUID().uuidString).json").path
        let exported = try CLIRunner.run(["export", "--format", "json", "--out", export, "--db", db])
        #expect(exported.status == 0, "\(exported.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [String: Any])
        let messages = try #require(doc["chat_messages"] as? [[String: Any]])
        #expect(messages.count == 6)
        #expect(messages.first { $0["role"] as? String == "person" && $0["safety"] as? String == "suicide" } != nil)
        let other = tempDB()
        let imported = try CLIRunner.run(["import", export, "--db", other])
        #expect(imported.stdout.contains("Chat messages imported: 6 (already there: 0)"), "\(imported.stdout) \(imported.stderr)")
        let again = try CLIRunner.run(["import", export, "--db", other])
        #expect(again.stdout.contains("Chat messages imported: 0 (already there: 6)"))
        let csv = try CLIRunner.run(["export", "--format", "csv", "--db", other])
        #expect(csv.stdout.contains("chat,") && csv.stdout.contains("Work was loud and I grazed all day"))
    }

    @Test("--delete-history, delete-all, and chat_history_days removing old messages when a chat starts")
    func deleting() throws {
        let db = tempDB()
        _ = try chat([#""Monday was hard""#], db: db, extra: ["--now", "2026-11-02T20:00:00+01:00"])
        _ = try chat([#""Friday was better""#], db: db, extra: ["--now", "2026-11-20T20:00:00+01:00"])
        let set = try CLIRunner.run(["settings", "set", "chat_history_days", "7", "--db", db])
        #expect(set.status == 0, "\(set.stderr)")
        _ = try chat([#""Saturday""#], db: db, extra: ["--now", "2026-11-21T20:00:00+01:00"])
        func count() throws -> Int {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-chat-\(UUID().uuidString).json").path
            _ = try CLIRunner.run(["export", "--format", "json", "--out", path, "--db", db])
            let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            return (doc?["chat_messages"] as? [[String: Any]])?.count ?? 0
        }
        #expect(try count() == 4, "Monday's two messages were older than 7 days")
        let deleted = try CLIRunner.run(["chat", "--delete-history", "--db", db])
        #expect(deleted.stdout.contains("Chat history deleted (4 messages)."), "\(deleted.stdout) \(deleted.stderr)")
        #expect(try count() == 0)
        _ = try chat([#""Sunday""#], db: db)
        let all = try CLIRunner.run(["delete-all", "--yes", "--db", db])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try count() == 0)
    }

    @Test("an openai server configured by the settings llm_url and llm_model is used; the retry and the fallback line")
    func configuredBySettings() throws {
        let server = try LoopbackServer { _ in LoopbackServer.Reply(status: 503, body: "{}") }
        let db = tempDB()
        let set = try CLIRunner.run(["settings", "set", "llm_url", server.baseURL, "llm_model", "tiny", "--db", db])
        #expect(set.status == 0, "\(set.stderr)")
        let out = try chat([#""Hello""#], db: db)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(server.requestCount == 2)
        #expect(out.events.first?["reply"] as? String == "Sorry, please try again.")
        let sent = try #require(server.requests.first)
        let model = (try? JSONSerialization.jsonObject(with: sent.body) as? [String: Any])?["model"] as? String
        #expect(model == "tiny")
    }

    @Test("the provider is asked to keep to the person's profile: reply length, tone, liked actions, topics to avoid")
    func profileReachesTheProvider() throws {
        let server = try LoopbackServer { _ in .chat("Let's take one small step tonight. What would help most?") }
        let db = tempDB()
        #expect(try CLIRunner.run(["settings", "set", "llm_url", server.baseURL, "llm_model", "tiny", "--db", db]).status == 0)
        let set = try CLIRunner.run(["profile", "set", "tone", "direct", "length", "short", "actions", "exercise", "avoid", "money,family",
                                     "--db", db])
        #expect(set.status == 0, "\(set.stderr)")
        let out = try chat([#""I grazed all afternoon""#], db: db)
        #expect(out.status == 0, "\(out.stderr)")
        let system = try #require(server.requests.first?.messages.first { $0.role == "system" }?.content)
        #expect(system.contains("reply length: short: at most 30 words"), "\(system)")
        #expect(system.contains("tone: direct"))
        #expect(system.contains("actions they liked: exercise"))
        #expect(system.contains("topics not to bring up unless they do: money, family") || system.contains("topics not to bring up unless they do: family, money"),
                "\(system)")

        // Without choices: the defaults (medium, warm), nothing to avoid.
        let plain = try LoopbackServer { _ in .chat("Tell me more about the afternoon?") }
        let other = tempDB()
        #expect(try CLIRunner.run(["settings", "set", "llm_url", plain.baseURL, "llm_model", "tiny", "--db", other]).status == 0)
        #expect(try chat([#""Hello""#], db: other).status == 0)
        let defaults = try #require(plain.requests.first?.messages.first { $0.role == "system" }?.content)
        #expect(defaults.contains("reply length: medium: at most 80 words") && defaults.contains("tone: warm"), "\(defaults)")
        #expect(!defaults.contains("topics not to bring up"))
    }
}

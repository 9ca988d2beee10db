import Foundation
import GRDB
import ReflectStore
import Testing

/// Issue 18, item 1: every prompt kind answers through every documented
/// route — the terminal, an answers file (JSONL), a transcript test and the
/// library (ReflectEngineTests › AnswerRoutesLibraryTests) — and the same
/// answers are stored whichever route they came by.
@Suite("answer routes: every kind through every route", .hangGuard)
struct AnswerRoutesTests {
    /// One step of each kind; the last message repeats what the flow received.
    static let flow = """
        return flow {
          id = "test.routes", version = 1, total = 7,
          run = function(s)
            local feel = s:intensity { id = "feel", text = "How strong?" }
            local what = s:ask { id = "what", text = "What happened?" }
            local ok = s:yesno { id = "ok", text = "Was it ok?" }
            local one = s:choose { id = "one", text = "Which one?", options = {
              { id = "walk", text = "A walk" }, { id = "call", text = "A call" } } }
            local many = s:choose_many { id = "many", text = "Which ones?", options = {
              { id = "tea", text = "Tea" }, { id = "nap", text = "A nap" }, { id = "music", text = "Music" } } }
            local list = s:checklist { id = "list", text = "How did these go?", items = {
              { id = "water", text = "Water" }, { id = "steps", text = "Steps" } } }
            s:action { id = "breathe", text = "Breathe out slowly." }
            s:message { id = "bye", text = "got " .. feel .. "/" .. what .. "/" .. tostring(ok) .. "/" .. one .. "/"
              .. table.concat(many, "+") .. "/" .. list.water .. "," .. list.steps }
          end,
        }
        """

    /// What a person types at the terminal, one line per prompt.
    static let typed = ["6", "Lunch ran late", "y", "2", "1,3", "done partly", "", ""]
    /// The same answers as JSON lines (docs/events.md).
    static let jsonl = ["6", "\"Lunch ran late\"", "true", "{\"choose\": \"call\"}", "{\"choose\": [\"tea\", \"music\"]}",
                        "{\"checklist\": {\"water\": \"done\", \"steps\": \"partly\"}}", "{\"done\": true}", "{\"ack\": true}"]
    /// What is stored for them, whatever the route.
    static let stored = ["6", "\"Lunch ran late\"", "true", "{\"choice\":\"call\"}", "{\"choices\":[\"tea\",\"music\"]}",
                         "{\"checklist\":{\"steps\":\"partly\",\"water\":\"done\"}}", "{\"ack\":true}", "{\"ack\":true}"]
    static let received = "got 6/Lunch ran late/true/call/tea+music/done,partly"

    func fixture() throws -> ContentFixture { try ContentFixture(["flows/test/routes.lua": AnswerRoutesTests.flow]) }

    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    func stored(_ db: String) throws -> [String] {
        let store = try Store(path: db, access: .readOnly)
        guard let id = try store.recentSessions(user: "default").first?.id else { return [] }
        return try store.detail(id).answers.filter { $0.state == .answer }.map { String.fromDatabaseValue($0.value.databaseValue) ?? "" }
    }

    @Test("terminal: typed answers for every kind are taken and stored")
    func terminal() throws {
        let content = try fixture()
        defer { content.remove() }
        let db = tempDB()
        let out = try CLIRunner.run(["run", "test.routes", "--content", content.root.path, "--db", db],
                                    stdin: AnswerRoutesTests.typed.joined(separator: "\n") + "\n")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains(AnswerRoutesTests.received), "\(out.stdout)")
        #expect(!out.stdout.contains("↳"), "an answer was refused: \(out.stdout)")
        #expect(try stored(db) == AnswerRoutesTests.stored)
    }

    @Test("JSONL (--answers): the documented answer objects for every kind are taken and stored")
    func answersFile() throws {
        let content = try fixture()
        defer { content.remove() }
        let db = tempDB()
        let out = try CLIRunner.run(["run", "test.routes", "--content", content.root.path, "--db", db, "--format", "jsonl", "--answers", "-"],
                                    stdin: AnswerRoutesTests.jsonl.joined(separator: "\n") + "\n")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.events.contains { $0["event"] as? String == "invalid" || $0["event"] as? String == "error" }, "\(out.stdout)")
        #expect(out.events.contains { $0["event"] as? String == "prompt" && $0["text"] as? String == AnswerRoutesTests.received })
        #expect(out.events.last?["event"] as? String == "done")
        #expect(try stored(db) == AnswerRoutesTests.stored)
    }

    @Test("JSONL: choose by number, and a malformed answer object is refused with its reason")
    func answersFileVariants() throws {
        let content = try fixture()
        defer { content.remove() }
        var lines = AnswerRoutesTests.jsonl
        lines[3] = "{\"choose\": 2}"
        lines[4] = "{\"choose\": [\"1\", 3]}"
        let out = try CLIRunner.run(["run", "test.routes", "--content", content.root.path, "--db", tempDB(), "--format", "jsonl",
                                     "--answers", "-"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.events.contains { $0["text"] as? String == AnswerRoutesTests.received }, "\(out.stdout)")

        let bad = try CLIRunner.run(["run", "test.routes", "--content", content.root.path, "--db", tempDB(), "--format", "jsonl",
                                     "--answers", "-"], stdin: "6\n{\"choose\": \"a\", \"extra\": 1}\n")
        #expect(bad.status == 1)
        let error = try #require(bad.events.last)
        #expect(error["code"] as? String == "answers.invalid" && error["line"] as? Int == 2)
        #expect((error["message"] as? String)?.contains("one key") == true, "\(error)")
    }

    @Test("transcript test: answer objects for every kind pass `reflect test`")
    func transcript() throws {
        let test = """
            flow: test.routes
            tests:
              - name: every kind
                steps:
                  - answer: 6
                  - answer: "Lunch ran late"
                  - answer: true
                  - answer: { choose: call }
                  - answer: { choose: [tea, music] }
                  - answer: { checklist: { water: done, steps: partly } }
                  - answer: { done: true }
                  - prompt: bye
                    text: "\(AnswerRoutesTests.received)"
                    answer: { ack: true }
            """
        let content = try ContentFixture(["flows/test/routes.lua": AnswerRoutesTests.flow, "flows/test/routes.test.yaml": test])
        defer { content.remove() }
        let out = try CLIRunner.run(["test", "--content", content.root.path])
        #expect(out.status == 0, "\(out.stdout)\n\(out.stderr)")
        #expect(out.stdout.contains("every kind"), "\(out.stdout)")
    }
}

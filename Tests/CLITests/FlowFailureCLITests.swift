import Foundation
import GRDB
import ReflectStore
import Testing

/// A person whose flow fails while they answer is told what became of
/// their answers: how to resume when the stored session opens again (the
/// failure did not come from the answers: a database another process held),
/// else that the answers are kept and how to read them — never a resume
/// line that would only fail the same way.
@Suite("what a person is told when the flow fails", .hangGuard)
struct FlowFailureCLITests {
    static let flow = """
        return flow {
          id = "test.fails", version = 1,
          run = function(s)
            s:ask { id = "one", text = "First question?" }
            local n = s:intensity { id = "two", text = "How strong?" }
            if n > 5 then local t = nil; return t.x end
            s:ask { id = "three", text = "Third question?" }
          end,
        }
        """

    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    @Test("a flow error the answers cause: the error with its file and line, then where the saved answers are; no resume line")
    func errorFromTheAnswers() throws {
        let content = try ContentFixture(["flows/test/fails.lua": FlowFailureCLITests.flow])
        defer { content.remove() }
        let db = tempDB()
        let out = try CLIRunner.run(["run", "test.fails", "--content", content.root.path, "--db", db], stdin: "hello\n7\n")
        #expect(out.status == 1)
        #expect(out.stderr.contains("flows/test/fails.lua:6:"), "\(out.stderr)")
        let id = try #require(try Store(path: db, access: .readOnly).recentSessions(user: "default").first?.id)
        #expect(out.stdout.contains("Your answers up to this point are saved; to read them: reflect show \(id.prefix(8)) --db \(db)"),
                "\(out.stdout)")
        #expect(!out.stdout.contains("reflect resume"), "resuming would fail the same way: \(out.stdout)")
        // What the line says is true: both answers are there to read.
        let show = try CLIRunner.run(["show", String(id.prefix(8)), "--db", db, "--content", content.root.path])
        #expect(show.stdout.contains("hello") && show.stdout.contains("7"), "\(show.stdout)")
        // In the person's language.
        let german = try ContentFixture([
            "flows/test/fails.lua": FlowFailureCLITests.flow,
            "locales/de.yaml": try String(contentsOf: repositoryRoot.appendingPathComponent("locales/de.yaml"), encoding: .utf8),
        ])
        defer { german.remove() }
        let de = try CLIRunner.run(["run", "test.fails", "--locale", "de", "--content", german.root.path, "--db", tempDB()],
                                   stdin: "hallo\n7\n")
        #expect(de.stdout.contains("Deine Antworten bis hierher sind gespeichert; du findest sie hier: reflect show"), "\(de.stdout)")
    }

    /// Holds `db` as another process would, for longer than the store waits (10 s).
    func holding(_ db: String) throws -> DatabaseQueue {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: db, configuration: config)
        try holder.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE TRANSACTION") }
        return holder
    }

    func release(_ holder: DatabaseQueue) throws {
        try holder.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
    }

    /// `reflect run test.fails` at a terminal, waiting at its first question's `> `.
    func runAtFirstQuestion(_ content: ContentFixture, _ db: String) throws -> (PseudoTerminal, String.Index) {
        let term = try PseudoTerminal(["run", "test.fails", "--content", content.root.path, "--db", db], columns: 200)
        let asked = try #require(term.waitFor("First question?"), "\(term.screen)")
        return (term, try #require(term.waitFor("> ", after: asked), "\(term.screen)"))
    }

    @Test("a database another process holds when the answer is written: the error, the answer kept, and trying again saves it and goes on")
    func busyThenTryAgain() throws {
        let content = try ContentFixture(["flows/test/fails.lua": FlowFailureCLITests.flow])
        defer { content.remove() }
        let db = tempDB()
        let (term, first) = try runAtFirstQuestion(content, db)
        var at = first
        term.type("hello\r")
        at = try #require(term.waitFor("How strong?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        let holder = try holding(db)
        term.type("3\r")
        let asked = term.waitFor("Try saving it again? [Y/n]", after: at, timeout: 40)
        try release(holder)
        at = try #require(asked, "\(term.screen.suffix(600))")
        #expect(term.screen.contains("[store.write_failed]"), "\(term.screen.suffix(600))")
        // Enter tries again: the answer typed before is the one saved, and
        // the flow goes on without asking for it again.
        term.type("\r")
        at = try #require(term.waitFor("Third question?", after: at), "\(term.screen.suffix(600))")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("third\r")
        #expect(term.finish() == 0, "\(term.screen.suffix(600))")
        let id = try #require(try Store(path: db, access: .readOnly).recentSessions(user: "default").first?.id)
        let show = try CLIRunner.run(["show", String(id.prefix(8)), "--db", db, "--content", content.root.path])
        #expect(show.stdout.contains("→ hello") && show.stdout.contains("→ 3") && show.stdout.contains("→ third"), "\(show.stdout)")
    }

    @Test("declining to try again: what was typed is printed back to copy, then how to resume, and resuming asks that question again")
    func busyThenStop() throws {
        let content = try ContentFixture(["flows/test/fails.lua": FlowFailureCLITests.flow])
        defer { content.remove() }
        let db = tempDB()
        let (term, first) = try runAtFirstQuestion(content, db)
        var at = first
        let holder = try holding(db)
        term.type("words I typed with care\r")
        let asked = term.waitFor("Try saving it again? [Y/n]", after: at, timeout: 40)
        at = try #require(asked, "\(term.screen.suffix(600))")
        term.type("n\r")
        let stopped = term.waitFor("continue any time with: reflect resume", after: at, timeout: 20)
        try release(holder)
        #expect(stopped != nil, "\(term.screen.suffix(600))")
        #expect(term.screen.contains("Not saved. What you typed, to copy: words I typed with care"), "\(term.screen.suffix(600))")
        #expect(term.finish() == 1, "\(term.screen.suffix(600))")

        // The line is true: resuming asks the unsaved question again and goes on.
        let resumed = try CLIRunner.run(["resume", "--content", content.root.path, "--db", db], stdin: "hello\n3\nthird\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("First question?") && resumed.stdout.contains("Third question?"), "\(resumed.stdout)")
    }
}

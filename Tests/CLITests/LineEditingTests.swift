import Foundation
import GRDB
import ReflectStore
import Testing

/// Issue 18, item 4: a person typing at a terminal. `reflect` runs on a
/// pseudo-terminal; the test types arrow keys, backspace over CJK and a
/// 10,000-character paste, and checks what is stored.
@Suite("line editing at a terminal", .hangGuard)
struct LineEditingTests {
    static let flow = """
        return flow {
          id = "test.typing", version = 1,
          run = function(s)
            s:ask { id = "one", text = "First question?" }
            s:ask { id = "two", text = "Second question?" }
            s:ask { id = "three", text = "Third question?" }
            s:message { id = "bye", text = "All typed." }
          end,
        }
        """

    func stored(_ db: String) throws -> [String: String] {
        let store = try Store(path: db, access: .readOnly)
        guard let id = try store.recentSessions(user: "default").first?.id else { return [:] }
        var out: [String: String] = [:]
        for a in try store.detail(id).answers where a.state == .answer {
            if case .text(let s) = a.value { out[a.step.rawValue] = s }
        }
        return out
    }

    @Test("arrow keys move the cursor, backspace removes a whole CJK character, a 10,000-character paste is kept whole")
    func typing() throws {
        let content = try ContentFixture(["flows/test/typing.lua": LineEditingTests.flow])
        defer { content.remove() }
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
        let term = try PseudoTerminal(["run", "test.typing", "--content", content.root.path, "--db", db])
        let left = "\u{1B}[D", right = "\u{1B}[C", backspace = "\u{7F}"

        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("helo" + left + "l" + right + " world" + left + left + left + left + left + left + "," + "\r")
        at = try #require(term.waitFor("Second question?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("日本語" + backspace + "の夏" + left + backspace + right + "!" + "\r")
        at = try #require(term.waitFor("Third question?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        let paste = String(repeating: "晴れた日に", count: 1_000) + String(repeating: "sunny day ", count: 500)
        #expect(paste.count == 10_000)
        term.type(paste + "\r")
        at = try #require(term.waitFor("All typed.", after: at, timeout: 60), "\(term.screen.suffix(500))")
        term.type("\r")
        #expect(term.finish() == 0, "\(term.screen.suffix(500))")

        let answers = try stored(db)
        #expect(answers["one"] == "hello, world")
        #expect(answers["two"] == "日本夏!")
        #expect(answers["three"]?.count == 10_000)
        #expect(answers["three"] == paste)
        #expect(!answers.values.contains { $0.contains("\u{1B}") || $0.contains("[D") })
    }

    @Test("a multi-line paste is one answer: its lines never answer the questions after it; typing line by line still answers one question each")
    func multiLinePaste() throws {
        let content = try ContentFixture(["flows/test/typing.lua": LineEditingTests.flow])
        defer { content.remove() }
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
        let term = try PseudoTerminal(["run", "test.typing", "--content", content.root.path, "--db", db])

        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        // A terminal sends a paste's line breaks as Enter (CR); the last
        // line stays open for editing until the person presses Enter.
        term.type("My boss yelled at me.\rEveryone stared.\rI felt small.")
        at = try #require(term.waitFor("I felt small.", after: at), "\(term.screen)")
        usleep(300_000)
        #expect(!term.screen[at...].contains("Second question?"), "\(term.screen)")
        term.type(" Really small.\r")
        at = try #require(term.waitFor("Second question?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        // A paste that ends with a line break is answered at once.
        term.type("one line\rand another\r")
        at = try #require(term.waitFor("Third question?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("typed alone\r")
        at = try #require(term.waitFor("All typed.", after: at), "\(term.screen)")
        term.type("\r")
        #expect(term.finish() == 0, "\(term.screen.suffix(500))")

        let answers = try stored(db)
        #expect(answers["one"] == "My boss yelled at me.\nEveryone stared.\nI felt small. Really small.")
        #expect(answers["two"] == "one line\nand another")
        #expect(answers["three"] == "typed alone")
        // reflect show keeps every line of such an answer under its arrow.
        let id = try #require(try Store(path: db, access: .readOnly).recentSessions(user: "default").first?.id)
        let show = try CLIRunner.run(["show", id, "--db", db])
        #expect(show.stdout.contains("   → one line\n     and another\n"), "\(show.stdout)")
    }

    @Test("lines typed ahead, before the question is shown, answer one question each; a non-text question never joins lines")
    func typedAhead() throws {
        let content = try ContentFixture(["flows/test/typing.lua": LineEditingTests.flow])
        defer { content.remove() }
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
        let term = try PseudoTerminal(["run", "test.typing", "--content", content.root.path, "--db", db])
        // Typed at once, while reflect is still starting.
        term.type("answer one\ranswer two\r")
        var at = try #require(term.waitFor("Third question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("answer three\r")
        at = try #require(term.waitFor("All typed.", after: at), "\(term.screen)")
        term.type("\r")
        #expect(term.finish() == 0, "\(term.screen.suffix(500))")
        #expect(try stored(db) == ["one": "answer one", "two": "answer two", "three": "answer three"])

        let checkIn = try PseudoTerminal(["run", "demo.check-in", "--db", db], in: repositoryRoot)
        at = try #require(checkIn.waitFor("How strong is the feeling right now?"), "\(checkIn.screen)")
        at = try #require(checkIn.waitFor("> ", after: at), "\(checkIn.screen)")
        checkIn.type("7\rMy week was long\r")
        at = try #require(checkIn.waitFor("what would you say to them?", after: at), "\(checkIn.screen)")
        checkIn.type(":quit\r")
        #expect(checkIn.finish() == 0, "\(checkIn.screen.suffix(500))")
    }

    @Test("a yes/no question at the terminal asks again on a line that is neither: the line is never taken for no")
    func confirmAsksAgain() throws {
        let content = try ContentFixture(["flows/test/typing.lua": LineEditingTests.flow])
        defer { content.remove() }
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
        let first = try PseudoTerminal(["run", "test.typing", "--content", content.root.path, "--db", db])
        var at = try #require(first.waitFor("First question?"), "\(first.screen)")
        at = try #require(first.waitFor("> ", after: at), "\(first.screen)")
        first.type("before the break\r")
        at = try #require(first.waitFor("Second question?", after: at), "\(first.screen)")
        first.type(":quit\r")
        #expect(first.finish() == 0, "\(first.screen.suffix(500))")

        let term = try PseudoTerminal(["run", "test.typing", "--content", content.root.path, "--db", db])
        at = try #require(term.waitFor("[Y/n]"), "\(term.screen)")
        term.type("what was it again\r")
        at = try #require(term.waitFor("Please answer yes or no.", after: at), "\(term.screen)")
        at = try #require(term.waitFor("[Y/n]", after: at), "\(term.screen)")
        term.type("yes\r")
        at = try #require(term.waitFor("Second question?", after: at), "\(term.screen)")
        term.type(":quit\r")
        #expect(term.finish() == 0, "\(term.screen.suffix(500))")
        let store = try Store(path: db, access: .readOnly)
        #expect(try store.recentSessions(user: "default").count == 1, "resumed, not started anew")
    }
}

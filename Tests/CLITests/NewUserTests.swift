import Foundation
import GRDB
import ReflectStore
import Testing

/// Issue 18: what new users hit, as they would see it.
@Suite("what new users hit", .timeLimit(.minutes(3)))
struct NewUserTests {
    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    let checkIn = ["run", "demo.check-in", "--now", "2026-11-22T21:00:00+01:00"]

    // MARK: item 2

    @Test("item 2: the quick-start check-in never quotes a crisis answer back, at the terminal or in JSONL")
    func crisisNotQuoted() throws {
        let text = try CLIRunner.run(checkIn + ["--db", tempDB()], stdin: "8\nI want to kill myself\nn\n", in: repositoryRoot)
        #expect(text.stdout.contains("If a friend told you this"), "\(text.stdout)")
        #expect(!text.stdout.contains("told you \"I want"), "\(text.stdout)")
        let jsonl = try CLIRunner.run(checkIn + ["--db", tempDB(), "--answers", "-", "--format", "jsonl"],
                                      stdin: "8\n\"I want to kill myself\"\n", in: repositoryRoot)
        let prompts = jsonl.events.filter { $0["event"] as? String == "prompt" }.compactMap { $0["text"] as? String }
        #expect(prompts.count == 3 && !prompts.contains { $0.contains("kill") }, "\(prompts)")
    }

    // MARK: item 3

    @Test("item 3: after a crisis message the pause offer and its answer come before the next question")
    func pauseBeforeNextQuestion() throws {
        let out = try CLIRunner.run(checkIn + ["--db", tempDB()], stdin: "8\nI want to kill myself\nn\nBe kind to yourself\n",
                                    in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let stdout = out.stdout
        let notice = try #require(stdout.range(of: "Would you like to pause here?"), "\(stdout)")
        let next = try #require(stdout.range(of: "If a friend told you"), "\(stdout)")
        #expect(notice.upperBound < next.lowerBound, "the next question came before the pause offer:\n\(stdout)")
        // Answering yes stops there: the next question is never shown.
        let paused = try CLIRunner.run(checkIn + ["--db", tempDB()], stdin: "8\nI want to kill myself\ny\n", in: repositoryRoot)
        #expect(paused.stdout.contains("reflect resume"), "\(paused.stdout)")
        #expect(!paused.stdout.contains("If a friend told you"), "\(paused.stdout)")
        // Events: the safety notice (with its pause offer) before any further prompt.
        let jsonl = try CLIRunner.run(checkIn + ["--db", tempDB(), "--answers", "-", "--format", "jsonl"],
                                      stdin: "8\n\"I want to kill myself\"\n", in: repositoryRoot)
        let kinds = jsonl.events.compactMap { $0["event"] as? String }
        #expect(kinds == ["prompt", "saved", "prompt", "saved", "safety", "prompt"], "\(kinds)")
        #expect((jsonl.events.first { $0["event"] as? String == "safety" }?["pause"] as? String)?.isEmpty == false)
    }

    func stored(_ db: String) throws -> [String: String] {
        let store = try Store(path: db, access: .readOnly)
        guard let id = try store.recentSessions(user: "default").first?.id else { return [:] }
        var out: [String: String] = [:]
        for a in try store.detail(id).answers where a.state == .answer {
            if case .text(let s) = a.value { out[a.step.rawValue] = s }
        }
        return out
    }

    // MARK: item 5

    @Test("item 5: an answer may start with ':' — only exact command words are commands, '::' types a colon, a mistyped command shows the help")
    func colonAnswers() throws {
        let db = tempDB()
        let out = try CLIRunner.run(checkIn + ["--db", db], stdin: "6\n:) lunch with my sister\n:qiut\n::quit is what I typed\n:QUIT\n",
                                    in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let answers = try stored(db)
        #expect(answers["situation"] == ":) lunch with my sister")
        #expect(answers["friend"] == ":quit is what I typed")
        #expect(out.stdout.contains("type it twice (::)"), "the help says how to start with a colon: \(out.stdout)")
        #expect(out.stdout.contains("Stopped."), "\(out.stdout)")
    }

    // MARK: item 6

    static let english = ["Resuming where", "Welcome back", "Stopped.", "Paused.", "Commands:", "You have an unfinished"]

    @Test("item 6: the terminal's own lines (help, stopped, resume question, resuming) speak the session's language",
          arguments: ["de", "es", "fr", "ja", "ko", "pt-BR"])
    func terminalLinesTranslated(tag: String) throws {
        let db = tempDB()
        let first = try CLIRunner.run(checkIn + ["--db", db, "--locale", tag], stdin: "6\n:nope\n:quit\n", in: repositoryRoot)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try CLIRunner.run(checkIn + ["--db", db, "--locale", tag], stdin: "\n:quit\n", in: repositoryRoot)
        #expect(second.status == 0, "\(second.stderr)")
        for text in [first.stdout, second.stdout] {
            for english in NewUserTests.english { #expect(!text.contains(english), "\(tag): '\(english)' in\n\(text)") }
            #expect(text.contains("reflect resume"), "\(text)")
        }
    }

    // MARK: item 8

    @Test("item 8: Ctrl-D and Ctrl-C at the terminal say the answers are saved and how to resume, with the --db and --content used")
    func interruptSaysHowToResume() throws {
        let content = try ContentFixture(["flows/test/two.lua": """
            return flow { id = "test.two", version = 1, run = function(s)
              s:ask { id = "one", text = "First question?" }
              s:ask { id = "two", text = "Second question?" }
            end }
            """])
        defer { content.remove() }
        for (key, status) in [("\u{04}", Int32(0)), ("\u{03}", Int32(130))] {
            let db = tempDB()
            let term = try PseudoTerminal(["run", "test.two", "--content", content.root.path, "--db", db])
            var at = try #require(term.waitFor("First question?"), "\(term.screen)")
            at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
            term.type("kept\r")
            at = try #require(term.waitFor("Second question?", after: at), "\(term.screen)")
            at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
            if key == "\u{03}" { term.interrupt() } else { term.type(key) }
            let end = term.finish()
            #expect(end == status, "\(term.screen)")
            let screen = term.screen
            #expect(screen.contains("Your answers are saved"), "\(screen)")
            #expect(screen.contains("reflect resume"), "\(screen)")
            #expect(screen.contains("--db \(db)") && screen.contains("--content \(content.root.path)"), "\(screen)")
            #expect(try stored(db)["one"] == "kept")
        }
    }
}

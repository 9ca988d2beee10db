import Foundation
import GRDB
import ReflectStore
import Testing

/// What a person types at the offer to pause after a crisis notice passes
/// the same gate as an answer (docs/safety.md, "Text typed at the pause"):
/// a crisis there shows the notice and its lines again, is recorded as a
/// category-and-time event (never the text), and the offer is repeated.
@Suite("text typed at the crisis pause is screened", .hangGuard)
struct PauseScreeningTests {
    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    let checkIn = ["run", "demo.check-in", "--now", "2026-11-22T21:00:00+01:00"]
    let message = "It sounds like you're carrying something really heavy right now"
    let offer = "Would you like to pause here?"

    func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The session's safety events (category per row) and its stored answer texts.
    func stored(_ db: String) throws -> (events: [String], texts: [String]) {
        let queue = try DatabaseQueue(path: db)
        return try queue.read { db in
            (try String.fetchAll(db, sql: "SELECT category FROM session_event WHERE kind = 'safety' ORDER BY id"),
             try String.fetchAll(db, sql: "SELECT value FROM answer ORDER BY position"))
        }
    }

    @Test("reflect run: a crisis typed at the pause shows the notice and its lines again, then the offer; no answer is lost")
    func runScreensThePause() throws {
        let db = tempDB()
        let out = try CLIRunner.run(checkIn + ["--db", db],
                                    stdin: "8\nI want to kill myself\nI'm going to hang myself tonight\nn\nBe kind to yourself\n",
                                    in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(occurrences(of: message, in: out.stdout) == 2, "\(out.stdout)")
        #expect(occurrences(of: "988", in: out.stdout) >= 2, "the crisis lines were not shown again:\n\(out.stdout)")
        #expect(occurrences(of: offer, in: out.stdout) == 2, "\(out.stdout)")
        #expect(!out.stdout.contains("Please answer yes or no."), "a crisis was refused as not yes or no:\n\(out.stdout)")
        // The second notice comes before the next question; "n" then goes on.
        let second = try #require(out.stdout.range(of: message, options: .backwards))
        let next = try #require(out.stdout.range(of: "If a friend told you"), "\(out.stdout)")
        #expect(second.upperBound < next.lowerBound, "\(out.stdout)")
        let (events, texts) = try stored(db)
        #expect(events == ["suicide", "suicide"], "one event for the answer, one for the text at the pause: \(events)")
        // The answers are all kept; the text at the pause is not an answer and is not stored.
        #expect(texts.contains { $0.contains("I want to kill myself") } && texts.contains { $0.contains("Be kind to yourself") }, "\(texts)")
        #expect(!texts.contains { $0.contains("hang myself") }, "\(texts)")
    }

    @Test("reflect run: the notice shown again is the one for what was typed at the pause (its category's lines)")
    func categoryOfThePauseText() throws {
        let db = tempDB()
        let out = try CLIRunner.run(checkIn + ["--db", db],
                                    stdin: "8\nI want to kill myself\nmy husband beats me when he drinks\ny\n", in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("What you're describing sounds frightening"), "\(out.stdout)")
        #expect(out.stdout.contains("reflect resume"), "yes after the second notice pauses:\n\(out.stdout)")
        #expect(try stored(db).events == ["suicide", "abuse"])
    }

    @Test("reflect run: a line at the pause that is neither yes, no nor a crisis is still asked again, and stored nowhere")
    func otherWordsAskedAgain() throws {
        let db = tempDB()
        let out = try CLIRunner.run(checkIn + ["--db", db],
                                    stdin: "8\nI want to kill myself\nwhat do you mean\nn\nBe kind to yourself\n", in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("Please answer yes or no."), "\(out.stdout)")
        #expect(occurrences(of: message, in: out.stdout) == 1, "\(out.stdout)")
        #expect(try stored(db).events == ["suicide"])
    }

    @Test("at a real terminal (line editor): a crisis typed at the pause shows the lines again and asks again; yes pauses")
    func terminalScreensThePause() throws {
        let db = tempDB()
        let term = try PseudoTerminal(checkIn + ["--db", db], in: repositoryRoot)
        var at = try #require(term.waitFor("> "), "\(term.screen)")
        term.type("8\r")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("I want to kill myself\r")
        at = try #require(term.waitFor("[y/N]", after: at), "\(term.screen)")
        term.type("I'm going to hang myself tonight\r")
        at = try #require(term.waitFor("988", after: at), "the crisis lines were not shown again:\n\(term.screen)")
        at = try #require(term.waitFor("[y/N]", after: at), "\(term.screen)")
        #expect(!term.screen.contains("Please answer yes or no."), "\(term.screen)")
        term.type("y\r")
        _ = try #require(term.waitFor("reflect resume", after: at), "\(term.screen)")
        #expect(term.finish() == 0, "\(term.screen.suffix(500))")
        #expect(try stored(db).events == ["suicide", "suicide"])
    }

    @Test("reflect resume: the pause after an answer given on resuming screens what is typed there too")
    func resumeScreensThePause() throws {
        let db = tempDB()
        let first = try CLIRunner.run(checkIn + ["--db", db], stdin: "8\n", in: repositoryRoot)
        #expect(first.status == 0, "\(first.stderr)")
        let store = try Store(path: db, access: .readOnly)
        let id = try #require(try store.recentSessions(user: "default").first?.id)
        let out = try CLIRunner.run(["resume", String(id.prefix(8)), "--db", db],
                                    stdin: "I want to kill myself\ni will kill myself tonight\ny\n", in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(occurrences(of: message, in: out.stdout) == 2, "\(out.stdout)")
        #expect(!out.stdout.contains("Please answer yes or no."), "\(out.stdout)")
        #expect(try stored(db).events == ["suicide", "suicide"])
    }
}

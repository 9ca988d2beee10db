import Foundation
import GRDB
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `reflect run` at a terminal, between answers and at its end: keys typed
/// while the next prompt is prepared are the line editor's (never echoed by
/// the kernel, Ctrl-D not taken by it), the terminal's settings (`stty -g`)
/// are the same after `reflect` as before, however it ends, and an answer
/// refused at the terminal comes back on the line to correct.
@Suite("reflect run gives the terminal back and keeps what is typed", .hangGuard)
struct TerminalHandBackTests {
    static let flow = """
        return flow {
          id = "test.handback", version = 1,
          run = function(s)
            s:ask { id = "one", text = "First question?" }
            local n = s:number { id = "count", text = "How many?", min = 0, max = 10 }
            local pick = s:choose { id = "pick", text = "Which one?", options = { {id = "tea", text = "Tea"}, {id = "coffee", text = "Coffee"} } }
            local short = s:ask { id = "short", text = "Eight at most?", max_chars = 8 }
            if short == "boom" then error("boom as asked") end
            s:message { id = "bye", text = "All typed." }
          end,
        }
        """

    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    /// The stored answers' values (JSON as stored), by step.
    func stored(_ db: String) throws -> [String: String] {
        let queue = try DatabaseQueue(path: db)
        return try queue.read { db in
            var out: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT step, value FROM answer ORDER BY position") {
                out[row["step"]] = row["value"]
            }
            return out
        }
    }

    func start(_ content: ContentFixture, db: String) throws -> PseudoTerminal {
        try PseudoTerminal(["run", "test.handback", "--content", content.root.path, "--db", db])
    }

    @Test("between two answers the terminal stays with the line editor; Ctrl-D typed right after Enter ends input; stty -g is as before")
    func betweenAnswers() throws {
        let content = try ContentFixture(["flows/test/handback.lua": Self.flow])
        defer { content.remove() }
        let term = try start(content, db: tempDB())
        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("first answer\r")
        var lineModeSeen = 0
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !term.screen[at...].contains("How many?") {
            if term.inLineMode { lineModeSeen += 1 }
            usleep(500)
        }
        at = try #require(term.waitFor("How many?", after: at, timeout: 1), "\(term.screen)")
        #expect(lineModeSeen == 0, "the terminal went back to line mode between the answers (\(lineModeSeen) samples)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        // Enter and Ctrl-D at once: the Ctrl-D comes while the next prompt is prepared.
        term.type("3\r\u{04}")
        #expect(term.finish() == 0, "Ctrl-D right after Enter ends input: \(term.screen.suffix(400))")
        #expect(term.screen[at...].contains("reflect resume"), "\(term.screen.suffix(400))")
        #expect(term.settings == term.initialSettings)
    }

    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case finished, flowError, quit, endOfInput, interrupt, terminate, hangUp
        var testDescription: String { rawValue }
    }

    @Test("stty -g after reflect run is what it was before, however the run ends", arguments: Ending.allCases)
    func settingsComeBack(_ ending: Ending) throws {
        let content = try ContentFixture(["flows/test/handback.lua": Self.flow])
        defer { content.remove() }
        let term = try start(content, db: tempDB())
        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("first answer\r")
        at = try #require(term.waitFor("How many?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        let status: Int32
        switch ending {
        case .finished, .flowError:
            term.type("3\r")
            at = try #require(term.waitFor("Which one?", after: at), "\(term.screen)")
            term.type("1\r")
            at = try #require(term.waitFor("Eight at most?", after: at), "\(term.screen)")
            at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
            if ending == .flowError {
                term.type("boom\r")
                status = term.finish()
                #expect(status == 1, "\(term.screen.suffix(400))")
                #expect(term.screen[at...].contains("boom as asked"), "\(term.screen.suffix(400))")
            } else {
                term.type("short\r")
                at = try #require(term.waitFor("All typed.", after: at), "\(term.screen)")
                term.type("\r")
                status = term.finish()
                #expect(status == 0, "\(term.screen.suffix(400))")
            }
        case .quit:
            term.type(":quit\r")
            status = term.finish()
            #expect(status == 0)
        case .endOfInput:
            term.type("\u{04}")
            status = term.finish()
            #expect(status == 0)
        case .interrupt:
            term.interrupt()
            status = term.finish()
            #expect(status == 130)
            #expect(term.screen[at...].contains("reflect resume"), "\(term.screen.suffix(400))")
        case .terminate, .hangUp:
            let signal = ending == .terminate ? SIGTERM : SIGHUP
            term.send(signal)
            status = term.finish()
            #expect(term.process.terminationReason == .uncaughtSignal && status == signal, "ends by the signal, as without a handler")
        }
        #expect(term.settings == term.initialSettings, "\(ending): the terminal's settings were not given back")
    }

    @Test("a refused answer comes back on the line, as typed, to correct; only the corrected answer is stored")
    func refusedAnswerOffered() throws {
        let content = try ContentFixture(["flows/test/handback.lua": Self.flow])
        defer { content.remove() }
        let db = tempDB()
        let term = try start(content, db: db)
        let backspace = "\u{7F}"
        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("first answer\r")
        at = try #require(term.waitFor("How many?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        // A number out of range: refused, then on the line again.
        term.type("12\r")
        at = try #require(term.waitFor("from 0 to 10", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> 12", after: at), "the refused number is not on the line again: \(term.screen.suffix(300))")
        term.type(backspace + "\r")
        at = try #require(term.waitFor("Which one?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        // Not one of the options.
        term.type("7\r")
        at = try #require(term.waitFor("> 7", after: at), "\(term.screen.suffix(300))")
        term.type(backspace + "2\r")
        at = try #require(term.waitFor("Eight at most?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        // Too long, non-ASCII: refused, offered again, shortened at its end.
        term.type("日本語 ok 🙂 é extra\r")
        at = try #require(term.waitFor("> 日本語 ok 🙂 é extra", after: at), "\(term.screen.suffix(300))")
        term.type(String(repeating: backspace, count: 8) + "\r")
        at = try #require(term.waitFor("All typed.", after: at), "\(term.screen.suffix(300))")
        term.type("\r")
        #expect(term.finish() == 0, "\(term.screen.suffix(400))")
        let answers = try stored(db)
        #expect(answers["count"] == "1", "\(answers)")
        #expect(answers["pick"] == #"{"choice":"coffee"}"#, "\(answers)")
        #expect(answers["short"] == "\"日本語 ok 🙂\"", "\(answers)")
        let all = answers.values.joined()
        #expect(!all.contains("12") && !all.contains("extra"), "a refused answer was stored: \(answers)")
    }
}

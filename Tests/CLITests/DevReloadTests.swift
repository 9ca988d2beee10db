import Foundation
import Testing

/// `reflect dev`: a flow author edits and saves while the flow runs. The
/// flow reloads at the same step with the answers kept, a broken edit keeps
/// the last good version, and a line being typed when the reload comes is
/// kept, at a terminal (line editor) and piped.
@Suite("reflect dev reloads while the author types", .hangGuard)
struct DevReloadTests {
    static func flow(_ second: String) -> String {
        """
        return flow {
          id = "test.dev", version = 1,
          run = function(s)
            s:ask { id = "one", text = "First question?" }
            local two = s:ask { id = "two", text = "\(second)" }
            s:message { id = "bye", text = "Kept: %@", args = { two } }
          end,
        }
        """
    }

    /// Saves the flow with a new second question, its time stamp moved on
    /// so the change is seen even within the file system's time resolution.
    func save(_ content: ContentFixture, second: String, stamp: TimeInterval) throws {
        let url = content.root.appendingPathComponent("flows/test/dev.lua")
        try DevReloadTests.flow(second).write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: stamp)], ofItemAtPath: url.path)
    }

    @Test("at a terminal: a half-typed line survives a reload and a broken edit, and is answered in full")
    func terminal() throws {
        let content = try ContentFixture(["flows/test/dev.lua": DevReloadTests.flow("Second question?")])
        defer { content.remove() }
        let term = try PseudoTerminal(["dev", "test.dev", "--content", content.root.path, "--interval", "0.05"])
        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("first answer\r")
        at = try #require(term.waitFor("Second question?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("half ty")
        at = try #require(term.waitFor("half ty", after: at), "\(term.screen)")

        try save(content, second: "Second question, edited?", stamp: 5)
        at = try #require(term.waitFor("reloaded (answers kept: 1)", after: at), "\(term.screen)")
        at = try #require(term.waitFor("Second question, edited?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> half ty", after: at), "the half-typed line is shown again: \(term.screen)")

        try save(content, second: "Broken \" }", stamp: 10)
        at = try #require(term.waitFor("edit not loaded", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> half ty", after: at), "still kept after a broken edit: \(term.screen)")

        term.type("ped, then finished\r")
        at = try #require(term.waitFor("Kept: ", after: at), "\(term.screen)")
        #expect(term.waitFor("half typed, then finished", after: at, timeout: 5) != nil,
                "the answer is the whole line, typed before and after the reloads: \(term.screen.suffix(400))")
        term.type("\r")
        term.type("\u{04}")
        #expect(term.finish() == 0, "\(term.screen.suffix(400))")
    }

    /// Keys typed after Enter, while the flow answers and before the next
    /// prompt, are the line editor's: were the terminal back in the kernel's
    /// line mode then, the kernel would echo them (shown twice) and take a
    /// Ctrl-D as an end-of-file mark the editor never sees (input did not
    /// end). A text answer keeps the editor away for at least the paste
    /// window, so the state is watched through that time.
    @Test("at a terminal: between two answers the terminal stays with the line editor, so keys typed ahead are kept as typed")
    func betweenAnswers() throws {
        let content = try ContentFixture(["flows/test/dev.lua": DevReloadTests.flow("Second question?")])
        defer { content.remove() }
        let term = try PseudoTerminal(["dev", "test.dev", "--content", content.root.path, "--interval", "0.05"])
        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        #expect(!term.inLineMode, "editing the first answer")
        term.type("first answer\r")
        var lineModeSeen = 0
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !term.screen[at...].contains("Second question?\r\n> ") {
            if term.inLineMode { lineModeSeen += 1 }
            usleep(500)
        }
        at = try #require(term.waitFor("Second question?", after: at, timeout: 1), "\(term.screen)")
        #expect(lineModeSeen == 0, "the terminal went back to line mode between the answers (\(lineModeSeen) samples)")
        term.type("\u{04}")
        #expect(term.finish() == 0, "Ctrl-D at the empty prompt ends input: \(term.screen.suffix(400))")
        #expect(term.inLineMode, "the terminal is handed back in line mode at exit")
    }

    @Test("at a terminal: a paste of 5,000 characters is kept whole (libedit's callback interface overran a freed buffer and reflect aborted)")
    func longPaste() throws {
        let content = try ContentFixture(["flows/test/dev.lua": DevReloadTests.flow("Second question?")])
        defer { content.remove() }
        let term = try PseudoTerminal(["dev", "test.dev", "--content", content.root.path, "--interval", "0.05"])
        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("first\r")
        at = try #require(term.waitFor("Second question?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type(String(repeating: "abcde", count: 1_000) + "\r")
        at = try #require(term.waitFor("Kept: abcdeabcde", after: at, timeout: 90), "\(term.screen.suffix(400))")
        #expect(!term.screen.contains("crashed"), "\(term.screen.suffix(400))")
        term.type("\r")
        term.type("\u{04}")
        #expect(term.finish() == 0, "\(term.screen.suffix(400))")
    }

    @Test("at a terminal: a multi-line paste into a text question is one answer, as in reflect run; its last line stays open until Enter")
    func multiLinePaste() throws {
        let flow = """
            return flow {
              id = "test.paste", version = 1,
              run = function(s)
                local one = s:ask { id = "one", text = "First question?" }
                local two = s:ask { id = "two", text = "Second question?" }
                s:message { id = "bye", text = "Kept: %1$@ and %2$@", args = { (one:gsub("\\n", " / ")), two } }
              end,
            }
            """
        let content = try ContentFixture(["flows/test/paste.lua": flow])
        defer { content.remove() }
        let term = try PseudoTerminal(["dev", "test.paste", "--content", content.root.path, "--interval", "0.05"])
        var at = try #require(term.waitFor("First question?"), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        // A terminal sends a paste's line breaks as Enter (CR).
        term.type("line one\rline two\rline three")
        at = try #require(term.waitFor("line three", after: at), "\(term.screen)")
        usleep(300_000)
        #expect(!term.screen[at...].contains("Second question?"), "the paste's lines answered the next question: \(term.screen)")
        term.type(" ends here\r")
        at = try #require(term.waitFor("Second question?", after: at), "\(term.screen)")
        at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
        term.type("typed alone\r")
        at = try #require(term.waitFor("Kept: ", after: at), "\(term.screen)")
        #expect(term.waitFor("line one / line two / line three ends here and typed alone", after: at, timeout: 5) != nil,
                "\(term.screen.suffix(400))")
        term.type("\r")
        term.type("\u{04}")
        #expect(term.finish() == 0, "\(term.screen.suffix(400))")
    }

    @Test("piped, in German: each line is read once, a reload in between keeps the answers and says so in German")
    func piped() throws {
        let german = try String(contentsOf: repositoryRoot.appendingPathComponent("locales/de.yaml"), encoding: .utf8)
        let content = try ContentFixture(["flows/test/dev.lua": DevReloadTests.flow("Second question?"), "locales/de.yaml": german])
        defer { content.remove() }
        let process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = ["dev", "test.dev", "--content", content.root.path, "--interval", "0.05", "--locale", "de"]
        process.environment = CLIRunner.isolatedEnvironment()
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let lock = NSLock()
        nonisolated(unsafe) var received = Data()
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            lock.withLock { received.append(chunk) }
        }
        func waitFor(_ text: String) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if lock.withLock({ String(decoding: received, as: UTF8.self) }).contains(text) { return true }
                usleep(20_000)
            }
            return false
        }
        try process.run()
        #expect(waitFor("First question?"))
        input.fileHandleForWriting.write(Data("first answer\n".utf8))
        #expect(waitFor("Second question?"))
        try save(content, second: "Second question, edited?", stamp: 5)
        #expect(waitFor("↻ neu geladen (behaltene Antworten: 1)"))
        #expect(waitFor("Second question, edited?"))
        input.fileHandleForWriting.write(Data("second answer\n".utf8))
        #expect(waitFor("Kept: second answer"))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationStatus == 0, "\(lock.withLock { String(decoding: received, as: UTF8.self) })")
    }
}

import Foundation
import Testing

// `reflect run` on a flow with an unfinished session replays that session
// once: the replay that tells whether it can resume is the session resumed
// (it used to replay it a second time after taking the lease). The flow
// prints a line after its first answer; each replay runs that line again.

@Suite("reflect run replays an unfinished session once", .hangGuard)
struct ResumeReplayTests {
    let fixture: ContentFixture

    init() throws {
        fixture = try ContentFixture([
            "flows/x/count.lua": """
                return flow { id = "x.count", version = 1, title = "Count", run = function(s)
                  s:ask { id = "a", text = "First?" }
                  print("after a")
                  s:ask { id = "b", text = "Second?" }
                  print("after b")
                  s:ask { id = "c", text = "Third?" }
                end }
                """,
        ])
    }

    var db: String { fixture.root.appendingPathComponent("db").path }

    func lines(_ line: String, in text: String) -> Int {
        text.split(separator: "\n").filter { $0.hasSuffix(line) }.count
    }

    /// The first answer, then the run stops at the second prompt (unfinished).
    func startSession() throws {
        let first = try CLIRunner.run(["run", "x.count", "--content", fixture.root.path, "--db", db, "--format", "jsonl", "--answers", "-"],
                                      stdin: "\"one\"\n")
        #expect(lines("[flow] after a", in: first.stderr) == 1, "\(first.stderr)")
        #expect(first.events.last?["step"] as? String == "b")
    }

    @Test("--resume: one replay, and the session continues where it stopped")
    func resumeFlag() throws {
        defer { fixture.remove() }
        try startSession()
        let resumed = try CLIRunner.run(["run", "x.count", "--content", fixture.root.path, "--db", db, "--format", "jsonl",
                                         "--answers", "-", "--resume"], stdin: "\"two\"\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(lines("[flow] after a", in: resumed.stderr) == 1, "\(resumed.stderr)")
        #expect(lines("[flow] after b", in: resumed.stderr) == 1, "\(resumed.stderr)")
        let prompts = resumed.events.filter { $0["event"] as? String == "prompt" }.compactMap { $0["step"] as? String }
        #expect(prompts == ["b", "c"])
        let saved = resumed.events.filter { $0["event"] as? String == "saved" }.compactMap { $0["step"] as? String }
        #expect(saved == ["b"])
    }

    @Test("answers from a file in text mode: the unfinished session is named in words, never as its string key")
    func resumableLineInWords() throws {
        defer { fixture.remove() }
        try startSession()
        let again = try CLIRunner.run(["run", "x.count", "--content", fixture.root.path, "--db", db, "--answers", "-"], stdin: "\"new\"\n")
        #expect(again.stdout.contains("(an unfinished session "), "\(again.stdout)")
        #expect(!again.stdout.contains("terminal.resumable"), "\(again.stdout)")
    }

    @Test("the terminal's question: one replay when the person says yes; none resumed when they say no")
    func terminalQuestion() throws {
        defer { fixture.remove() }
        try startSession()
        let declined = try CLIRunner.run(["run", "x.count", "--content", fixture.root.path, "--db", db], stdin: "n\n")
        #expect(lines("[flow] after a", in: declined.stderr) == 1, "\(declined.stderr)")
        #expect(!declined.stdout.contains("Welcome back"), "\(declined.stdout)")
        // Declining started a new session: the "yes" case gets a database of its own.
        let db2 = fixture.root.appendingPathComponent("db2").path
        _ = try CLIRunner.run(["run", "x.count", "--content", fixture.root.path, "--db", db2, "--format", "jsonl", "--answers", "-"],
                              stdin: "\"one\"\n")
        let accepted = try CLIRunner.run(["run", "x.count", "--content", fixture.root.path, "--db", db2], stdin: "y\ntwo\n")
        #expect(accepted.stdout.contains("Welcome back"), "\(accepted.stdout)")
        #expect(lines("[flow] after a", in: accepted.stderr) == 1, "\(accepted.stderr)")
        #expect(lines("[flow] after b", in: accepted.stderr) == 1, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("Third?"), "\(accepted.stdout)")
    }
}

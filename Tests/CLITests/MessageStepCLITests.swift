import Foundation
import GRDB
import ReflectCore
import Testing

/// A message step takes no words (docs/flow-api.md): Enter goes on; text
/// typed there is refused with "Press Enter when you are ready to go on."
/// and never stored, at the terminal and in JSON lines alike (it used to be
/// taken as Enter and dropped without a word).
@Suite("Message steps: Enter goes on, typed words are refused, never dropped silently", .hangGuard)
struct MessageStepCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-message-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    func storedText() throws -> [String] {
        try DatabaseQueue(path: db).read { try String.fetchAll($0, sql: "SELECT COALESCE(value, '') FROM answer") }
    }

    @Test("at the terminal: a letter typed at the parts letter's intro is refused and the intro stands; Enter goes on")
    func terminal() throws {
        let run = try reflect(["run", "journal.parts-letter", "--now", "2026-11-24T19:00:00+01:00"],
                              stdin: "Dear part of me that wants comfort food\n\nBeing alone\nCompany\nI hear you\n\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Press Enter when you are ready to go on."), "\(run.stdout)")
        #expect(try !storedText().contains { $0.contains("Dear part") })
        #expect(try storedText().contains { $0.contains("Being alone") })
    }

    @Test("in JSON lines: text at a message is an invalid event (ack_expected), then the same prompt; {\"ack\": true} goes on")
    func jsonLines() throws {
        let run = try reflect(["run", "journal.parts-letter", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T19:00:00+01:00"],
                              stdin: "\"Dear part of me\"\n{\"ack\": true}\n\"Being alone\"\n\"Company\"\n\"I hear you\"\n{\"ack\": true}\n")
        #expect(run.status == 0, "\(run.stderr)")
        let invalid = run.events.filter { $0["event"] as? String == "invalid" }
        #expect(invalid.map { "\($0["step"] ?? "") \($0["code"] ?? "")" } == ["intro ack_expected"], "\(run.stdout)")
        #expect(run.events.contains { $0["event"] as? String == "done" })
        #expect(try !storedText().contains { $0.contains("Dear part") })
    }

    @Test("a crisis typed at a message: the notice and the region's lines come first, then the message stands")
    func crisisAtMessage() throws {
        let run = try reflect(["run", "journal.parts-letter", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T19:00:00+01:00"],
                              stdin: "\"I want to kill myself\"\n{\"command\": \"quit\"}\n")
        let kinds = run.events.compactMap { $0["event"] as? String }
        #expect(kinds.contains("safety"), "\(run.stdout)")
        let safety = try #require(kinds.firstIndex(of: "safety")), invalid = try #require(kinds.firstIndex(of: "invalid"))
        #expect(safety < invalid)
        #expect(try !storedText().contains { $0.contains("kill") })
        let flagged = try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM session_event WHERE kind = 'safety'") }
        #expect(flagged == 1)
    }
}

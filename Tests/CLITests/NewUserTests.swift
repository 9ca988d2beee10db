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
}

import Foundation
import Testing
import LoopbackHTTP

/// Issue 17's must-shows through `reflect run` and `reflect resume`.
@Suite("generated text through the command line", .serialized, .hangGuard)
struct GenerationCLITests {
    static let answers = ["8", #""My manager criticised my report in front of the whole team""#, #""I always mess everything up""#,
                          #""Last month's demo went really well""#, #""One slide had an error; the rest was praised""#]
    static let last = [#""One mistake does not define my work""#, "5"]

    func run(_ extra: [String], stdin: [String], environment: [String: String] = [:], db: String) throws -> CLIRunner.Output {
        try CLIRunner.run(["run", "reflection", "--mood", "bad", "--answers", "-", "--format", "jsonl", "--db", db,
                           "--now", "2026-11-22T20:00:00+01:00"] + extra,
                          stdin: stdin.joined(separator: "\n") + "\n", in: repositoryRoot, environment: environment)
    }

    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-gen-\(UUID().uuidString).db").path
    }

    @Test("the default provider: the final question quotes the person's words, and feedback follows done")
    func defaultProvider() throws {
        let out = try run([], stdin: Self.answers + Self.last, db: tempDB())
        #expect(out.status == 0, "\(out.stderr)")
        let final = try #require(out.events.first { $0["step"] as? String == "reframe" && $0["event"] as? String == "prompt" })
        #expect((final["text"] as? String)?.contains("'I always mess everything up'") == true)
        #expect(out.events.suffix(2).map { $0["event"] as? String } == ["done", "feedback"])
        let feedback = try #require(out.events.last)
        #expect((feedback["observation"] as? String)?.contains("8 to 5") == true, "\(feedback)")
    }

    @Test("--generator none: the static question, no feedback, no delay")
    func noneProvider() throws {
        let started = Date()
        let out = try run(["--generator", "none"], stdin: Self.answers + Self.last, db: tempDB())
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.events.contains { $0["event"] as? String == "feedback" })
        #expect(out.events.last?["event"] as? String == "done")
        let final = try #require(out.events.first { $0["step"] as? String == "reframe" && $0["event"] as? String == "prompt" })
        #expect((final["text"] as? String)?.hasPrefix("Looking at") == true)
        #expect(Date().timeIntervalSince(started) < 20, "contained")
    }

    @Test("resuming a session whose final question was generated sends no request; the server counts them")
    func resumeSendsNothing() throws {
        let good = "If a friend said 'I always mess everything up', what would you tell them?"
        let server = try LoopbackServer { _ in .chat(good) }
        let env = ["REFLECT_LLM_URL": server.baseURL, "REFLECT_LLM_MODEL": "test"]
        let db = tempDB()
        // Stops after the last question is shown (the answers run out).
        let first = try run([], stdin: Self.answers + [#"{"command":"quit"}"#], environment: env, db: db)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(server.requestCount == 1)
        let shown = first.events.first { $0["step"] as? String == "reframe" && $0["event"] as? String == "prompt" }
        #expect(shown?["text"] as? String == good)
        let resumed = try CLIRunner.run(["resume", "--answers", "-", "--format", "jsonl", "--db", db],
                                        stdin: Self.last.joined(separator: "\n") + "\n", in: repositoryRoot, environment: env)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let again = resumed.events.first { $0["step"] as? String == "reframe" && $0["event"] as? String == "prompt" }
        #expect(again?["text"] as? String == good, "the recorded text, not a new one")
        #expect(resumed.events.contains { $0["event"] as? String == "done" })
        // Feedback slots are asked for at the end (one request each); the final question is not asked again.
        let finalAsks = server.requests.filter { $0.messages.first?.content.contains("last question") == true }
        #expect(finalAsks.count == 1)
    }
}

import Foundation
import Testing

/// Issue 6's must-shows through the binary.
@Suite("safety through the CLI", .timeLimit(.minutes(2)))
struct SafetyCLITests {
    @Test("Q1 'I want to end it all' gives a safety event with the region's resources before the next prompt; the flow continues")
    func crisisInFlow() throws {
        let out = try CLIRunner.run(["run", "reflection", "--mood", "bad", "--region", "UK", "--answers", "-", "--format", "jsonl"],
                                    stdin: "8\n\"I want to end it all\"\n\"Nothing will ever change\"\n", in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let kinds = out.events.map { $0["event"] as? String ?? "?" }
        #expect(kinds == ["prompt", "saved", "prompt", "saved", "safety", "prompt", "saved", "distortion", "prompt"], "\(kinds)")
        let safety = try #require(out.events.first { $0["event"] as? String == "safety" })
        #expect(safety["category"] as? String == "suicide")
        #expect(safety["region"] as? String == "UK")
        #expect((safety["resources"] as? [String])?.contains("Samaritans: call 116 123 (free, day and night)") == true)
        #expect((safety["text"] as? String)?.isEmpty == false && (safety["pause"] as? String)?.isEmpty == false)
        #expect(!(safety["text"] as? String ?? "").contains("end it all"))
        #expect(out.events[5]["step"] as? String == "thought")
        #expect(!out.stderr.contains("end it all"), "nothing logs the person's words")
    }

    @Test("reflect safety prints crisis CATEGORY or ok per line; --generated prints blocked REASON or ok")
    func batch() throws {
        let gate = try CLIRunner.run(["safety", "--locale", "en"],
                                     stdin: "I want to end it all\nI'm killing it at work\nk1ll mys3lf\nmy husband hits me\n", in: repositoryRoot)
        #expect(gate.stdout == "crisis suicide\nok\ncrisis suicide\ncrisis abuse\n")
        let filter = try CLIRunner.run(["safety", "--locale", "en", "--generated"],
                                       stdin: "call me at 555-123-4567\nyou have depression\nText HOME to 741741\nyou have the strength to get through this\n",
                                       in: repositoryRoot)
        #expect(filter.stdout == "blocked pii.phone\nblocked medical.diagnosis\nok\nok\n")
    }
}

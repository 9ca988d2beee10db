import Foundation
import Testing

/// Issue 6's must-shows through the binary.
@Suite("safety through the CLI", .hangGuard)
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

    @Test("a flow that fails right after a crisis answer: the notice and the lines are shown before the error, at the terminal and in jsonl")
    func crisisThenFlowFails() throws {
        let fixture = try ContentFixture([
            "flows/x/broken.lua": """
                return flow { id = "x.broken", version = 1, run = function(s)
                  local what = s:ask { id = "what", text = "What is on your mind?" }
                  local t = nil
                  s:message { id = "m", text = "You said " .. t.field }
                end }
                """,
        ])
        defer { fixture.remove() }
        let db = fixture.root.appendingPathComponent("db").path
        let jsonl = try CLIRunner.run(["run", "x.broken", "--content", fixture.root.path, "--db", db, "--answers", "-", "--format", "jsonl"],
                                      stdin: "\"I want to end it all\"\n")
        #expect(jsonl.status == 1)
        #expect(jsonl.events.map { $0["event"] as? String ?? "?" } == ["prompt", "saved", "safety", "error"], "\(jsonl.stdout)")
        #expect(jsonl.events.first { $0["event"] as? String == "safety" }?["category"] as? String == "suicide")
        let text = try CLIRunner.run(["run", "x.broken", "--content", fixture.root.path, "--db", db, "--new"], stdin: "I want to end it all\n")
        #expect(text.status == 1)
        #expect(text.stdout.contains("988"), "\(text.stdout)")
        #expect(text.stderr.contains("flows/x/broken.lua:4"), "\(text.stderr)")
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

    @Test("reflect safety --report FILE prints precision, recall and F1 per category for a labelled file; a bad label names file and line")
    func report() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("mine.tsv")
        try """
            # a translator's list
            I want to end it all\tsuicide
            my husband hits me\tabuse
            I'm killing it at work\tok
            I want to end it all, said the villain\tok
            I relapsed last night\tsubstance_abuse

            nothing today\tcrisis
            """.write(to: file, atomically: true, encoding: .utf8)
        let out = try CLIRunner.run(["safety", "--locale", "en", "--report", file.path, "--misses"], in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let rows = Dictionary(out.stdout.split(separator: "\n").map { line in
            (String(line.split(separator: " ").first ?? ""), line.split(separator: " ").map(String.init))
        }, uniquingKeysWith: { a, _ in a })
        #expect(rows["suicide"] == ["suicide", "1", "1", "1", "0", "0.50", "1.00", "0.67"], "\(out.stdout)")
        #expect(rows["abuse"] == ["abuse", "1", "1", "0", "0", "1.00", "1.00", "1.00"])
        #expect(rows["crisis"] == ["crisis", "1", "0", "0", "1", "1.00", "0.00", "0.00"])
        #expect(out.stdout.contains("false alarms: 1 of 2 ok lines (50.0%)"))
        #expect(out.stdout.contains("mine.tsv:5: expected ok, got suicide: I want to end it all, said the villain"))
        try "fine\tokay\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = try CLIRunner.run(["safety", "--locale", "en", "--report", file.path], in: repositoryRoot)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("mine.tsv:1: unknown label 'okay'"), "\(bad.stderr)")
    }
}

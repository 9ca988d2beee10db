import Foundation
import Testing

/// Issue 3's must-shows, end to end through `reflect run --format jsonl`.
@Suite("reflection flows through the machine interface", .hangGuard)
struct ReflectionJSONLTests {
    /// Runs `reflect run reflection --mood MOOD` with JSON answer lines.
    func run(_ mood: String, _ answers: [String], extra: [String] = []) throws -> CLIRunner.Output {
        let out = try CLIRunner.run(["run", "reflection", "--mood", mood, "--answers", "-", "--format", "jsonl",
                                     "--now", "2026-11-22T20:00:00+01:00", "--seed", "3"] + extra,
                                    stdin: answers.joined(separator: "\n") + "\n", in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        return out
    }

    func json(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    func prompts(_ out: CLIRunner.Output) -> [[String: Any]] { out.events.filter { $0["event"] as? String == "prompt" } }

    @Test("negative: 5 questions between the two intensities, progress 1/5 … 5/5; positive 3; neutral 4; done reports the change")
    func lengthsAndProgress() throws {
        for (mood, count) in [("bad", 5), ("great", 3), ("average", 4)] {
            let answers = ["8"] + (1...count).map { json("Answer \($0): a specific moment from this afternoon at work.") } + ["5"]
            let out = try run(mood, answers)
            let shown = prompts(out)
            #expect(shown.count == count + 2, "\(mood)")
            #expect(shown.first?["step"] as? String == "pre")
            #expect(shown.last?["step"] as? String == "post")
            let progress = shown.dropFirst().dropLast().map { "\($0["index"] as? Int ?? -1)/\($0["total"] as? Int ?? -1)" }
            #expect(progress == (1...count).map { "\($0)/\(count)" }, "\(mood)")
            // done, then the feedback of the default (template) provider.
            #expect(out.events.suffix(2).map { $0["event"] as? String } == ["done", "feedback"], "\(mood)")
            let done = try #require(out.events.first { $0["event"] as? String == "done" })
            #expect(done["pre"] as? Int == 8 && done["post"] as? Int == 5 && done["delta"] as? Int == -3)
        }
    }

    @Test("Q3 quotes Q2; back to Q2, a new answer, forward: Q3 quotes the new answer and offers the old Q3 answer as a draft")
    func backAndDraft() throws {
        let out = try run("bad", ["7", json("My manager criticised my report in front of the team"),
                                  json("I always mess everything up"), json("Last month's demo went well"),
                                  #"{"command":"back"}"#, #"{"command":"back"}"#,
                                  json("I'm such a failure"), #"{"command":"keep"}"#])
        let shown = prompts(out)
        let firstQ3 = try #require(shown.first { $0["step"] as? String == "perspective" })
        #expect(firstQ3["text"] as? String == "Can you think of one counter-example to 'I always mess everything up'?")
        let lastQ3 = try #require(shown.last { $0["step"] as? String == "perspective" })
        #expect(lastQ3["text"] as? String == "Is 'I'm such a failure' something you are, or something you did?")
        #expect(lastQ3["draft"] as? String == "Last month's demo went well")
        let q4 = try #require(shown.last)
        #expect(q4["step"] as? String == "evidence")
        #expect(q4["text"] as? String == "What evidence supports 'I'm such a failure', and what challenges it?")
    }

    @Test("each distortion leads to its Q3", arguments: [
        ("I always mess everything up", "overgeneralization", "Can you think of one counter-example to 'I always mess everything up'?"),
        ("I should have done better", "should_statement", "Where did the rule 'I should …' come from? Is it still serving you?"),
        ("I'm such a failure", "labeling", "Is 'I'm such a failure' something you are, or something you did?"),
        ("I always ruin everything", "catastrophizing", "What's the worst case? What's the most likely case?"),
        ("It's my fault the project failed", "personalization", "What other factors, besides you, contributed to this?"),
        ("She thinks I'm an idiot", "mind_reading", "What evidence do you have for that interpretation? What else could it mean?"),
        ("I had a meeting at 3pm", "unknown", "If a good friend told you 'I had a meeting at 3pm', what would you want them to consider?"),
    ])
    func distortionQ3(thought: String, type: String, q3: String) throws {
        let out = try run("bad", ["6", json("The client call this morning went sideways quickly"), json(thought)])
        let distortion = try #require(out.events.first { $0["event"] as? String == "distortion" })
        #expect(distortion["type"] as? String == type)
        let confidence = try #require(distortion["confidence"] as? Double)
        #expect(type == "unknown" ? confidence < 0.5 : confidence >= 0.5 && confidence <= 1)
        #expect(distortion["step"] as? String == "thought")
        #expect(prompts(out).last?["text"] as? String == q3)
    }

    @Test("a 200-character thought is injected cut at 60 characters plus …")
    func longThought() throws {
        let thought = String(repeating: "I keep replaying every single word I said in that meeting ", count: 4)
        #expect(thought.count >= 200)
        let out = try run("bad", ["6", json("The planning meeting at work went badly this morning"), json(thought)])
        let q3 = try #require(prompts(out).last?["text"] as? String)
        let quoted = try #require(q3.split(separator: "'").dropFirst().first.map(String.init))
        #expect(quoted.hasSuffix("…"))
        #expect(quoted.count <= 61)
        #expect(thought.hasPrefix(String(quoted.dropLast())))
    }

    @Test("Q1 'idk' gives a probe event; a full sentence gives none")
    func probe() throws {
        let vague = try run("bad", ["6", json("idk")])
        let probe = try #require(vague.events.first { $0["event"] as? String == "probe" })
        #expect(probe["step"] as? String == "situation")
        #expect((probe["text"] as? String)?.isEmpty == false)
        #expect(prompts(vague).last?["step"] as? String == "thought", "the probe does not block")
        let specific = try run("bad", ["6", json("My manager criticised my report in front of the whole team")])
        #expect(!specific.events.contains { $0["event"] as? String == "probe" })
    }

    @Test("an intensity of 11 gives an invalid event, then the same prompt again")
    func invalidIntensity() throws {
        let out = try run("bad", ["11", "6"])
        let kinds = out.events.map { $0["event"] as? String ?? "" }
        #expect(Array(kinds.prefix(5)) == ["prompt", "invalid", "prompt", "saved", "prompt"])
        #expect(out.events[1]["code"] as? String == "intensity_range")
        #expect(out.events[2]["step"] as? String == "pre")
        #expect(out.events[4]["step"] as? String == "situation")
    }
}

@Suite("reflect detect and reflect flows", .hangGuard)
struct DetectAndFlowsTests {
    @Test("reflect detect labels one line per line of input")
    func detect() throws {
        let lines = ["I always mess everything up", "I should have done better", "I'm such a failure", "I always ruin everything",
                     "It's my fault the project failed", "She thinks I'm an idiot", "I had a meeting at 3pm", ""]
        let out = try CLIRunner.run(["detect", "--locale", "en"], stdin: lines.joined(separator: "\n") + "\n", in: repositoryRoot)
        #expect(out.status == 0)
        #expect(out.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                == ["overgeneralization", "should_statement", "labeling", "catastrophizing", "personalization", "mind_reading",
                    "unknown", "unknown", ""])
    }

    @Test("reflect detect --confidence adds the confidence; below the threshold the label is unknown")
    func detectConfidence() throws {
        let out = try CLIRunner.run(["detect", "--confidence"], stdin: "She thinks I'm an idiot\nThe weather was terrible\nI had lunch\n",
                                    in: repositoryRoot)
        #expect(out.status == 0)
        let rows = out.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { $0[0] } == ["mind_reading", "unknown", "unknown"])
        #expect(rows[0][1] == "0.90")
        #expect(rows[1][1] == "0.30")
        #expect(rows[2][1] == "0.00")
    }

    @Test("reflect detect --explain shows each match, what cancelled it, the scores and why the winner won")
    func detectExplain() throws {
        let out = try CLIRunner.run(["detect", "--explain", "It's not my fault, but she thinks I'm an idiot"], in: repositoryRoot)
        #expect(out.status == 0)
        #expect(out.stdout.contains("personalization (strong 0.90): rule \"my fault\" on \"my fault\": cancelled by negation 'not'"))
        #expect(out.stdout.contains("winner mind_reading"))
        #expect(out.stdout.contains("its match comes first and frames the other's"))
        #expect(out.stdout.hasSuffix("result mind_reading (confidence 0.90 ≥ threshold 0.50)\n"))
        let quoted = try CLIRunner.run(["detect", "--explain", "My friend said \"you always mess up\" as a joke"], in: repositoryRoot)
        #expect(quoted.stdout.contains("ignored: inside someone else's quotation"))
        #expect(quoted.stdout.contains("result unknown"))
    }

    @Test("reflect detect --report prints per-type figures, coverage and precision when routed; a bad line names its number")
    func detectReport() throws {
        let fixture = try ContentFixture(["labelled.tsv": """
            # a comment
            I always mess everything up\tovergeneralization
            I should have known better\tshould_statement
            The bus was late\tunknown
            I'm such an idiot\tmind_reading

            We had pasta\tlabeling
            """])
        let out = try CLIRunner.run(["detect", "--report", fixture.root.appendingPathComponent("labelled.tsv").path], in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("5 thoughts (4 distorted, 1 unknown)"))
        #expect(out.stdout.contains("coverage 0.75 (3 of 4 distorted thoughts named a type)"))
        #expect(out.stdout.contains("precision when routed 0.67 (2 of 3 named thoughts right)"))
        let should = try #require(out.stdout.split(separator: "\n").first { $0.hasPrefix("should_statement") })
        #expect(should.split(separator: " ").map(String.init) == ["should_statement", "1", "1", "1.00", "1.00", "1.00", "1.00"])
        let misses = try CLIRunner.run(["detect", "--misses", "--report", fixture.root.appendingPathComponent("labelled.tsv").path], in: repositoryRoot)
        #expect(misses.stdout.contains("line 5: expected mind_reading, got labeling: I'm such an idiot"))
        #expect(misses.stdout.contains("line 7: expected labeling, got unknown: We had pasta"))
        let bad = try ContentFixture(["bad.tsv": "I always fail\tovergeneralisation\n"])
        let error = try CLIRunner.run(["detect", "--report", bad.root.appendingPathComponent("bad.tsv").path], in: repositoryRoot)
        #expect(error.status == 1)
        #expect(error.stderr.contains("bad.tsv:1"))
        #expect(error.stderr.contains("unknown type 'overgeneralisation'"))
    }

    @Test("reflect flows lists id, title and question count")
    func flows() throws {
        let out = try CLIRunner.run(["flows"], in: repositoryRoot)
        #expect(out.status == 0)
        let negative = try #require(out.stdout.split(separator: "\n").first { $0.hasPrefix("reflection.negative ") })
        #expect(negative.contains("Thought record"))
        #expect(negative.contains(" 5 "))
        #expect(negative.contains("flows/reflection/negative.lua"))
        #expect(out.stdout.contains("reflection.positive") && out.stdout.contains("reflection.neutral"))
    }
}

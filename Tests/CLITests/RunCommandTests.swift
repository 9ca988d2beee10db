import Foundation
import Testing

@Suite("reflect run", .hangGuard)
struct RunCommandTests {
    @Test("the demo flow runs end to end through the machine interface")
    func demoJSONL() throws {
        let answers = ["\"not a number\"", "11", "6", "\"I messed up the presentation\"", "\"One slide is not the talk\"", "3", "{\"done\": true}"]
        let out = try CLIRunner.run(["run", "demo.check-in", "--answers", "-", "--format", "jsonl", "--now", "2026-11-22T08:00:00+01:00"],
                                    stdin: answers.joined(separator: "\n") + "\n", in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let kinds = out.events.map { $0["event"] as? String ?? "?" }
        #expect(kinds == ["prompt", "invalid", "prompt", "invalid", "prompt", "saved", "prompt", "saved", "prompt", "saved", "prompt",
                          "saved", "prompt", "saved", "done"])
        let prompts = out.events.filter { $0["event"] as? String == "prompt" }
        #expect(prompts.map { $0["step"] as? String } == ["pre", "pre", "pre", "situation", "friend", "post", "close"])
        #expect((prompts[4]["text"] as? String)?.contains("\"I messed up the presentation\"") == true)
        #expect(prompts.map { $0["index"] as? Int } == [1, 1, 1, 2, 3, 4, 4])
        #expect(prompts[0]["total"] as? Int == 4)
    }

    @Test("a flow whose body is `while true do end` fails with a budget error naming flows/…:LINE and exit 1")
    func runawayFlow() throws {
        let fixture = try ContentFixture([
            "flows/bad/loop.lua": "-- runaway\nreturn flow { id = \"bad.loop\", version = 1, run = function(s)\n  s:ask { id = \"a\", text = \"hi\" }\n  while true do end\nend }\n",
            "flows/bad/top.lua": "local x = 1\nwhile true do end\n",
        ])
        defer { fixture.remove() }
        let top = try CLIRunner.run(["run", "flows/bad/top.lua", "--format", "jsonl", "--answers", "-"], in: fixture.root)
        #expect(top.status == 1)
        let error = try #require(top.events.last)
        #expect(error["code"] as? String == "lua.budget")
        #expect(error["file"] as? String == "flows/bad/top.lua")
        #expect(error["line"] as? Int == 2)
        #expect(top.stderr.contains("error: flows/bad/top.lua:2: instruction budget exceeded"))

        let step = try CLIRunner.run(["run", "bad.loop", "--content", fixture.root.path], stdin: "hello\n")
        #expect(step.status == 1)
        #expect(step.stderr.contains("flows/bad/loop.lua:4: instruction budget exceeded"))
        #expect(!step.stderr.contains(fixture.root.path), "absolute paths must not leak into errors")
    }

    @Test("string.rep('x', 2^31) in a flow is a memory-limit error; os.execute is unavailable")
    func memoryAndOS() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-pwned-\(UUID().uuidString)")
        let fixture = try ContentFixture([
            "flows/bad/mem.lua": "local big = string.rep(\"x\", 2^31)\n",
            "flows/bad/os.lua": "os.execute(\"touch \(marker.path)\")\n",
        ])
        defer { fixture.remove() }
        let mem = try CLIRunner.run(["run", "flows/bad/mem.lua", "--format", "jsonl"], in: fixture.root)
        #expect(mem.status == 1)
        #expect(mem.events.last?["code"] as? String == "lua.memory_limit")
        #expect(mem.events.last?["line"] as? Int == 1)
        let os = try CLIRunner.run(["run", "flows/bad/os.lua", "--format", "jsonl"], in: fixture.root)
        #expect(os.status == 1)
        #expect(os.events.last?["message"] as? String == "unknown global 'os'")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    @Test("syntax errors, unknown flows and malformed answer lines are clear errors")
    func clearErrors() throws {
        let fixture = try ContentFixture([
            "flows/bad/syntax.lua": "return flow {\n  id = \"bad.syntax\",\n  version = = 1,\n}\n",
        ])
        defer { fixture.remove() }
        let syntax = try CLIRunner.run(["run", "flows/bad/syntax.lua", "--format", "jsonl"], in: fixture.root)
        #expect(syntax.status == 1)
        #expect(syntax.events.last?["code"] as? String == "lua.syntax")
        #expect(syntax.events.last?["line"] as? Int == 3)

        let missing = try CLIRunner.run(["run", "no.such.flow", "--content", fixture.root.path, "--format", "jsonl"])
        #expect(missing.status == 1)
        #expect(missing.events.last?["code"] as? String == "flow.not_found")

        let garbled = try CLIRunner.run(["run", "demo.check-in", "--answers", "-", "--format", "jsonl"],
                                        stdin: "5\n{oops\n", in: repositoryRoot)
        #expect(garbled.status == 1)
        #expect(garbled.events.last?["code"] as? String == "answers.invalid")
        #expect((garbled.events.last?["message"] as? String)?.hasPrefix("line 2:") == true)
    }
}

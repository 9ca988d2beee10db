import Foundation
import Testing

/// Issue 7's must-shows: check, test and the tutorial, through the binary.
@Suite("authoring tools", .hangGuard)
struct AuthoringCLITests {
    func copy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-authoring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for sub in ["flows", "locales", "personalities"] {
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(sub), to: dir.appendingPathComponent(sub))
        }
        return dir
    }

    func write(_ text: String, _ path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test("a syntax error on line 7 is reported as flows/…:7:… with its code, and check exits 1")
    func syntaxLine7() throws {
        let root = try copy()
        try write("""
            -- line 1
            return flow {
              id = "test.broken",
              version = 1,
              run = function(s)
                local a = s:ask { id = "a", text = "Hello?" }
                if a == then
                end
              end,
            }
            """, "flows/test/broken.lua", in: root)
        let out = try CLIRunner.run(["check", "--content", root.path, "--runs", "5"])
        #expect(out.status == 1)
        #expect(out.stdout.contains("flows/test/broken.lua:7:13: error R001: unexpected symbol near 'then'"), "\(out.stdout)")
        #expect(out.stdout.contains("fix: "))
        let json = try CLIRunner.run(["check", "--content", root.path, "--runs", "5", "--format", "json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(items.contains { $0["code"] as? String == "R001" && $0["line"] as? Int == 7 && $0["column"] as? Int == 13 })
    }

    @Test("memory filled by a flow's top-level code or its celebration rules is reported at the line that filled it, by check and by run")
    func memoryErrorLines() throws {
        let root = try copy()
        try write("""
            -- a flow whose top-level code fills the memory cap
            local parts = {}
            for i = 1, 1e7 do
              parts[i] = { i }
            end
            return flow { id = "test.hog", version = 1, run = function(s) s:ask { id = "a", text = "Hello?" } end }
            """, "flows/test/hog.lua", in: root)
        try write("""
            return flow { id = "greedy.one", version = 1, run = function(s) s:ask { id = "a", text = "Hello?" } end }
            """, "flows/greedy/one.lua", in: root)
        try write("""
            -- celebration rules whose answer hook fills the memory cap
            return {
              after = function(s, step, value)
                local t = {}
                for i = 1, 1e7 do t[i] = { i } end
              end,
            }
            """, "flows/greedy/celebrations.lua", in: root)
        let check = try CLIRunner.run(["check", "--content", root.path, "--runs", "5"])
        #expect(check.stdout.contains("flows/test/hog.lua:4: error R004: memory limit exceeded"), "\(check.stdout)")
        let run = try CLIRunner.run(["run", "test.hog", "--content", root.path, "--db", root.appendingPathComponent("hog.sqlite").path, "--answers", "-", "--format", "jsonl"], stdin: "")
        #expect(run.stdout.contains(#""code":"lua.memory_limit""#), "\(run.stdout)")
        #expect(run.stdout.contains(#""file":"flows/test/hog.lua""#) && run.stdout.contains(#""line":4"#), "\(run.stdout)")
        let rules = try CLIRunner.run(["run", "greedy.one", "--content", root.path, "--db", root.appendingPathComponent("greedy.sqlite").path, "--answers", "-", "--format", "jsonl"], stdin: #""hello""# + "\n")
        #expect(rules.stdout.contains(#""code":"lua.memory_limit""#), "\(rules.stdout)")
        #expect(rules.stdout.contains(#""file":"flows/greedy/celebrations.lua""#) && rules.stdout.contains(#""line":5"#), "\(rules.stdout)")
    }

    @Test("a key missing in ko is reported with the key and the locale; the shipped content checks clean")
    func missingInKorean() throws {
        let root = try copy()
        let en = root.appendingPathComponent("locales/en.yaml")
        try (try String(contentsOf: en, encoding: .utf8)).replacingOccurrences(of: "strings:\n", with: "strings:\n  test.greeting: \"Hello there\"\n")
            .write(to: en, atomically: true, encoding: .utf8)
        try write("""
            return flow { id = "test.greet", version = 1, run = function(s)
              s:ask { id = "hello", text = "test.greeting" }
            end }
            """, "flows/test/greet.lua", in: root)
        let out = try CLIRunner.run(["check", "--content", root.path, "--runs", "5"])
        #expect(out.stdout.contains("flows/test/greet.lua:2: warning R006: uses 'test.greeting', which is not translated in ko (missing)"),
                "\(out.stdout)")
        #expect(out.status == 0, "a missing translation is a warning")
        let shipped = try CLIRunner.run(["check"], in: repositoryRoot)
        #expect(shipped.status == 0, "\(shipped.stdout)")
        #expect(!shipped.stdout.contains(" error "), "\(shipped.stdout)")
    }

    @Test("the explorer finds a step that no answer can reach")
    func unreachable() throws {
        let root = try copy()
        try write("""
            return flow { id = "test.dead", version = 1, run = function(s)
              local a = s:choose { id = "pick", text = "Pick one", options = { { id = "a", text = "A" }, { id = "b", text = "B" } } }
              if a == "c" then
                s:ask { id = "never", text = "Only for option c" }
              end
              s:ask { id = "end", text = "Thanks" }
            end }
            """, "flows/test/dead.lua", in: root)
        let out = try CLIRunner.run(["check", "--content", root.path, "--runs", "20"])
        #expect(out.stdout.contains("flows/test/dead.lua:4: warning R009: step 'never' was never reached in 20 explored runs"), "\(out.stdout)")
        #expect(!out.stdout.contains("step 'end' was never reached"))
    }

    @Test("steps shown only to a person with a history (another flow's answer, prep items, a streak) are explored, not reported unreachable; the shipped flows check clean")
    func livedInFacts() throws {
        let root = try copy()
        try write("""
            return flow { id = "test.plan", version = 1, run = function(s)
              s:ask { id = "plan", text = "What will you try?" }
            end }
            """, "flows/test/plan.lua", in: root)
        try write("""
            return flow { id = "test.later", version = 1, run = function(s)
              local facts = s:facts()
              for _, a in ipairs(facts.earlier) do
                if a.flow == "test.plan" and a.step == "plan" then
                  s:message { id = "recall", text = "You planned: %@", args = { a.value } }
                end
              end
              if #facts.prep > 0 then
                s:checklist { id = "marks", text = "Tonight's prep", items = facts.prep }
              end
              if facts.streak and facts.streak.current > 1 then
                s:message { id = "streak", text = "Another day in a row." }
              end
              s:ask { id = "end", text = "Anything else?" }
            end }
            """, "flows/test/later.lua", in: root)
        let out = try CLIRunner.run(["check", "--content", root.path, "--runs", "20"])
        for step in ["recall", "marks", "streak"] {
            #expect(!out.stdout.contains("step '\(step)' was never reached"), "\(out.stdout)")
        }
        let shipped = try CLIRunner.run(["check"], in: repositoryRoot)
        #expect(shipped.stdout.contains("0 error(s), 0 warning(s)"), "\(shipped.stdout)")
    }

    @Test("a deliberately wrong expectation gives a readable diff and exit 1")
    func wrongExpectation() throws {
        let root = try copy()
        let file = root.appendingPathComponent("flows/reflection/negative.test.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "text: \"Can you think of one counter-example to 'I always mess everything up'?\"",
                                      with: "text: \"Can you think of one counter-example to 'I always mess things up'?\"")
            .write(to: file, atomically: true, encoding: .utf8)
        let out = try CLIRunner.run(["test", root.appendingPathComponent("flows/reflection").path, "--content", root.path])
        #expect(out.status == 1)
        #expect(out.stdout.contains("✗ flows/reflection/negative.test.yaml › an overgeneralization is met with a counter-example"), "\(out.stdout)")
        #expect(out.stdout.contains("expected prompt 'perspective' text: \"Can you think of one counter-example to 'I always mess things up'?\""))
        #expect(out.stdout.contains("actual   prompt 'perspective' text: \"Can you think of one counter-example to 'I always mess everything up'?\""))
        #expect(out.stdout.contains("negative.test.yaml:"))
    }

    @Test("following docs/authoring.md's tutorial in a copy of the content adds a working flow; run and test use it at once")
    func tutorial() throws {
        let root = try copy()
        let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/authoring.md"), encoding: .utf8)
        // Apply every tagged code block of the tutorial, as a reader would.
        var applied = 0
        let blocks = doc.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        for block in blocks {
            let header = block.prefix { $0 != "\n" }
            let body = String(block.dropFirst(header.count + 1))
            if let path = header.split(separator: " ").first(where: { $0.hasPrefix("file=") })?.dropFirst(5) {
                try write(body, String(path), in: root)
                applied += 1
            } else if let path = header.split(separator: " ").first(where: { $0.hasPrefix("strings=") })?.dropFirst(8) {
                let url = root.appendingPathComponent(String(path))
                let text = try String(contentsOf: url, encoding: .utf8)
                try text.replacingOccurrences(of: "strings:\n", with: "strings:\n" + body).write(to: url, atomically: true, encoding: .utf8)
                applied += 1
            } else if header == "sh", body.hasPrefix("reflect locales confirm") {
                let args = body.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").dropFirst().map(String.init)
                let out = try CLIRunner.run(args + ["--content", root.path])
                #expect(out.status == 0, "\(out.stderr)")
                applied += 1
            }
        }
        #expect(applied == 5)
        let run = try CLIRunner.run(["run", "journal.gratitude", "--content", root.path, "--answers", "-", "--format", "jsonl"],
                                    stdin: "\"My neighbour helped me carry the shopping upstairs\"\n\"Kindness\"\n{\"done\": true}\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events.last?["event"] as? String == "done")
        let german = try CLIRunner.run(["run", "journal.gratitude", "--content", root.path, "--locale", "de", "--answers", "-", "--format", "jsonl"],
                                       stdin: "\"Ein Freund hat mich angerufen\"\n")
        #expect((german.events.last?["text"] as? String)?.contains("„Ein Freund hat mich angerufen“") == true, "\(german.stdout)")
        let test = try CLIRunner.run(["test", root.appendingPathComponent("flows/journal").path, "--content", root.path])
        #expect(test.status == 0, "\(test.stdout)")
        // The tutorial's two tests pass (flows/journal also holds the shipped journal flows' tests).
        #expect(test.stdout.components(separatedBy: "✓ flows/journal/gratitude.test.yaml").count == 3, "\(test.stdout)")
        #expect(test.stdout.contains(" passed, 0 failed"))
    }
}

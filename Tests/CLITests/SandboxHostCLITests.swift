import Foundation
import Testing

// Issue 11 through the real binary: class 8 (terminal injection: every text
// path neutralised at the output layer, JSONL escaped) and class 3's memory
// and storage bounds measured on the process itself.

private let hostile = #"\27]0;pwned\7\27[2J\27]52;c;aGk=\7\194\155 31m\226\128\174evil\r"#

@Suite("Issue 11 class 8: flow text cannot drive the terminal", .hangGuard)
struct TerminalInjectionTests {
    let fixture: ContentFixture

    init() throws {
        fixture = try ContentFixture([
            "flows/x/inject.lua": """
                print("log \(hostile)")
                return flow { id = "x.inject", version = 1, title = "Title \(hostile)", run = function(s)
                  local a = s:ask { id = "q", text = "Question \(hostile)", hint = "Hint \(hostile)" }
                  s:choose { id = "c", text = "Pick", options = { { id = "o", text = "Option \(hostile)" } } }
                  error("Boom \(hostile)")
                end }
                """,
        ])
    }

    /// No ESC, BEL, CSI (C1) or bidi override reaches the terminal.
    func expectInert(_ text: String, _ where_: String) {
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, "C0 control in \(where_)")
        #expect(!text.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) }, "DEL/C1 control in \(where_)")
        #expect(!text.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) },
                "bidi control in \(where_)")
    }

    @Test("text mode: title, prompt, hint, option, print and the error are shown with visible control pictures")
    func textMode() throws {
        defer { fixture.remove() }
        let out = try CLIRunner.run(["run", "x.inject", "--content", fixture.root.path, "--db", fixture.root.appendingPathComponent("db").path],
                                    stdin: "answer \u{1B}[31mred\n1\n")
        #expect(out.status == 1)
        expectInert(out.stdout, "stdout")
        expectInert(out.stderr, "stderr")
        for shown in ["Title ␛]0;pwned␇␛[2J", "Question ␛]0;pwned", "Hint ␛]0;", "Option ␛]0;"] {
            #expect(out.stdout.contains(shown), "\(shown) in \(out.stdout)")
        }
        #expect(out.stdout.contains("�evil␍"))
        #expect(out.stderr.contains("[flow] log ␛]0;pwned␇"))
        #expect(out.stderr.contains("Boom ␛]0;pwned␇"))
    }

    @Test("jsonl: control characters are escaped and the values survive decoding")
    func jsonl() throws {
        defer { fixture.remove() }
        let out = try CLIRunner.run(["run", "x.inject", "--content", fixture.root.path, "--db", fixture.root.appendingPathComponent("db").path,
                                     "--format", "jsonl", "--answers", "-"], stdin: "\"answer\"\n\"o\"\n")
        #expect(out.status == 1)
        expectInert(out.stdout, "stdout")
        #expect(out.stdout.contains(#"\u001b]0;pwned\u0007"#))
        #expect(out.stdout.contains(#"\u009b"#) && out.stdout.contains(#"\u202e"#))
        let prompt = try #require(out.events.first { $0["event"] as? String == "prompt" })
        #expect((prompt["text"] as? String)?.contains("\u{1B}]0;pwned\u{07}") == true, "the value is escaped, not altered")
        #expect((prompt["text"] as? String)?.contains("\u{9B}") == true)
        let error = try #require(out.events.last)
        #expect(error["code"] as? String == "lua.runtime")
        #expect((error["message"] as? String)?.hasPrefix("Boom \u{1B}]0;pwned") == true)
    }

    @Test("other commands share the output layer: flows, check, show")
    func otherCommands() throws {
        defer { fixture.remove() }
        let flows = try CLIRunner.run(["flows", "--content", fixture.root.path])
        expectInert(flows.stdout + flows.stderr, "reflect flows")
        #expect(flows.stdout.contains("Title ␛]0;pwned"))
        let check = try CLIRunner.run(["check", "--content", fixture.root.path, "--runs", "2"])
        expectInert(check.stdout + check.stderr, "reflect check")
        let json = try CLIRunner.run(["check", "--content", fixture.root.path, "--runs", "2", "--format", "json"])
        expectInert(json.stdout, "reflect check --format json")
        #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [Any])
    }
}

// A generous limit: this is a hang guard, and parameterized cases can wait for a
// test-pool thread held by other end-to-end tests (their own runs are timed inside).
@Suite("Issue 11 class 3 and 6, measured on the process", .hangGuard)
struct HostMemoryCLITests {
    /// The state cap plus the host allowance per crossing, plus the C side's
    /// crossing buffer for what it encoded (at most twice the allowance).
    static let capKiB = 16 * 1024, allowanceKiB = 8 * 1024, crossingBufferKiB = 16 * 1024

    @Test("a flow bloating the host through the API stays under baseline + cap + allowance, and fails typed", arguments: [
        // One 4 MB string, twice in args (8 MB of copies, each scanned by the safety gate before).
        "local big = string.rep('a ', 2 * 1024 * 1024) s:ask { id = 'q', text = 'Hi %@', args = { big, big } }",
        // 10,000 s:distortion calls in one step (an event and a row each before).
        "local t = s:ask { id = 'q', text = 'Hi' } for i = 1, 10000 do s:distortion('I always fail at everything') end s:ask { id = 'r', text = 'R' }",
        // Three 3 MB prompt texts (stored with every answer: a 9 MB database before).
        "local big = string.rep('Long ', 600000) for i = 1, 3 do s:ask { id = 'q' .. i, text = big } end",
    ])
    func bounded(body: String) throws {
        let fixture = try ContentFixture([
            "flows/x/base.lua": "return flow { id = 'x.base', version = 1, run = function(s) s:ask { id = 'q', text = 'Hi' } s:ask { id = 'r', text = 'R' } end }",
            "flows/x/bloat.lua": "return flow { id = 'x.bloat', version = 1, run = function(s)\n\(body)\nend }",
        ])
        defer { fixture.remove() }
        let db = fixture.root.appendingPathComponent("reflect.db").path
        let args = ["--db", db, "--format", "jsonl", "--answers", "-", "--content", fixture.root.path]
        let base = try MeasuredRun.run(["run", "x.base"] + args, stdin: "\"a\"\n\"b\"\n")
        #expect(base.status == 0, "\(base.stderr)")
        #expect(base.peakKiB > 0, "the baseline run was measured")
        let started = Date()
        let run = try MeasuredRun.run(["run", "x.bloat"] + args, stdin: "\"a\"\n\"b\"\n\"c\"\n")
        #expect(!run.signaled)
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.events.last?["event"] as? String == "error")
        #expect(run.events.last?["line"] as? Int != nil, "the error names the flow's line")
        #expect(Date().timeIntervalSince(started) < 20)
        let bound = base.peakKiB + Self.capKiB + Self.allowanceKiB + Self.crossingBufferKiB
        #expect(run.peakKiB <= bound, "peak \(run.peakKiB) KiB > baseline \(base.peakKiB) + cap + allowance + buffer")
        let dbSize = (try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
        #expect(dbSize < 1 << 20, "database grew to \(dbSize) bytes")
    }
}

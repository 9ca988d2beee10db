import Foundation
import Testing
import LuaHost
import ReflectCore
@testable import ReflectEngine

// Issue 11, classes 3 (host work outside the budget), 6 (saves the engine
// cannot resume) and the engine half of 7 (a prompt is shown only when the
// API produced it). Each hostile flow must end in a typed error at the
// calling line, or in the documented outcome, quickly and without bloating
// the host. docs/sandbox.md, "Host-side limits", states the limits.

private func flow(_ body: String, id: String = "test.host") -> FlowSource {
    source("flows/test/host.lua", """
        return flow { id = "\(id)", version = 1, run = function(s)
        \(body)
        end }
        """)
}

/// Opens `flow` and answers text until it fails; returns the error.
private func failure(_ source: FlowSource, language: Language = .none, answers: Int = 5) throws -> EngineError {
    try #require(throws: EngineError.self) {
        let session = try FlowSession.open(source, language: language, options: options())
        for _ in 0..<answers where session.current != nil { try session.answer(.text("a")) }
    }
}

/// Records what a session journals (rows a store would write).
private final class Recorder: SessionJournal {
    var answers: [(RecordedAnswer, Prompt)] = []
    var distortions: [(DistortionType, StepID)] = []
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws { answers.append((answer, prompt)) }
    func wentBack(from step: StepID) throws {}
    func detected(_ type: DistortionType, step: StepID) throws { distortions.append((type, step)) }
    func probed(step: StepID) throws {}
    func finished(_ summary: DoneSummary) throws {}
}

@Suite("Issue 11 class 3: host work a flow causes is bounded", .hangGuard)
struct HostWorkLimitsTests {
    @Test("one 4 MB string referenced 3 times in args is refused before the host copies it (host allowance per crossing)")
    func referencedStringsAreCharged() throws {
        let started = Date()
        let e = try failure(flow("""
              local big = string.rep("a", 4 * 1024 * 1024)
              local args = {}
              for i = 1, 3 do args[i] = big end
              s:ask { id = "q", text = "hello %@", args = args }
            """))
        #expect(e.line == 5)
        #expect(e.message.contains("too large for the host"))
        #expect(e.message.contains("\(SandboxLimits.default.hostBytesPerCrossing / 1024) KiB"))
        #expect(Date().timeIntervalSince(started) < 10, "contained: the host must not scan 12 MB of copies")
    }

    @Test("the allowance counts decoded values, not only the buffer: a wide table of small strings is refused too")
    func manySmallValuesAreCharged() throws {
        var limits = SandboxLimits.default
        limits.hostBytesPerCrossing = 256 * 1024
        var opts = options()
        opts.limits = limits
        let src = flow("""
              local t = {}
              for i = 1, 20000 do t[i] = "x" end
              s:ask { id = "q", text = "hello", options = t }
            """)
        let e = try #require(throws: EngineError.self) { try FlowSession.open(src, options: opts) }
        #expect(e.line == 4)
        #expect(e.message.contains("256 KiB"))
    }

    @Test("texts handed to the API are measured before the host reads them", arguments: [
        ("s:quote(string.rep('x', 30000))", "s:quote: the text is 30000 bytes (at most 20000)"),
        ("s:distortion(string.rep('x ', 15000))", "s:distortion: the text is 30000 bytes (at most 20000)"),
        ("s:text(string.rep('k', 5000))", "s:text: the key or text is 5000 bytes (at most 4096)"),
        ("s:text('Hello %@', string.rep('y', 20001))", "s:text: argument 1 is 20001 bytes (at most 20000)"),
        ("s:text('Hello', " + Array(repeating: "'a'", count: 21).joined(separator: ", ") + ")", "s:text: 21 arguments (at most 20)"),
        ("s:text(string.rep('%1$@', 1000), string.rep('y', 20000))", "text: the text as shown would be 20000000 bytes (at most 4096)"),
        ("s:ask { id = 'q', text = 'Hi %@', args = { string.rep('z', 20001) } }", "ask 'q': an answer in 'args' is 20001 bytes (at most 20000)"),
        ("s:ask { id = 'q', text = 'Hi', fallback = string.rep('f', 4097) }", "ask 'q': 'fallback' is 4097 bytes (at most 4096)"),
        ("s:ask { id = 'q', text = 'Hi', hint = string.rep('h ', 600) }", "ask 'q': the hint as shown is 1200 bytes (at most 1024)"),
    ])
    func measuredTexts(call: String, message: String) throws {
        let e = try failure(flow("  " + call + "\n  s:ask { id = 'end', text = 'end' }"))
        #expect(e.code == "lua.runtime")
        #expect(e.line == 2)
        #expect(e.message == message)
    }

    @Test("a list of options with a hole or a stray key is an error at its line, not options silently dropped", arguments: [
        ("s:choose { id = 'q', text = 'Pick', options = { { id = 'a', text = 'A' }, nil, { id = 'c', text = 'C' } } }",
         "choose 'q': 'options' has 2 entries but only the first 1 are a list (1, 2, 3, …): a nil in the list, or a key that is not a position, would drop the rest"),
        ("local b\n  s:choose_many { id = 'q', text = 'Pick', options = { { id = 'a', text = 'A' }, b, { id = 'c', text = 'C' } } }",
         "choose_many 'q': 'options' has 2 entries but only the first 1 are a list (1, 2, 3, …): a nil in the list, or a key that is not a position, would drop the rest"),
        ("s:choose { id = 'q', text = 'Pick', options = { [0] = { id = 'z', text = 'Z' }, { id = 'a', text = 'A' } } }",
         "choose 'q': 'options' has 2 entries but only the first 1 are a list (1, 2, 3, …): a nil in the list, or a key that is not a position, would drop the rest"),
    ])
    func optionListWithHoles(call: String, message: String) throws {
        let e = try failure(flow("  " + call + "\n  s:ask { id = 'end', text = 'end' }"))
        #expect(e.code == "lua.runtime")
        #expect(e.line == (call.contains("\n") ? 3 : 2))
        #expect(e.message == message)
    }

    @Test("the flow's own declaration is bounded: a huge title or mood list is an error naming the field")
    func declarationBounds() throws {
        for (decl, message) in [("title = string.rep('T', 5000)", "flow 'test.decl': 'title' is 5000 bytes (at most 1024)"),
                                ("moods = { 'bad', 'bad', 'bad', 'bad', 'bad', 'bad' }", "flow 'test.decl': 'moods' must be a list of at most 5 moods")] {
            let src = source("flows/test/decl.lua", "return flow { id = 'test.decl', version = 1, \(decl), run = function(s) s:ask { id = 'q', text = 'Hi' } end }")
            let e = try #require(throws: EngineError.self) { try FlowSession.open(src, options: options()) }
            #expect(e.code == "lua.runtime")
            #expect(e.line == 1, "errors in the declaration point at the flow { line")
            #expect(e.message == message)
        }
    }

    @Test("template parsing is linear: 200,000 '%1' pairs without '$' parse at once")
    func templateIsLinear() {
        let started = Date()
        let hostile = String(repeating: "%1", count: 200_000)
        let t = Template(hostile)
        #expect(t.arguments.isEmpty)
        #expect(t.render([]) == hostile)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("the safety gate's negation look-back is bounded on text without spaces")
    func safetyLookBackIsLinear() throws {
        let data = SafetyData(phrases: ["suicide": ["死にたい"]], negations: ["ない"])
        let gate = try SafetyGate(data, mode: .substring)
        let started = Date()
        #expect(gate.check(String(repeating: "死にたい", count: 20_000)) == .crisis(.suicide))
        #expect(gate.check("ない死にたい") == .ok, "a negation just before still counts")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("s:distortion: one event and one row per step however often it is called; a loop of calls stops with an error")
    func distortionCalls() throws {
        let language = try english()
        let src = flow("""
              local t = s:ask { id = "thought", text = "What went through your mind?" }
              for i = 1, 5 do s:distortion(t) end
              s:ask { id = "next", text = "And then?" }
              for i = 1, 1000000 do s:distortion("I always fail") end
            """)
        let session = try FlowSession.open(src, language: language, options: options())
        let journal = Recorder()
        session.journal = journal
        let events = try session.submit(.text("I always mess everything up"))
        let detected = events.filter { if case .distortion = $0 { true } else { false } }
        #expect(detected.count == 1)
        #expect(journal.distortions.count == 1)
        let e = try #require(throws: EngineError.self) { try session.submit(.text("x")) }
        #expect(e.line == 5)
        #expect(e.message == "s:distortion: called more than \(FlowAPILimits.maxDistortionCallsPerStep) times in one step")
        #expect(journal.distortions.count == 1)
    }

    @Test("print: a line is kept up to the limit, then cut; lines per step are capped")
    func printIsCut() throws {
        final class Lines: @unchecked Sendable { var all: [String] = [] }
        let lines = Lines()
        var opts = options()
        opts.log = { lines.all.append($0) }
        let session = try FlowSession.open(flow("""
              print(string.rep('p', 1000000))
              s:ask { id = 'q', text = 'Hi' }
              for i = 1, 100000 do print(i) end
              s:ask { id = 'r', text = 'R' }
              print("next step")
            """), options: opts)
        let line = try #require(lines.all.first)
        #expect(line.utf8.count <= FlowAPILimits.maxPrintBytes + 3)
        #expect(line.hasSuffix("…"))
        try session.answer(.text("a"), .text("b"))
        #expect(lines.all.count == 1 + FlowAPILimits.maxPrintLinesPerStep + 1 + 1)
        #expect(lines.all[FlowAPILimits.maxPrintLinesPerStep + 1].contains("the rest are dropped"))
        #expect(lines.all.last == "next step", "the count starts again at each step")
    }
}

@Suite("Issue 11 class 6: a running flow respects the limits its save is loaded with", .hangGuard)
struct SaveLimitsBothEndsTests {
    @Test("a flow cannot ask more questions than a save holds; the save it made resumes")
    func answerCount() throws {
        let src = flow("""
              for i = 1, 5000 do s:message { id = "m" .. i, text = "Message" } end
            """)
        let session = try FlowSession.open(src, options: options())
        let e = try #require(throws: EngineError.self) {
            while session.current != nil { _ = try session.submit(.acknowledge) }
        }
        #expect(e.line == 2)
        #expect(e.message.contains("would be question \(SessionLimits.maxAnswers + 1)"))
        #expect(session.save.answers.count == SessionLimits.maxAnswers)
        // What the engine recorded, the engine can load and replay.
        let data = try JSONEncoder().encode(session.save)
        let save = try SessionSave.decodeValidated(from: data)
        // It loads and replays; the flow then stops at the same line, for the same reason.
        let again = try #require(throws: EngineError.self) { try FlowSession.open(src, options: options(), resuming: save) }
        #expect(again.code == "lua.runtime")
        #expect(again.message == e.message)
    }

    @Test("options: at most the number a saved answer may hold; exactly that many still resumes", arguments: [100, 101, 5000])
    func optionCount(count: Int) throws {
        let src = flow("""
              local o = {}
              for i = 1, \(count) do o[i] = { id = "o" .. i, text = "Option " .. i } end
              local picked = s:choose_many { id = "pick", text = "Pick", options = o }
              s:message { id = "bye", text = "Picked " .. #picked }
            """)
        if count <= SessionLimits.maxOptions {
            let session = try FlowSession.open(src, options: options())
            try session.answer(.chooseMany((1...count).map { "o\($0)" }))
            #expect(session.current?.text == "Picked \(count)")
            let save = try SessionSave.decodeValidated(from: try JSONEncoder().encode(session.save))
            #expect(try FlowSession.open(src, options: options(), resuming: save).current?.text == "Picked \(count)")
        } else {
            let e = try failure(src)
            #expect(e.line == 4)
            #expect(e.message == "choose_many 'pick': \(count) options (at most \(SessionLimits.maxOptions))")
        }
    }

    @Test("prompt text is bounded as shown (it is stored with every answer)", arguments: [
        ("string.rep('Long ', 600000)", "ask 'q': 'text' is 3000000 bytes (at most 4096)"),
        ("'Say %1$@' .. string.rep(' %1$@', 400)", "ask 'q' text: the text as shown would be 24063 bytes (at most 4096)"),
    ])
    func promptText(text: String, message: String) throws {
        let src = flow("""
              local first = s:ask { id = "first", text = "First?" }
              s:ask { id = "q", text = \(text), args = { first } }
            """)
        let session = try FlowSession.open(src, options: options())
        let journal = Recorder()
        session.journal = journal
        let e = try #require(throws: EngineError.self) { try session.submit(.text(String(repeating: "w", count: 59))) }
        #expect(e.line == 3)
        #expect(e.message == message)
        #expect(journal.answers.map(\.1.text.utf8.count).allSatisfy { $0 <= SessionLimits.maxPromptTextBytes })
    }

    @Test("a save is checked against the same definitions: ids and counts the API would refuse are refused at load", arguments: [
        (#"{"step":"a","value":{"choice":"Not An Id"}}"#, "not an option id"),
        (#"{"step":"a","value":{"choices":[\#((1...101).map { "\"o\($0)\"" }.joined(separator: ","))]}}"#, "more than 100 option ids"),
        (#"{"step":"a","value":{"checklist":{\#((1...101).map { "\"i\($0)\":\"done\"" }.joined(separator: ","))}}}"#, "more than 100 checklist items"),
    ])
    func saveLoadSide(answer: String, reason: String) throws {
        let json = #"{"format":1,"flow":"test.host","flowVersion":1,"seed":1,"now":"2026-11-22T08:15:00+01:00","answers":[\#(answer)]}"#
        let e = try #require(throws: SaveValidationError.self) { try SessionSave.decodeValidated(from: Data(json.utf8)) }
        #expect(e.field == "answers[0].value")
        #expect(e.reason.contains(reason))
    }
}

@Suite("Issue 11 class 7: only prompts the API produced are shown", .hangGuard)
struct PromptIntegrityTests {
    @Test("a raw coroutine.yield after a failed prompt call is a typed error, never the failed prompt", arguments: [
        // The prompt is valid but cannot yield (a C call boundary): the API accepted it, the yield failed.
        """
          local ok = pcall(table.sort, { 2, 1 }, function(a, b) s:ask { id = "ghost", text = "Ghost?" } return a < b end)
          coroutine.yield()
        """,
        // Validation failed (no text).
        """
          pcall(s.ask, s, { id = "ghost" })
          coroutine.yield()
        """,
        // A yield with values of the flow's own choosing.
        """
          pcall(s.ask, s, { id = "ghost", text = string.rep("x", 5000) })
          coroutine.yield(1, 2, 3)
        """,
    ])
    func rawYield(body: String) throws {
        let e = try #require(throws: EngineError.self) { try FlowSession.open(flow(body), options: options()) }
        #expect(e.code == "flow.invalid")
        #expect(e.message.contains("yielded without asking anything"))
    }

    @Test("prompts called inside a coroutine the flow created are refused; their yield cannot be replayed to the host")
    func innerCoroutine() throws {
        let direct = try failure(flow("""
              local co = coroutine.wrap(function() return s:ask { id = "inner", text = "Inner?" } end)
              co()
            """))
        // coroutine.wrap re-raises at its call (line 3), keeping where it failed (line 2).
        #expect(direct.line == 3)
        #expect(direct.message == "flows/test/host.lua:2: s:ask must be called by the flow's run function itself, not inside a coroutine the flow created")

        let replay = try failure(flow("""
              local co = coroutine.create(function() return s:ask { id = "inner", text = "Inner?" } end)
              local ok, token = coroutine.resume(co)
              coroutine.yield(token)
            """))
        #expect(replay.code == "flow.invalid")
    }

    @Test("a prompt after a contained failure still works")
    func recovers() throws {
        let session = try FlowSession.open(flow("""
              pcall(s.ask, s, { id = "ghost" })
              pcall(table.sort, { 2, 1 }, function(a, b) s:ask { id = "ghost", text = "Ghost?" } return a < b end)
              local a = s:ask { id = "real", text = "Real?" }
              s:message { id = "bye", text = "You said " .. a }
            """), options: options())
        #expect(session.current?.step == "real")
        try session.answer(.text("yes"))
        #expect(session.current?.text == "You said yes")
    }
}

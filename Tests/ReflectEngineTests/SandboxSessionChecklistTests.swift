import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

// SANDBOX.md's checklist, cases 37–40: determinism and saves. They need the
// session layer (replay from an answer log), so they live here; cases 1–36
// are in LuaHostTests/SandboxChecklistTests.swift.

private let randomFlow = source("flows/test/random.lua", """
    return flow {
      id = "test.random", version = 1,
      run = function(s)
        for i = 1, 4 do
          s:ask { id = "q" .. i, text = "draw " .. s:random(1, 1000000) .. " / " .. math.random(1, 1000000) }
        end
      end,
    }
    """)

@Suite("SANDBOX.md checklist: determinism and saves", .hangGuard)
struct SandboxSessionChecklistTests {
    @Test("S37 the random sequence is identical for the same seed across save and resume")
    func s37() throws {
        let straight = try FlowSession.open(randomFlow, options: options(seed: 42))
        var uninterrupted: [String] = []
        while let p = straight.current {
            uninterrupted.append(p.text)
            try straight.answer(.text("a"))
        }
        #expect(uninterrupted.count == 4)
        #expect(Set(uninterrupted).count == 4, "draws should differ from step to step")

        let first = try FlowSession.open(randomFlow, options: options(seed: 42))
        var seen = [try #require(first.current?.text)]
        try first.answer(.text("a"))
        seen.append(try #require(first.current?.text))
        try first.answer(.text("a"))
        let saved = try JSONEncoder().encode(first.save)

        let resumed = try FlowSession.open(randomFlow, options: options(seed: 999),
                                           resuming: try SessionSave.decodeValidated(from: saved))
        while let p = resumed.current {
            seen.append(p.text)
            try resumed.answer(.text("a"))
        }
        #expect(seen == uninterrupted)

        let otherSeed = try FlowSession.open(randomFlow, options: options(seed: 43))
        #expect(otherSeed.current?.text != uninterrupted[0])
    }

    @Test("S38 the clock is injected: morning and evening logic is testable at any hour; the real clock is unreachable")
    func s38() throws {
        let greeting = source("flows/test/greeting.lua", """
            return flow {
              id = "test.greeting", version = 1,
              run = function(s)
                local t = s:now()
                local part = t.hour < 12 and "Good morning" or (t.hour < 18 and "Good afternoon" or "Good evening")
                s:ask { id = "hello", text = part .. ", it is " .. string.format("%02d:%02d", t.hour, t.minute) }
              end,
            }
            """)
        #expect(try FlowSession.open(greeting, options: options(clock: morning)).current?.text == "Good morning, it is 08:15")
        #expect(try FlowSession.open(greeting, options: options(clock: evening)).current?.text == "Good evening, it is 21:40")
        // The local hour follows the session's offset, not the machine's zone.
        let tokyo = try #require(FlowClock(iso8601: "2026-11-22T08:15:00+09:00"))
        #expect(try FlowSession.open(greeting, options: options(clock: tokyo)).current?.text == "Good morning, it is 08:15")

        for escape in ["os.time()", "os.clock()", "os.date()", "io.read()"] {
            let flow = source("flows/test/clock.lua", """
                return flow { id = "test.clock", version = 1, run = function(s)
                  s:ask { id = "t", text = tostring(\(escape)) }
                end }
                """)
            let error = try #require(throws: EngineError.self) { try FlowSession.open(flow, options: options()) }
            #expect(error.code == "lua.runtime")
            #expect(error.message.hasPrefix("unknown global"))
            #expect(error.line == 2)
        }
    }

    private func version(_ steps: [String], number: Int) -> FlowSource {
        let body = steps.map { "s:ask { id = \"\($0)\", text = \"Question \($0)\" }" }.joined(separator: "\n    ")
        return source("flows/test/evolving.lua", """
            return flow { id = "test.evolving", version = \(number), run = function(s)
                \(body)
            end }
            """)
    }

    @Test("S39 a save made before an author changes the flow resumes at the same step, or fails with 'flow changed'")
    func s39() throws {
        let v1 = try FlowSession.open(version(["a", "b", "c"], number: 1), options: options())
        try v1.answer(.text("answer a"), .text("answer b"))
        let save = v1.save
        #expect(save.answers.map(\.step) == ["a", "b"])

        // A step appended after where the person stopped: resumes at 'c', answers intact.
        let appended = try FlowSession.open(version(["a", "b", "c", "d"], number: 2), options: options(), resuming: save)
        #expect(appended.current?.step == "c")
        #expect(appended.save.answers == save.answers)
        try appended.answer(.text("answer c"))
        #expect(appended.current?.step == "d")

        // A step inserted before an answered one: refused, nothing misplaced.
        let inserted = try #require(throws: EngineError.self) {
            try FlowSession.open(version(["a", "new", "b", "c"], number: 2), options: options(), resuming: save)
        }
        #expect(inserted.code == "flow.changed")
        #expect(inserted.message == "flow changed: step 'b' no longer exists at this point (the flow now asks 'new' here)")

        // An answered step removed: refused with the step's name.
        let removed = try #require(throws: EngineError.self) {
            try FlowSession.open(version(["a", "c"], number: 2), options: options(), resuming: save)
        }
        #expect(removed.message.hasPrefix("flow changed: step 'b' no longer exists"))

        let shortened = try #require(throws: EngineError.self) {
            try FlowSession.open(version(["a"], number: 2), options: options(), resuming: save)
        }
        #expect(shortened.message.hasPrefix("flow changed: step 'b' no longer exists"))
    }

    @Test("S40 a tampered save is rejected by validation and never executed")
    func s40() throws {
        func reject(_ json: String, field: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let error = #expect(throws: SaveValidationError.self, sourceLocation: sourceLocation) {
                try SessionSave.decodeValidated(from: Data(json.utf8))
            }
            #expect(error?.field == field, "\(String(describing: error))", sourceLocation: sourceLocation)
        }
        let head = #""format":1,"flow":"test.evolving","flowVersion":1,"seed":1,"now":"2026-11-22T08:00:00Z""#
        reject(#"{\#(head),"answers":[{"step":"a","value":{"lua":"os.exit()"}}]}"#, field: "answers[0].value")
        reject(#"{\#(head),"answers":[{"step":"../../etc/passwd","value":"x"}]}"#, field: "answers[0].step")
        reject(#"{\#(head),"answers":[{"step":"a","value":[1,2,3]}]}"#, field: "answers[0].value")
        reject(#"{\#(head),"answers":"all of them"}"#, field: "answers")
        reject(#"{\#(head),"answers":[{"step":"a","value":"x"},{"step":"a","value":"y"}]}"#, field: "answers[1].step")
        reject(#"{"format":1,"flow":"test.evolving","flowVersion":1,"seed":-5,"now":"2026-11-22T08:00:00Z","answers":[]}"#, field: "seed")
        reject(#"{"format":1,"flow":"test.evolving","flowVersion":1,"seed":1,"now":"yesterday","answers":[]}"#, field: "now")
        reject(#"{"format":2,"flow":"test.evolving","flowVersion":1,"seed":1,"now":"2026-11-22T08:00:00Z","answers":[]}"#, field: "format")
        reject("print('hi')", field: "")
        let many = (0...SessionSave.maxAnswers).map { #"{"step":"s\#($0)","value":"x"}"# }.joined(separator: ",")
        reject(#"{\#(head),"answers":[\#(many)]}"#, field: "answers")
        let long = String(repeating: "x", count: SessionSave.maxTextBytes + 1)
        reject(#"{\#(head),"answers":[{"step":"a","value":"\#(long)"}]}"#, field: "answers[0].value")

        // A well-formed save with an unknown step id never runs past validation
        // of the replay, and code in an answer is only ever text.
        let unknown = try SessionSave.decodeValidated(from: Data(#"{\#(head),"answers":[{"step":"zzz","value":"x"}]}"#.utf8))
        let error = try #require(throws: EngineError.self) {
            try FlowSession.open(version(["a", "b"], number: 1), options: options(), resuming: unknown)
        }
        #expect(error.code == "flow.changed")
        let code = try SessionSave.decodeValidated(from: Data(#"{\#(head),"answers":[{"step":"a","value":"os.exit(3)"}]}"#.utf8))
        let echo = source("flows/test/evolving.lua", """
            return flow { id = "test.evolving", version = 1, run = function(s)
              local a = s:ask { id = "a", text = "A?" }
              s:ask { id = "b", text = "You said: " .. a }
            end }
            """)
        #expect(try FlowSession.open(echo, options: options(), resuming: code).current?.text == "You said: os.exit(3)")
    }
}

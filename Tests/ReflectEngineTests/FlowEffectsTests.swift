import Foundation
import Testing
import LuaHost
import ReflectCore
@testable import ReflectEngine

// The engine layout (issue 13): effects as values applied in one place,
// requests the host fulfils outside the flow's budget, the facts snapshot,
// and a journal that is held, not hoped for.

/// A provider double: counts calls, can be slow or fail.
private final class CountingGenerator: TextGenerator, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let delay: Double
    let reply: String?
    init(delay: Double = 0, reply: String?) {
        self.delay = delay
        self.reply = reply
    }
    var calls: Int { lock.withLock { count } }
    var name: String { "counting" }
    func generate(_ request: GenerationRequest) async throws -> String {
        lock.withLock { count += 1 }
        if delay > 0 { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
        guard let reply else { throw CocoaError(.featureUnsupported) }
        return reply + " (" + request.inputs.joined(separator: "|") + ")"
    }
}

/// Records what a journal receives.
private final class RecordingJournal: SessionJournal {
    var answered: [StepID] = []
    var distortions: [(StepID, DistortionType)] = []
    var generated: [GeneratedText] = []
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, outcome: AnswerOutcome) throws {
        answered.append(answer.step)
        distortions += outcome.distortions.map { ($0.step, $0.type) }
        generated += outcome.generated
    }
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws {}
    func wentBack(from step: StepID) throws {}
    func detected(_ type: DistortionType, step: StepID) throws {}
    func probed(step: StepID) throws {}
    func finished(_ summary: DoneSummary) throws {}
}

private let generatingFlow = source("flows/test/generate.lua", """
    return flow {
      id = "test.generate", version = 1,
      run = function(s)
        local thought = s:ask { id = "thought", text = "What went through your mind?" }
        local question = s:generate { id = "final", purpose = "test_question", inputs = { thought },
                                      fallback = "What would you tell a friend?" }
        s:ask { id = "last", text = question }
      end,
    }
    """)

private func generatorOptions(_ generator: (any TextGenerator)?) -> SessionOptions {
    var o = options()
    o.generator = generator
    return o
}

@Suite("Engine layout: requests the host fulfils outside the budget", .hangGuard)
struct GenerationYieldTests {
    @Test("a host that takes 2 s to generate does not trip the flow's 0.5 s budget")
    func slowHostIsNotTheFlowsTime() throws {
        let slow = CountingGenerator(delay: 2, reply: "What would you say to a friend who thought that?")
        let session = try FlowSession.open(generatingFlow, options: generatorOptions(slow))
        try session.answer(.text("I ruin everything"))
        #expect(slow.calls == 1)
        // 2 s is past the request's default 1.5 s timeout: the fallback shows,
        // and still no budget error.
        #expect(session.current?.text == "What would you tell a friend?")
        #expect(session.save.generated.map { [$0.id.rawValue, $0.text, "\($0.generated)"] }
                == [["final", "What would you tell a friend?", "false"]])
    }

    @Test("a slow host within the request's timeout: its text is shown and recorded as generated")
    func slowHostWithinTimeout() throws {
        let flow = source("flows/test/generate-slow.lua", """
            return flow { id = "test.generate-slow", version = 1, run = function(s)
              local q = s:generate { id = "q", purpose = "test_question", fallback = "Fallback?", timeout = 5 }
              s:ask { id = "last", text = q }
            end }
            """)
        let slow = CountingGenerator(delay: 2, reply: "Generated?")
        let session = try FlowSession.open(flow, options: generatorOptions(slow))
        #expect(session.current?.text == "Generated? ()")
        #expect(session.save.generated.first?.generated == true)
    }

    @Test("a flow that loops for 2 s in Lua still stops with the budget error")
    func luaLoopStillStops() throws {
        let flow = source("flows/test/loop.lua", """
            return flow { id = "test.loop", version = 1, run = function(s)
              local q = s:generate { id = "q", purpose = "final_question", fallback = "Fallback?" }
              while true do end
            end }
            """)
        let error = try #require(throws: EngineError.self) {
            try FlowSession.open(flow, options: generatorOptions(CountingGenerator(reply: "x")))
        }
        #expect(error.code == "lua.budget")
        #expect(error.line == 3)
    }

    @Test("replay (back, resume) never calls the provider again and shows the same text")
    func replayDoesNotAsk() throws {
        let gen = CountingGenerator(reply: "Is that a fact or a feeling?")
        let session = try FlowSession.open(generatingFlow, options: generatorOptions(gen))
        try session.answer(.text("I ruin everything"))
        let shown = try #require(session.current?.text)
        #expect(shown == "Is that a fact or a feeling? (I ruin everything)")
        // Back to the thought, the same answer again: the recorded text.
        try session.answer(.command(.back), .text("I ruin everything"))
        #expect(session.current?.text == shown)
        #expect(gen.calls == 1)
        let data = try JSONEncoder().encode(session.save)
        let resumed = try FlowSession.open(generatingFlow, options: generatorOptions(gen),
                                           resuming: try SessionSave.decodeValidated(from: data))
        #expect(resumed.current?.text == shown)
        #expect(gen.calls == 1)
        // An edited answer is a new basis: generated anew.
        try resumed.answer(.command(.back), .text("I am hopeless at this"))
        #expect(resumed.current?.text == "Is that a fact or a feeling? (I am hopeless at this)")
        #expect(gen.calls == 2)
        #expect(resumed.save.generated.count == 1)
    }

    @Test("no provider, a failing one, or a flagged answer: the fallback, recorded as not generated")
    func fallbacks() throws {
        for generator in [nil, CountingGenerator(reply: nil)] as [CountingGenerator?] {
            let session = try FlowSession.open(generatingFlow, options: generatorOptions(generator))
            try session.answer(.text("I ruin everything"))
            #expect(session.current?.text == "What would you tell a friend?")
            #expect(session.save.generated.first?.generated == false)
        }
        // A crisis answer is never handed to a provider.
        let gen = CountingGenerator(reply: "Q")
        let session = try FlowSession.open(generatingFlow, language: try english(), options: generatorOptions(gen))
        try session.answer(.text("I want to end it all"))
        #expect(session.current?.text == "Q ()")
    }

    @Test("a generated text travels with the next answer to the journal")
    func journalled() throws {
        let journal = RecordingJournal()
        let session = try FlowSession.open(generatingFlow, options: generatorOptions(CountingGenerator(reply: "Q")))
        session.journal = journal
        try session.answer(.text("I ruin everything"))
        #expect(journal.generated.map { [$0.id.rawValue, $0.text, "\($0.generated)"] } == [["final", "Q (I ruin everything)", "true"]])
        #expect(journal.generated == session.save.generated)
    }
}

@Suite("Engine layout: an effect fires once, when live", .hangGuard)
struct EffectRuleTests {
    private let detecting = source("flows/test/detect.lua", """
        return flow { id = "test.detect", version = 1, run = function(s)
          local t = s:ask { id = "thought", text = "Thought?" }
          s:distortion(t)
          s:distortion(t)
          s:ask { id = "next", text = "Next?" }
          s:ask { id = "last", text = "Last?" }
        end }
        """)

    @Test("replays after back add no distortion rows or events; live answers add exactly one per step")
    func distortionOncePerLiveAnswer() throws {
        let journal = RecordingJournal()
        let session = try FlowSession.open(detecting, language: try english(), options: options())
        session.journal = journal
        let first = try session.answer(.text("I always ruin everything"))
        #expect(first.filter { if case .distortion = $0 { true } else { false } }.count == 1)
        try session.answer(.text("ok"))
        let back = try session.answer(.command(.back))
        #expect(!back.contains { if case .distortion = $0 { true } else { false } })
        #expect(session.distortions["thought"] == .catastrophizing, "the session's view is rebuilt by replay")
        try session.answer(.command(.back))
        #expect(journal.distortions.count == 1)
        #expect(session.distortions["thought"] == nil, "its answer was taken back")
        try session.answer(.text("I should be perfect"))
        #expect(journal.distortions.count == 2)
        #expect(journal.distortions.last?.1 == .shouldStatement)
    }

    @Test("a session with no journal never reports saved; with one, every answer is saved first")
    func savedOnlyWhenStored() throws {
        let bare = try FlowSession.open(detecting, options: options())
        #expect(!(try bare.answer(.text("x"))).contains { if case .saved = $0 { true } else { false } })
        let journalled = try FlowSession.open(detecting, options: options())
        journalled.journal = RecordingJournal()
        let events = try journalled.answer(.text("x"))
        guard case .saved(_, "thought")? = events.first else {
            Issue.record("saved must come first: \(events)")
            return
        }
    }
}

@Suite("Engine layout: the facts snapshot", .hangGuard)
struct UserFactsTests {
    private let factsFlow = source("flows/test/facts.lua", """
        return flow { id = "test.facts", version = 1, run = function(s)
          local f = s:facts()
          local plan = f.earlier[1] and f.earlier[1].value or "no plan"
          s:ask { id = "one", text = (f.phase or "?") .. " " .. (f.day or "?") .. ", streak " ..
                  (f.streak and f.streak.current or 0) .. ", first today " .. tostring(f.first_today) .. ": " .. plan }
          s:ask { id = "two", text = "Two?" }
        end }
        """)

    private func facts(_ plan: String, streak: Int) -> UserFacts {
        UserFacts(day: "2026-11-22", phase: .evening,
                  earlierAnswers: [EarlierAnswer(flow: "coach.morning", step: "stress_plan", value: .text(plan))],
                  streak: StreakFigures(current: streak, longest: 9, lastSevenDays: 5), firstToday: false, firstEver: false)
    }

    @Test("a flow reads the snapshot taken at start; back and resume keep it, whatever the host says later")
    func snapshotIsKept() throws {
        var o = options()
        o.facts = facts("a walk at lunch", streak: 4)
        let session = try FlowSession.open(factsFlow, options: o)
        let expected = "evening 2026-11-22, streak 4, first today false: a walk at lunch"
        #expect(session.current?.text == expected)
        try session.answer(.text("fine"), .command(.back))
        #expect(session.current?.text == expected)
        let data = try JSONEncoder().encode(session.save)
        var later = options()
        later.facts = facts("something else", streak: 5)
        let resumed = try FlowSession.open(factsFlow, options: later, resuming: try SessionSave.decodeValidated(from: data))
        #expect(resumed.current?.text == expected)
    }

    @Test("without facts the table is empty; a tampered snapshot is refused by validation")
    func emptyAndValidated() throws {
        let session = try FlowSession.open(factsFlow, options: options())
        #expect(session.current?.text == "? ?, streak 0, first today nil: no plan")
        var save = session.save
        save.facts = UserFacts(day: "not a day")
        #expect(throws: SaveValidationError.self) { try save.validate() }
    }
}

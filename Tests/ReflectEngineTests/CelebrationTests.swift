import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

// Issue 15: celebrations. Content (a rules file beside the flows) decides
// which answer earns which tier; the engine applies the per-session rate
// limit, the "Show celebrations" setting, and fires each one once.

/// A flow and rules of our own: every answer asks for the tier it names.
private let tierFlow = FlowSource(name: "flows/test/tiers.lua", text: """
    return flow {
      id = "test.tiers", version = 1,
      run = function(s)
        s:ask { id = "one", text = "First?" }
        s:ask { id = "two", text = "Second?" }
        s:ask { id = "three", text = "Third?" }
        s:ask { id = "four", text = "Fourth?" }
      end,
    }
    """, celebrationRules: RulesSource(name: "flows/test/celebrations.lua", text: """
    local reasons = { one = "prep_done", two = "prep_two_done", three = "day_complete", four = "win" }
    return {
      after = function(s, step, answer)
        if answer == "none" then return end
        local tier, pool = answer:match("^(%a+) ?(.*)$")
        s:celebrate { tier = tier, reason = reasons[step], pool = pool ~= "" and pool or nil }
      end,
      finish = function(s) s:celebrate { tier = "big", reason = "streak_milestone" } end,
    }
    """))

private func celebrations(_ events: [FlowEvent]) -> [FiredCelebration] {
    events.compactMap { if case .celebration(let c) = $0 { c } else { nil } }
}

private func tiers(_ events: [FlowEvent]) -> [String] {
    celebrations(events).map { $0.tier?.rawValue ?? "none" }
}

/// The repository's English, loaded once for this file.
private let englishOnce = Result { try english() }

private func withLanguage(_ source: FlowSource, seed: UInt64 = 42, facts: UserFacts? = nil,
                          celebrationsOn: Bool = true) throws -> FlowSession {
    var o = options(seed: seed)
    o.facts = facts
    o.celebrations = celebrationsOn
    return try FlowSession.open(source, language: try englishOnce.get(), options: o)
}

@Suite("Celebrations: rate limit, setting, once only", .hangGuard)
struct CelebrationTests {
    @Test("per session at most one medium and one big: the extras collapse to tiny, tiny is never limited")
    func rateLimit() throws {
        let session = try withLanguage(tierFlow)
        let events = try session.answer(.text("medium"), .text("medium"), .text("big"), .text("tiny"))
        // one: medium; two: medium → tiny; three: big; four: tiny; the end: big → tiny.
        #expect(tiers(events) == ["medium", "tiny", "big", "tiny", "tiny"])
        #expect(session.save.celebrations.count == 5)
    }

    @Test("celebrations off: no celebration events at all")
    func settingOff() throws {
        let session = try withLanguage(tierFlow, celebrationsOn: false)
        let events = try session.answer(.text("medium"), .text("big"), .text("tiny"), .text("tiny"))
        #expect(celebrations(events).isEmpty)
        #expect(session.save.celebrations.isEmpty)
        #expect(session.isFinished)
    }

    @Test("the event follows the answer that earned it: saved, celebration, then the next prompt")
    func order() throws {
        let session = try withLanguage(tierFlow)
        session.journal = MemoryJournal()
        let events = try session.answer(.text("medium"))
        let names = events.map { e -> String in
            switch e {
            case .saved: "saved"
            case .celebration: "celebration"
            case .prompt: "prompt"
            default: "other"
            }
        }
        #expect(names == ["saved", "celebration", "prompt"])
    }

    @Test("back over a celebrating answer, then answering again: the celebration is not repeated")
    func backDoesNotRepeat() throws {
        let session = try withLanguage(tierFlow)
        var events = try session.answer(.text("medium"))
        #expect(tiers(events) == ["medium"])
        events = try session.answer(.command(.back), .text("medium"))
        #expect(celebrations(events).isEmpty)
        #expect(session.save.celebrations.map(\.reason) == [.prepDone])
        // And a second medium for another answer still counts the first one.
        events = try session.answer(.text("medium"))
        #expect(tiers(events) == ["tiny"])
    }

    @Test("a replay (opening with the save, as resume and crash recovery do) fires nothing and keeps what fired")
    func replayFiresNothing() throws {
        let session = try withLanguage(tierFlow)
        try session.answer(.text("medium"), .text("big"))
        let save = session.save
        var o = options()
        o.celebrations = true
        let reopened = try FlowSession.open(tierFlow, language: try englishOnce.get(), options: o, resuming: save)
        #expect(celebrations(reopened.openingEvents).isEmpty)
        #expect(reopened.save.celebrations == save.celebrations)
        // Going on after the resume: the limit still counts what fired before it.
        let events = try reopened.answer(.text("medium"), .text("none"))
        #expect(tiers(events) == ["tiny", "tiny"])
    }

    @Test("the same answers and seed give byte-identical events, lines included, back included")
    func deterministic() throws {
        func transcript() throws -> Data {
            let session = try withLanguage(tierFlow, seed: 9)
            var events = session.openingEvents
            events += try session.answer(.text("medium mini_celebration"), .command(.back), .text("tiny mini_celebration"),
                                         .text("big warm_validation"), .text("none"), .text("tiny"))
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys]
            return try e.encode(events)
        }
        let first = try transcript()
        for _ in 0..<5 { #expect(try transcript() == first) }
        #expect(String(decoding: first, as: UTF8.self).contains("\"line\""))
    }

    @Test("a pool line is drawn with the session's seed and is never the line the person saw last from that pool")
    func poolLineDiffersFromThePreviousOne() throws {
        let lines = try englishOnce.get()
        for seed: UInt64 in 0..<8 {
            let first = try withLanguage(tierFlow, seed: seed)
            let shown = try #require(celebrations(try first.answer(.text("tiny mini_celebration"))).first?.line)
            #expect(shown.text == lines.localizer.string(LinePool.miniCelebration.key(shown.index)))
            // The same seed, with that line as the person's last one: another line.
            let progress = ProgressFacts(steps: [], completed: StepProgress(step: "", streak: 0, days: 0, today: false, yesDays: 0,
                                                                            yesToday: false, yesThisWeek: 0),
                                         anyCompletedToday: false, achievements: [], week: "2026-W47",
                                         lastLines: [LastLine(pool: .miniCelebration, index: shown.index)])
            let second = try withLanguage(tierFlow, seed: seed, facts: UserFacts(progress: progress))
            let next = try #require(celebrations(try second.answer(.text("tiny mini_celebration"))).first?.line)
            #expect(next.index != shown.index)
        }
    }

    @Test("a misspelled tier or reason stops at the rules' line, naming what is known")
    func misspelled() throws {
        let bad = FlowSource(name: "flows/test/bad.lua", text: tierFlow.text, celebrationRules: RulesSource(
            name: "flows/test/celebrations.lua", text: """
            return { after = function(s, step, answer)
              s:celebrate { tier = answer, reason = "reste_done" }
            end }
            """))
        let session = try withLanguage(bad)
        #expect {
            try session.answer(.text("tiny"))
        } throws: { error in
            "\(error)".contains("unknown reason 'reste_done' (did you mean 'reset_done'?)") && "\(error)".contains("celebrations.lua:2")
        }
        let badTier = FlowSource(name: "flows/test/bad.lua", text: tierFlow.text, celebrationRules: RulesSource(
            name: "flows/test/celebrations.lua", text: """
            return { after = function(s, step, answer) s:celebrate { tier = "huge", reason = "win" } end }
            """))
        #expect {
            try withLanguage(badTier).answer(.text("x"))
        } throws: { error in "\(error)".contains("'tier' must be \"tiny\", \"medium\" or \"big\"") }
    }
}

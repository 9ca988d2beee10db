import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

// The shipped rules (flows/coach/celebrations.lua, spec coach §7) against
// stand-ins of the coach flows (Tests/Fixtures/progress).

private func coachSource(_ file: String) throws -> FlowSource {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/progress/\(file).lua"), encoding: .utf8)
    let rules = try String(contentsOf: repositoryRoot.appendingPathComponent("flows/coach/celebrations.lua"), encoding: .utf8)
    return FlowSource(name: "flows/coach/\(file).lua", text: text,
                      celebrationRules: RulesSource(name: "flows/coach/celebrations.lua", text: rules))
}

private func progress(_ steps: [StepProgress] = [], completed: StepProgress? = nil, completedToday: Bool = false,
                      achievements: [String] = []) -> ProgressFacts {
    ProgressFacts(steps: steps, completed: completed ?? StepProgress(step: "", streak: 0, days: 0, today: false, yesDays: 0,
                                                                     yesToday: false, yesThisWeek: 0),
                  anyCompletedToday: completedToday, achievements: achievements, week: "2026-W48")
}

private func run(_ file: String, facts: UserFacts, _ answers: [AnswerInput]) throws -> [FiredCelebration] {
    var o = options()
    o.facts = facts
    let session = try FlowSession.open(try coachSource(file), language: try english(), options: o)
    let events = try session.answer(answers)
    #expect(session.isFinished)
    return events.compactMap { if case .celebration(let c) = $0 { c } else { nil } }
}

extension FlowSession {
    @discardableResult
    func answer(_ inputs: [AnswerInput]) throws -> [FlowEvent] {
        var events: [FlowEvent] = []
        for input in inputs { events += try submit(input) }
        return events
    }
}

private let morningAnswers: [AnswerInput] = [.acknowledge, .text("someone who cares"), .text("walking"), .text("three breaths"), .acknowledge]

@Suite("Coach celebration rules (spec coach §7)", .hangGuard)
struct CoachCelebrationRulesTests {
    @Test("the morning that reaches a 7-day streak ends with a big celebration")
    func seventhMorning() throws {
        let step = { (id: String) in StepProgress(step: id, streak: 6, days: 6, today: false, yesDays: 0, yesToday: false, yesThisWeek: 0) }
        let facts = UserFacts(streak: StreakFigures(current: 6, longest: 6, lastSevenDays: 6, today: false),
                              progress: progress(["reset", "identity", "focus", "stress_response", "start_day"].map(step),
                                                 completed: step(""), achievements: ["streak_3", "first_stress_response"]))
        let fired = try run("morning", facts: facts, morningAnswers)
        #expect(fired.last?.tier == .big)
        #expect(fired.last?.reason == .streakMilestone)
        #expect(fired.filter { $0.tier == .big }.count == 1)
        #expect(fired.filter { $0.tier == .medium }.map(\.reason) == [.morningComplete])
        // 7 mornings in a row: first_week_morning asked for medium, collapsed to tiny.
        #expect(fired.first { $0.reason == .firstWeekMorning }?.tier == .tiny)
    }

    @Test("an evening with Yes, two preps Done and the day complete shows exactly one medium, the others tiny")
    func evening() throws {
        let facts = UserFacts(streak: StreakFigures(current: 4, longest: 4, lastSevenDays: 4, today: true),
                              progress: progress(completedToday: true))
        let fired = try run("evening", facts: facts, [
            .boolean(true), .text("a walk"), .text("after lunch"),
            .checklist(["produce": "done", "water": "done", "breakfast": "skip"]), .acknowledge,
        ])
        #expect(fired.filter { $0.tier == .medium }.count == 1)
        #expect(fired.map(\.reason) == [.careDone, .prepDone, .prepDone, .prepTwoDone, .dayComplete])
        #expect(fired.map(\.item) == [nil, "produce", "water", nil, nil])
        #expect(fired.map(\.tier) == [.medium, .tiny, .tiny, .tiny, .tiny])
        // Yes comes with a mini-celebration line.
        #expect(fired.first?.line?.pool == .miniCelebration)
    }

    @Test("No is a warm-validation line and no confetti; a bare evening ends with a gentle checkmark")
    func hardEvening() throws {
        let fired = try run("evening", facts: UserFacts(progress: progress(completedToday: true)), [
            .boolean(false), .command(.skip), .command(.skip),
            .checklist(["produce": "skip", "water": "partly", "breakfast": "skip"]), .acknowledge,
        ])
        #expect(fired.map(\.reason) == [.careDone, .dayComplete])
        #expect(fired.allSatisfy { $0.tier == nil })
        #expect(fired.first?.line?.pool == .warmValidation)
        let lines = try english()
        #expect(fired.first?.line?.text == lines.localizer.string(LinePool.warmValidation.key(fired.first?.line?.index ?? 0)))
    }

    @Test("the first stress plan ever is big; a later first-of-the-day one is tiny; reset later the same day is none")
    func stressResponse() throws {
        let first = try run("morning", facts: UserFacts(progress: progress()), morningAnswers)
        #expect(first.first { $0.reason == .firstStressResponse }?.tier == .big)
        let again = StepProgress(step: "stress_response", streak: 1, days: 3, today: false, yesDays: 0, yesToday: false, yesThisWeek: 0)
        let resetToday = StepProgress(step: "reset", streak: 1, days: 3, today: true, yesDays: 0, yesToday: false, yesThisWeek: 0)
        let later = try run("morning", facts: UserFacts(progress: progress([again, resetToday])), morningAnswers)
        #expect(later.first { $0.reason == .stressResponse }?.tier == .tiny)
        #expect(!later.contains { $0.reason == .firstStressResponse })
        #expect(!later.contains { $0.reason == .resetDone })
    }

    @Test("the fifth evening of a week with a Done earns weekly consistency: big")
    func weeklyConsistency() throws {
        let prep = StepProgress(step: "prep", streak: 4, days: 9, today: false, yesDays: 9, yesToday: false, yesThisWeek: 4)
        let fired = try run("evening", facts: UserFacts(progress: progress([prep], completedToday: true)), [
            .boolean(true), .text("tea"), .text("no"), .checklist(["produce": "done", "water": "skip", "breakfast": "skip"]), .acknowledge,
        ])
        #expect(fired.first { $0.reason == .weeklyConsistency }?.tier == .big)
        let held = try run("evening", facts: UserFacts(progress: progress([prep], completedToday: true, achievements: ["weekly_consistency:2026-W48"])), [
            .boolean(true), .text("tea"), .text("no"), .checklist(["produce": "done", "water": "skip", "breakfast": "skip"]), .acknowledge,
        ])
        #expect(!held.contains { $0.reason == .weeklyConsistency })
    }

    // The shipped evening (flows/coach/evening.lua) with its rules, on a Prep Library snapshot.
    private func realEvening(prep: [PrepItem], _ answers: [AnswerInput]) throws -> [FiredCelebration] {
        var o = options(clock: FlowClock(iso8601: "2026-11-22T21:40:00+01:00")!)
        o.facts = UserFacts(day: "2026-11-22", phase: .evening, prepItems: prep, progress: progress(completedToday: true))
        let session = try FlowSession.open(try ContentLibrary(root: ContentRoot(repositoryRoot)).catalog.source(for: "coach.evening"),
                                           language: try english(), options: o)
        let events = try session.answer(answers)
        #expect(session.isFinished)
        return events.compactMap { if case .celebration(let c) = $0 { c } else { nil } }
    }

    private let threeItems = [
        PrepItem(id: "produce", label: .key("coach.prep.item.produce"), core: true),
        PrepItem(id: "water", label: .key("coach.prep.item.water"), core: true),
        PrepItem(id: "breakfast", label: .key("coach.prep.item.breakfast"), core: true),
    ]

    @Test("evening 3, 'each prep item marked Done: tiny': one tiny celebration per Done item, in the checklist's order, with the item; going back and marking again fires none twice")
    func eachPrepItemDone() throws {
        var o = options(clock: FlowClock(iso8601: "2026-11-22T21:40:00+01:00")!)
        o.facts = UserFacts(day: "2026-11-22", phase: .evening, prepItems: threeItems, progress: progress(completedToday: true))
        let session = try FlowSession.open(try ContentLibrary(root: ContentRoot(repositoryRoot)).catalog.source(for: "coach.evening"),
                                           language: try english(), options: o)
        let first: [FlowEvent] = try session.answer([AnswerInput.boolean(false), .text("tea"), .text("no"),
                                        .checklist(["produce": "done", "water": "skip", "breakfast": "done"])])
        let prep = first.compactMap { if case .celebration(let c) = $0, c.step == "prep" { c } else { nil } }
        #expect(prep.map(\.reason) == [.prepDone, .prepDone, .prepTwoDone])
        #expect(prep.map(\.item) == ["produce", "breakfast", nil])
        #expect(prep.map(\.tier) == [.tiny, .tiny, .medium])
        // The event names the item, for the pop near its button.
        let json = try #require(String(data: try JSONEncoder().encode(first.first { if case .celebration(let c) = $0 { c.item == "produce" } else { false } }), encoding: .utf8))
        #expect(json.contains("\"item\":\"produce\""), "\(json)")
        // Back to the checklist and water marked Done too: only water's is new.
        let again: [FlowEvent] = try session.answer([AnswerInput.command(.back), .checklist(["produce": "done", "water": "done", "breakfast": "done"])])
        let more = again.compactMap { if case .celebration(let c) = $0, c.step == "prep" { c } else { nil } }
        #expect(more.map(\.item) == ["water"])
    }

    @Test("evening 4 (c), 'every screen answered with nothing skipped': a No evening whose prep items are all Partly is medium; one item marked Skip leaves a gentle checkmark")
    func nothingSkipped() throws {
        let partly = try realEvening(prep: threeItems, [
            .boolean(false), .text("tea"), .text("after the call"),
            .checklist(["produce": "partly", "water": "partly", "breakfast": "partly"]), .command(.skip), .acknowledge,
        ])
        #expect(partly.first { $0.reason == .dayComplete }?.tier == .medium)
        // A prep item marked Skip is something skipped: none of (a)(b)(c) holds.
        let oneSkipped = try realEvening(prep: threeItems, [
            .boolean(false), .text("tea"), .text("after the call"),
            .checklist(["produce": "partly", "water": "skip", "breakfast": "partly"]), .command(.skip), .acknowledge,
        ])
        let complete = try #require(oneSkipped.first { $0.reason == .dayComplete })
        #expect(complete.tier == nil)
    }

    @Test("evening 4 (c) with nothing on today's list: writing a new item answers the prep screen (medium); leaving it empty is a skip (checkmark)")
    func nothingSkippedEmptyLibrary() throws {
        let written = try realEvening(prep: [], [.boolean(false), .text("tea"), .text("no"), .text("Fill the kettle"), .acknowledge])
        #expect(written.first { $0.reason == .dayComplete }?.tier == .medium)
        let left = try realEvening(prep: [], [.boolean(false), .text("tea"), .text("no"), .command(.skip), .acknowledge])
        let complete = try #require(left.first { $0.reason == .dayComplete })
        #expect(complete.tier == nil)
    }
}


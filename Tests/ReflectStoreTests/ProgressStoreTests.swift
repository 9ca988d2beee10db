import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// Issue 15: every logged action marks its day through one write path;
// streaks read an index, achievements are recorded once, celebrations
// are stored once per session, step and reason.

private func day(_ s: String) -> CalendarDay { CalendarDay(s)! }

private func coachSession(_ id: String, flow: String, on date: String) -> SessionRecord {
    SessionRecord(id: id, flowID: flow, flowVersion: 1, locale: "en", personality: nil, user: "default", mood: nil, seed: 1,
                  clock: "\(date)T08:00:00+01:00", startedAt: "\(date)T08:00:00+01:00", completedAt: nil, status: .active)
}

/// Stores one coach morning on `date`: five answers, the last completing it.
private func morning(_ store: Store, _ date: String) throws {
    let id = "m-\(date)"
    try store.beginSession(coachSession(id, flow: "coach.morning", on: date))
    let steps = ["reset", "identity", "focus", "stress_response", "start_day"]
    for (i, step) in steps.enumerated() {
        try store.recordAnswer(answer(id, step, i, .text("x")),
                               completion: i == steps.count - 1 ? SessionCompletion(pre: nil, post: nil, at: "\(date)T08:05:00+01:00", moodDay: nil) : nil,
                               activityDay: day(date))
    }
}

@Suite("Progress in the store")
struct ProgressStoreTests {
    @Test("answers of any flow and mood logs mark the day; streaks and achievements follow, each achievement once")
    func onePath() throws {
        let store = try temporaryStore()
        for d in 1...7 { try morning(store, String(format: "2026-11-%02d", d)) }
        // A mood log on day 8 counts too.
        try store.logMood(MoodLogRequest(user: "default", day: "2026-11-08", mood: .good, note: nil, source: .log, sessionID: nil,
                                         at: "2026-11-08T12:00:00+01:00", conflict: .keepExisting))
        let days = try store.showedUpDays(user: "default")
        #expect(days.figures(today: day("2026-11-08")) == StreakFigures(current: 8, longest: 8, lastSevenDays: 7, today: true))
        let keys = try store.achievements(user: "default").map { "\($0.key)@\($0.achievedAt)" }
        #expect(keys == ["first_stress_response@2026-11-01", "streak_3@2026-11-03", "first_week_morning@2026-11-07", "streak_7@2026-11-07"])
        // Per-step days: the identity step's streak.
        let identity = try store.stepDays(user: "default", flow: "coach.morning", step: "identity", kind: .saved)
        #expect(identity.currentStreak(today: day("2026-11-08")) == 7)
        // Answering again on the same day adds nothing and records nothing twice.
        try store.recordAnswer(answer("m-2026-11-07", "focus", 2, .text("again")), activityDay: day("2026-11-07"))
        #expect(try store.achievements(user: "default").count == 4)
    }

    @Test("an achievement earned by a step answered on a day already showed up is recorded (the recompute is not skipped)")
    func earnedLaterInTheDay() throws {
        // Achievements are recomputed only when what they read changes;
        // an evening's prep Yes on a day a mood log already marked must still count.
        let store = try temporaryStore()
        for d in 16...20 {
            let date = String(format: "2026-11-%02d", d)
            try store.logMood(MoodLogRequest(user: "default", day: date, mood: .good, note: nil, source: .log, sessionID: nil,
                                             at: "\(date)T07:00:00+01:00", conflict: .keepExisting))
            let id = "e-\(date)"
            try store.beginSession(coachSession(id, flow: "coach.evening", on: date))
            try store.recordAnswer(answer(id, "mood", 0, .text("fine")), activityDay: day(date))
            try store.recordAnswer(answer(id, "prep", 1, .boolean(true)), activityDay: day(date))
        }
        #expect(try store.achievements(user: "default").map(\.key).contains("weekly_consistency:2026-W47"))
        // Other steps' marks on a day already showed up change nothing.
        #expect(AchievementRules.reads(ActivityMark(day: day("2026-11-20"), flow: "coach.evening", step: "mood", kind: .saved)) == false)
        #expect(AchievementRules.reads(ActivityMark(day: day("2026-11-20"), flow: "coach.evening", step: "prep", kind: .positive)))
    }

    @Test("facts for a session: per-step history, completions, achievements held, today's week")
    func facts() throws {
        let store = try temporaryStore()
        for d in 1...3 { try morning(store, String(format: "2026-11-%02d", d)) }
        let (streak, facts) = try store.progressFacts(user: "default", flow: "coach.morning", today: day("2026-11-04"))
        #expect(streak == StreakFigures(current: 3, longest: 3, lastSevenDays: 3, today: false))
        #expect(facts.steps.map(\.step) == ["focus", "identity", "reset", "start_day", "stress_response"])
        #expect(facts.steps.first { $0.step == "identity" }?.streak == 3)
        #expect(facts.completed.days == 3)
        #expect(!facts.anyCompletedToday)
        #expect(facts.achievements == ["first_stress_response", "streak_3"])
        #expect(facts.week == "2026-W45")
    }

    @Test("a session's facts equal each step's own day sets, on random marks of several flows, steps and kinds, written in any order, as of any day")
    func factsMatchEachStepsDays() throws {
        for seed in UInt64(1)...12 {
            var random = SplitMix(seed: seed)
            let flows = ["coach.morning", "coach.evening"]
            let steps = ["", "a", "b", "focus", "z"]
            let today = day("2026-11-20")
            var marks: [ActivityMark] = []
            // From sparse to nearly every day (long streaks), days after
            // today included (a clock moved back): they count for nothing.
            for _ in 0..<Int.random(in: 50...1500, using: &random) {
                let flow = flows[Int.random(in: 0..<flows.count, using: &random)]
                let step = steps[Int.random(in: 0..<steps.count, using: &random)]
                let kind: ActivityMark.Kind = step.isEmpty ? .completed : [.saved, .positive][Int.random(in: 0...1, using: &random)]
                let mark = CalendarDay(ordinal: today.ordinal - Int.random(in: -5..<60, using: &random))
                marks.append(ActivityMark(day: mark, flow: flow, step: step, kind: kind))
            }
            // The same marks written as an import or a back-fill does (one
            // batch), and one at a time in random order as live answers and
            // prep marks do (a day before a set's last one makes the later
            // days' running figures be computed again), and in random batches.
            let batch = try temporaryStore()
            try batch.markActivity(marks, user: "default")
            let single = try temporaryStore()
            try single.write { db in for m in marks.shuffled(using: &random) { try Store.markActivity([m], user: "default", in: db) } }
            let chunks = try temporaryStore()
            var rest = marks.shuffled(using: &random)
            while !rest.isEmpty {
                let n = min(rest.count, Int.random(in: 1...40, using: &random))
                try chunks.markActivity(Array(rest.prefix(n)), user: "default")
                rest.removeFirst(n)
            }
            // As of days before, within and after the marks: today, the
            // start and end of today's ISO week, a day whose yesterday ends a
            // streak, a day in a gap, the first days.
            let asOf = [today, today.adding(days: -1), today.adding(days: 1), today.adding(days: 3), today.adding(days: 8),
                        today.isoWeekStart, today.isoWeekStart.adding(days: -1), today.adding(days: -30), today.adding(days: -58),
                        today.adding(days: -61), CalendarDay(ordinal: today.ordinal - Int.random(in: -6..<62, using: &random))]
            for (name, store) in [("batch", batch), ("single", single), ("chunks", chunks)] {
                let showedUp = try store.showedUpDays(user: "default")
                for when in asOf {
                    for flow in flows {
                        let (streak, facts) = try store.progressFacts(user: "default", flow: flow, today: when)
                        let context = "seed \(seed), \(name), \(flow), as of \(when)"
                        #expect(streak == showedUp.figures(today: when), "\(context)")
                        let marked = Set(marks.filter { $0.flow == flow && !$0.step.isEmpty }.map(\.step)).sorted()
                        #expect(facts.steps.map(\.step) == marked, "\(context)")
                        for step in marked {
                            let expected = StepProgress(step: step, saved: try store.stepDays(user: "default", flow: flow, step: step, kind: .saved),
                                                        positive: try store.stepDays(user: "default", flow: flow, step: step, kind: .positive),
                                                        today: when)
                            #expect(facts.steps.first { $0.step == step } == expected, "\(context)/\(step)")
                        }
                        let completed = StepProgress(step: "", saved: try store.stepDays(user: "default", flow: flow, step: "", kind: .completed),
                                                     positive: ShowedUpDays([]), today: when)
                        #expect(facts.completed == completed, "\(context)")
                        let anyCompleted = try flows.contains { try store.stepDays(user: "default", flow: $0, step: "", kind: .completed).contains(when) }
                        #expect(facts.anyCompletedToday == anyCompleted, "\(context)")
                    }
                }
            }
        }
    }

    @Test("reset achievements: cleared, streaks kept, and earned again only from later activity")
    func reset() throws {
        let store = try temporaryStore()
        for d in 1...4 { try morning(store, String(format: "2026-11-%02d", d)) }
        try store.resetAchievements(user: "default", day: day("2026-11-04"))
        #expect(try store.achievements(user: "default").isEmpty)
        #expect(try store.showedUpDays(user: "default").currentStreak(today: day("2026-11-04")) == 4)
        for d in 5...7 { try morning(store, String(format: "2026-11-%02d", d)) }
        #expect(try store.achievements(user: "default").map(\.key) == ["first_stress_response", "streak_3"])
        #expect(try store.achievements(user: "default").map(\.achievedAt) == ["2026-11-05", "2026-11-07"])
    }

    @Test("a celebration is stored once per session, step and reason, even when its answer is recorded again")
    func celebrationOnce() throws {
        let store = try temporaryStore()
        try store.beginSession(coachSession("e1", flow: "coach.evening", on: "2026-11-02"))
        let c = CelebrationRow(sessionID: "e1", user: "", step: "care_done", tier: .medium, reason: "care_done", pool: "mini_celebration",
                               lineIndex: 3, line: "Tiny steps, real progress.", at: "2026-11-02T21:00:00+01:00")
        try store.recordAnswer(answer("e1", "care_done", 0, .boolean(true)), activityDay: day("2026-11-02"), celebrations: [c])
        try store.recordAnswer(answer("e1", "care_done", 0, .boolean(true)), activityDay: day("2026-11-02"), celebrations: [c])
        let stored = try store.celebrations(session: "e1")
        #expect(stored.count == 1)
        #expect(stored.first?.user == "default")
        #expect(stored.first?.line == "Tiny steps, real progress.")
        #expect(try store.detail("e1").celebrations == stored)
        // A Yes marks the step positive (first 3 Yes evenings are counted from these).
        #expect(try store.stepDays(user: "default", flow: "coach.evening", step: "care_done", kind: .positive).days == [day("2026-11-02")])
        let (_, facts) = try store.progressFacts(user: "default", flow: "coach.evening", today: day("2026-11-03"))
        #expect(facts.lastLines == [LastLine(pool: .miniCelebration, index: 3)])
    }

    @Test("export and import keep days, achievements and celebrations; delete-all removes them; an older export still imports")
    func exportImport() throws {
        let store = try temporaryStore()
        for d in 1...3 { try morning(store, String(format: "2026-11-%02d", d)) }
        try store.recordAnswer(answer("m-2026-11-01", "reset", 0, .text("x")), activityDay: day("2026-11-01"), celebrations: [
            CelebrationRow(sessionID: "m-2026-11-01", user: "", step: "reset", tier: .tiny, reason: "reset_done", at: "2026-11-01T08:00:00+01:00")])
        let doc = try store.export(at: "2026-11-04T08:00:00+01:00")
        #expect(doc.progress?.showedUpDays.count == 3)
        #expect(doc.progress?.achievements.count == 2)
        #expect(doc.progress?.celebrations.count == 1)
        let data = try JSONEncoder().encode(doc)
        let other = try temporaryStore()
        _ = try other.importDocument(try JSONDecoder().decode(ExportDocument.self, from: data))
        _ = try other.importDocument(try JSONDecoder().decode(ExportDocument.self, from: data))
        let again = try other.export(at: "2026-11-04T08:00:00+01:00")
        #expect(again.progress == doc.progress)
        try other.deleteAll()
        #expect(try other.showedUpDays(user: "default").isEmpty)
        #expect(try other.achievements(user: "default").isEmpty)
        // An export from before progress existed (no "progress" key) imports.
        var old = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        old["progress"] = nil
        let oldData = try JSONSerialization.data(withJSONObject: old)
        let report = try other.importDocument(try JSONDecoder().decode(ExportDocument.self, from: oldData))
        #expect(report.sessionsAdded == 3)
    }
}

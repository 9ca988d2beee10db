import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// Issue 20: the store works out achievements from the days around each new
// one (Store.markActivity), never reading the whole history. Held here to
// the full recomputation over generated lives: logical days from instants
// in moving time zones and day boundaries, as `reflect run` and `log` get
// them, answers, completions, moods, back-dated logs, resets and back-fills.

private let zones: [PersonTimeZone] = [.clockOffset, .zone("Europe/Berlin"), .zone("America/New_York"), .zone("Asia/Kolkata"),
                                       .zone("Pacific/Auckland"), .zone("UTC")]

@Suite("Achievements in the store, incrementally")
struct AchievementIncrementalStoreTests {
    @Test("every logged action records exactly what recomputing the whole history records")
    func matchesFullRecomputation() throws {
        var rng = SeededRandom(seed: 2020)
        let base = Date(timeIntervalSince1970: 1_780_000_000) // 2026-05-28
        var earned = Set<String>()
        for life in 0..<12 {
            let store = try temporaryStore()
            let user = "p\(life)"
            var model: [AchievementTrack: Set<Int>] = [:]
            var reset: CalendarDay?
            var recorded: [String: String] = [:]
            func history() -> AchievementHistory {
                func days(_ t: AchievementTrack) -> ShowedUpDays { ShowedUpDays((model[t] ?? []).map(CalendarDay.init(ordinal:))) }
                return AchievementHistory(showedUp: days(.showedUp), morningsCompleted: days(.morningsCompleted),
                                          eveningsWithPrepDone: days(.eveningsWithPrepDone), stressResponses: days(.stressResponses)).after(reset)
            }
            /// The full recomputation, insert-or-ignore (the first day recorded stays).
            func recompute() {
                for (a, d) in AchievementRules.earned(by: history()) where recorded[a.key] == nil { recorded[a.key] = d.description }
            }
            var rules = DayRules()
            var elapsed: TimeInterval = 0
            for action in 0..<160 {
                // Time moves on by a few hours to two days; now and then the
                // person travels or changes their day boundary.
                elapsed += Double.random(in: 3_600...(life % 3 == 0 ? 172_800 : 60_000), using: &rng)
                if Int.random(in: 0..<12, using: &rng) == 0 {
                    rules = DayRules(timeZone: zones.randomElement(using: &rng)!,
                                     boundary: ClockTime(hour: Int.random(in: 0...6, using: &rng), minute: [0, 30].randomElement(using: &rng)!)!)
                }
                let offset = 900 * Int.random(in: -48...56, using: &rng)
                let today = rules.moment(FlowClock(date: base.addingTimeInterval(elapsed), utcOffsetSeconds: offset)).day
                var marks: [ActivityMark] = []
                // Some lives are mostly mornings (seven completed in a row).
                let roll = Int.random(in: 0..<100, using: &rng)
                switch life % 4 == 1 && roll >= 6 ? 40 : roll {
                case 0..<3:
                    try store.resetAchievements(user: user, day: today)
                    reset = today
                    recorded = [:]
                    recompute()
                case 3..<6:
                    // A back-fill (marks of several days in one call): recomputed in full.
                    marks = (1...Int.random(in: 2...20, using: &rng)).map { .logged("mood", day: today.adding(days: -$0 * 2)) }
                case 6..<30:
                    // A mood logged for today or an earlier date (`log --date`).
                    marks = [.logged("mood", day: today.adding(days: -Int.random(in: 0...3, using: &rng)))]
                case 30..<65:
                    // A coach morning: its steps, the stress plan, maybe completed.
                    for step in ["reset", "stress_response", "start_day"] where Bool.random(using: &rng) {
                        marks += ActivityMark.answer(.text("x"), flow: AchievementRules.morningFlow, step: StepID(stringLiteral: step), day: today)
                    }
                    if Int.random(in: 0..<4, using: &rng) > 0 { marks.append(.completed(flow: AchievementRules.morningFlow, day: today)) }
                default:
                    // An evening: the prep checklist with or without a Done.
                    let done: ChecklistMark = Int.random(in: 0..<4, using: &rng) > 0 ? .done : .skip
                    marks += ActivityMark.answer(.checklist(["water": done]), flow: AchievementRules.eveningFlow, step: "prep", day: today)
                    marks += ActivityMark.answer(.text("fine"), flow: AchievementRules.eveningFlow, step: "mood", day: today)
                }
                if !marks.isEmpty {
                    try store.markActivity(marks, user: user)
                    // What the store did before: one full recomputation when a
                    // set the rules read gained a day.
                    var changed = false
                    for m in marks {
                        if model[.showedUp, default: []].insert(m.day.ordinal).inserted { changed = true }
                        if let track = AchievementTrack(mark: m), model[track, default: []].insert(m.day.ordinal).inserted { changed = true }
                    }
                    if changed { recompute() }
                }
                let stored = Dictionary(uniqueKeysWithValues: try store.achievements(user: user).map { ($0.key, $0.achievedAt) })
                #expect(stored == recorded, "life \(life), action \(action), today \(today)")
                if stored != recorded { return }
            }
            earned.formUnion(recorded.keys.map { $0.hasPrefix("weekly") ? "weekly_consistency" : $0 })
        }
        #expect(earned.isSuperset(of: ["streak_3", "streak_7", "first_week_morning", "first_stress_response", "weekly_consistency"]),
                "the lives earn every kind of achievement: \(earned.sorted())")
    }

    @Test("an import whose days join a streak neither file recorded records it, and the next answer's window relies on that")
    func importRestoresWhatWasEarned() throws {
        let store = try temporaryStore()
        func d(_ s: String) -> CalendarDay { CalendarDay(s)! }
        // Two devices' halves of a 4-day streak: neither earned streak_3.
        var doc = ExportDocument(exportedAt: "2026-11-10T08:00:00Z", sessions: [], moodEntries: [])
        doc.progress = ExportedProgress()
        doc.progress?.showedUpDays = ["2026-11-01", "2026-11-02", "2026-11-04", "2026-11-05"].map {
            ExportedShowedUpDay(user: "default", day: d($0))
        }
        _ = try store.importDocument(doc)
        #expect(try store.achievements(user: "default").isEmpty)
        doc.progress?.showedUpDays = [ExportedShowedUpDay(user: "default", day: d("2026-11-03"))]
        _ = try store.importDocument(doc)
        #expect(try store.achievements(user: "default").map { "\($0.key)@\($0.achievedAt)" } == ["streak_3@2026-11-03"])
    }
}

import Testing
import ReflectCore

// Issue 20: achievements are worked out from the few days around each new
// one (AchievementTrack.window), not from the whole history. The fast path
// must record exactly what recomputing the whole history records.

/// Recorded achievements, insert-or-ignore: the first day recorded stays.
private struct Recorded: Equatable {
    var days: [String: CalendarDay] = [:]
    mutating func record(_ earned: [(achievement: Achievement, day: CalendarDay)]) {
        for (a, d) in earned where days[a.key] == nil { days[a.key] = d }
    }
}

/// A person's day sets, and the achievements recorded two ways: in full
/// (the whole history after each new day) and incrementally (the window).
private struct Person {
    var sets: [AchievementTrack: Set<Int>] = [:]
    var reset: CalendarDay?
    var full = Recorded()
    var incremental = Recorded()

    func history() -> AchievementHistory {
        func days(_ t: AchievementTrack) -> ShowedUpDays { ShowedUpDays((sets[t] ?? []).map(CalendarDay.init(ordinal:))) }
        return AchievementHistory(showedUp: days(.showedUp), morningsCompleted: days(.morningsCompleted),
                                  eveningsWithPrepDone: days(.eveningsWithPrepDone), stressResponses: days(.stressResponses)).after(reset)
    }

    /// Adds `day` to `track`; both ways record what it earns.
    mutating func add(_ day: CalendarDay, to track: AchievementTrack) {
        guard sets[track, default: []].insert(day.ordinal).inserted else { return }
        full.record(AchievementRules.earned(by: history()))
        if let reset, day <= reset { return }
        var window = track.window(around: day)
        if let reset { window = max(window.lowerBound, reset.adding(days: 1))...window.upperBound }
        let nearby = (sets[track] ?? []).filter { window.contains(CalendarDay(ordinal: $0)) }
        incremental.record(track.earned(by: ShowedUpDays(nearby.map(CalendarDay.init(ordinal:)))))
    }

    /// "Reset achievements" on `day`: cleared, then what the days after it
    /// earned recorded in full (both ways: the store does so at reset).
    mutating func resetAchievements(_ day: CalendarDay) {
        reset = day
        full = Recorded()
        full.record(AchievementRules.earned(by: history()))
        incremental = full
    }
}

@Suite("Achievements, incrementally")
struct AchievementIncrementalTests {
    @Test("the window around each new day records what recomputing the whole history records, over many random histories")
    func matchesFullRecomputation() {
        var rng = SeededRandom(seed: 20)
        let start = CalendarDay("2026-01-01")!.ordinal
        var earnedAnything = 0
        for history in 0..<400 {
            var p = Person()
            // Dense or sparse, short or long: streaks of every length, gaps,
            // days filled in afterwards (a log for an earlier date), resets.
            let span = [12, 40, 90, 200][history % 4]
            let density = Double(history % 5 + 1) / 5
            for i in 0..<(span * 2) {
                // Every third life is a daily habit: day after day, with
                // gaps, now and then an earlier day filled in.
                let daily = history % 3 == 0 && Int.random(in: 0..<10, using: &rng) > 0
                let day = CalendarDay(ordinal: start + (daily ? i / 2 : Int.random(in: 0..<span, using: &rng)))
                if Double.random(in: 0..<1, using: &rng) > density { continue }
                switch Int.random(in: 0..<100, using: &rng) {
                case 0: p.resetAchievements(CalendarDay(ordinal: start + Int.random(in: 0..<span, using: &rng)))
                case 1..<40: p.add(day, to: .showedUp)
                default:
                    let track = [AchievementTrack.morningsCompleted, .eveningsWithPrepDone, .stressResponses].randomElement(using: &rng)!
                    p.add(day, to: .showedUp) // every mark's day is a showed-up day, first
                    p.add(day, to: track)
                }
                #expect(p.incremental == p.full, "history \(history)")
                if p.incremental != p.full { return }
            }
            earnedAnything += p.full.days.count
        }
        #expect(earnedAnything > 1000, "the histories earn achievements of every kind")
    }

    @Test("each track's rule alone, joined, is the whole rule; the windows are what the longest runs need")
    func tracks() {
        let days = ShowedUpDays((0..<40).map { CalendarDay("2026-11-01")!.adding(days: $0) })
        let history = AchievementHistory(showedUp: days, morningsCompleted: days, eveningsWithPrepDone: days, stressResponses: days)
        let keys = AchievementRules.earned(by: history).map { "\($0.achievement.key)@\($0.day)" }
        #expect(keys.contains("streak_30@2026-11-30"))
        #expect(keys.contains("first_week_morning@2026-11-07"))
        #expect(keys.contains("first_stress_response@2026-11-01"))
        #expect(keys.contains("weekly_consistency:2026-W45@2026-11-06")) // Monday 2 … Friday 6 November
        let d = CalendarDay("2026-11-20")!
        #expect(AchievementTrack.showedUp.window(around: d) == d.adding(days: -29)...d.adding(days: 29))
        #expect(AchievementTrack.morningsCompleted.window(around: d) == d.adding(days: -6)...d.adding(days: 6))
        #expect(AchievementTrack.eveningsWithPrepDone.window(around: d) == CalendarDay("2026-11-16")!...CalendarDay("2026-11-22")!)
        #expect(AchievementTrack(mark: ActivityMark(day: d, flow: "coach.evening", step: "mood", kind: .saved)) == nil)
    }
}

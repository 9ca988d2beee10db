import Testing
import ReflectCore

// Issue 15: streaks, the heatmap and achievements, pure (today is an input).

private func day(_ s: String) -> CalendarDay { CalendarDay(s)! }

private func days(_ list: String...) -> ShowedUpDays { ShowedUpDays(list.map(day)) }

@Suite("Progress: calendar days, streaks, heatmap, achievements")
struct ProgressTests {
    @Test("calendar days: parse, print, weekdays and ISO weeks, across leap years and year ends")
    func calendar() {
        #expect(day("1970-01-01").ordinal == 0)
        #expect(day("2024-02-29").description == "2024-02-29")
        #expect(CalendarDay("2026-02-29") == nil)
        #expect(CalendarDay("2026-1-01") == nil)
        #expect(day("2026-11-22").weekday == 1) // a Sunday
        #expect(day("2026-11-23").weekday == 2)
        #expect(day("2026-12-31").adding(days: 1).description == "2027-01-01")
        #expect(day("2026-11-23").isoWeek == "2026-W48")
        #expect(day("2027-01-01").isoWeek == "2026-W53") // a Friday: still the old year's week
        #expect(day("2024-12-30").isoWeek == "2025-W01")
        let roundTrips = stride(from: -719_162, to: 2_932_897, by: 997).allSatisfy { ordinal in // years 1 … 9999
            let d = CalendarDay(ordinal: ordinal)
            return CalendarDay(d.description) == d
        }
        #expect(roundTrips)
    }

    @Test("current streak: ends today, or yesterday while today has nothing yet; a missed day breaks it")
    func currentStreak() {
        let history = days("2026-11-01", "2026-11-02", "2026-11-04", "2026-11-05", "2026-11-06")
        #expect(history.currentStreak(today: day("2026-11-06")) == 3)
        #expect(history.currentStreak(today: day("2026-11-07")) == 3) // today not over yet
        #expect(history.currentStreak(today: day("2026-11-08")) == 0) // yesterday missed
        #expect(history.currentStreak(today: day("2026-11-02")) == 2) // later days ignored
        #expect(history.longestStreak(through: day("2026-11-30")) == 3)
        #expect(history.longestStreak(through: day("2026-11-04")) == 2)
        #expect(history.count(last: 7, endingOn: day("2026-11-07")) == 5)
        #expect(history.count(last: 7, endingOn: day("2026-11-08")) == 4)
        let f = history.figures(today: day("2026-11-07"))
        #expect(f == StreakFigures(current: 3, longest: 3, lastSevenDays: 5, today: false))
        #expect(f.includingToday == 4)
        #expect(ShowedUpDays([]).currentStreak(today: day("2026-11-07")) == 0)
    }

    @Test("duplicates and order do not matter; only days after a reset count")
    func setSemantics() {
        let a = ShowedUpDays([day("2026-11-03"), day("2026-11-01"), day("2026-11-03"), day("2026-11-02")])
        #expect(a.days.map(\.description) == ["2026-11-01", "2026-11-02", "2026-11-03"])
        #expect(a.after(day("2026-11-01")).days.count == 2)
        #expect(ShowedUpDays(ascending: [day("2026-11-03"), day("2026-11-01")]) == ShowedUpDays([day("2026-11-01"), day("2026-11-03")]))
    }

    @Test("heatmap: 12 calendar weeks starting on the locale's weekday, today in the last week, later days empty")
    func heatmap() {
        let today = day("2026-11-25") // a Wednesday
        let map = ProgressHeatmap(days: days("2026-11-25", "2026-11-23", "2026-09-01"), today: today, weekStart: 2)
        #expect(map.weeks.count == 12)
        #expect(map.weeks.allSatisfy { $0.count == 7 })
        #expect(map.weeks.last?.first?.day == day("2026-11-23")) // Monday
        #expect(map.weeks.last?.map(\.counted) == [true, false, true, false, false, false, false])
        #expect(map.weeks.last?.map(\.future) == [false, false, false, true, true, true, true])
        #expect(map.weeks.first?.first?.day == day("2026-09-07"))
        #expect(!map.weeks.joined().contains { $0.day == day("2026-09-01") })
        let sunday = ProgressHeatmap(days: days(), today: today, weekStart: 1)
        #expect(sunday.weeks.last?.first?.day == day("2026-11-22"))
        #expect(ProgressHeatmap.weekStart(forLocale: "en") == 1)
        #expect(ProgressHeatmap.weekStart(forLocale: "de") == 2)
        #expect(ProgressHeatmap.weekStart(forLocale: "pt-BR") == 1)
    }

    @Test("achievements: each earned once, on the day it was reached")
    func achievements() {
        var showed: [CalendarDay] = []
        for i in 0..<31 { showed.append(day("2026-10-01").adding(days: i)) }
        let mornings = (0..<8).map { day("2026-10-05").adding(days: $0) }
        // Five evenings with a Done in ISO week 2026-W41 (Oct 5–11), four in W42.
        let evenings = ["2026-10-05", "2026-10-06", "2026-10-07", "2026-10-09", "2026-10-11",
                        "2026-10-12", "2026-10-13", "2026-10-14", "2026-10-15"].map(day)
        let history = AchievementHistory(showedUp: ShowedUpDays(showed), morningsCompleted: ShowedUpDays(mornings),
                                         eveningsWithPrepDone: ShowedUpDays(evenings), stressResponses: days("2026-10-02", "2026-10-09"))
        let earned = AchievementRules.earned(by: history).map { "\($0.achievement.key)@\($0.day)" }
        #expect(earned == ["first_stress_response@2026-10-02", "streak_3@2026-10-03", "streak_7@2026-10-07",
                           "first_week_morning@2026-10-11", "weekly_consistency:2026-W41@2026-10-11",
                           "streak_14@2026-10-14", "streak_30@2026-10-30"])
        // After a reset, only what came later counts.
        let later = AchievementRules.earned(by: history.after(day("2026-10-20"))).map(\.achievement.key)
        #expect(later == ["streak_3", "streak_7"])
        for key in ["streak_3", "first_week_morning", "weekly_consistency:2026-W41", "first_stress_response"] {
            #expect(Achievement(key: key)?.key == key)
        }
        #expect(Achievement(key: "streak_4") == nil)
        #expect(Achievement(key: "weekly_consistency:W41") == nil)
    }

    @Test("rate limit: one medium and one big per session, then tiny; tiny always")
    func limit() {
        #expect(CelebrationLimit.granted(.medium, shown: []) == .medium)
        #expect(CelebrationLimit.granted(.medium, shown: [.tiny, .medium]) == .tiny)
        #expect(CelebrationLimit.granted(.big, shown: [.medium]) == .big)
        #expect(CelebrationLimit.granted(.big, shown: [.big]) == .tiny)
        #expect(CelebrationLimit.granted(.tiny, shown: [.tiny, .medium, .big]) == .tiny)
        #expect(CelebrationReason.suggestion(for: "reste_done") == .resetDone)
        #expect(CelebrationReason.suggestion(for: "something else entirely") == nil)
    }

    @Test("the pools have the spec's sizes; a draw equal to the last line moves to the next one")
    func pools() {
        #expect(LinePool.warmValidation.size == 19)
        #expect(LinePool.miniCelebration.size == 15)
        #expect(LinePool.miniCelebration.choose(draw: 4, avoiding: 4) == 5)
        #expect(LinePool.miniCelebration.choose(draw: 15, avoiding: 15) == 1)
        #expect(LinePool.miniCelebration.choose(draw: 4, avoiding: 3) == 4)
    }
}

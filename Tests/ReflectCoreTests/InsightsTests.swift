import Foundation
import Testing
@testable import ReflectCore

private func day(_ s: String) -> CalendarDay { CalendarDay(s) ?? CalendarDay(ordinal: 0) }

/// A check-in on `d` with the given metrics and note themes.
private func checkIn(_ d: CalendarDay, mood: Int, energy: Int = 5, stress: Int = 5, sleep: Double = 7, quality: Int = 5,
                     themes: [Theme] = [], at: String = "08:00") -> JournalEntry {
    JournalEntry(sessionID: "c-\(d)-\(at)", flow: JournalFlows.checkIn, day: d, startedAt: "\(d)T\(at):00+01:00",
                 answers: ["mood": .integer(mood), "energy": .integer(energy), "stress": .integer(stress),
                           "sleep_hours": NumberScale.answer(sleep), "sleep_quality": .integer(quality)],
                 themes: themes.isEmpty ? [:] : ["note": themes])
}

@Suite("Insights: formulas and minimums")
struct InsightsTests {
    let monday = day("2026-11-02")

    @Test("the mood log's mean and distribution; below 3 entries there is no mean")
    func moodLog() {
        let moods = [MoodDay(day: monday, mood: .good), MoodDay(day: monday.adding(days: 1), mood: .bad)]
        let few = Insights.compute(entries: [], moods: moods, from: monday, to: monday.adding(days: 6))
        #expect(few.moodLog.entries == 2)
        #expect(few.moodLog.mean == nil)
        #expect(few.moodLog.distribution["good"] == 1 && few.moodLog.distribution["great"] == 0)
        let more = moods + [MoodDay(day: monday.adding(days: 2), mood: .great)]
        // (4 + 2 + 5) / 3 = 3.67 → 3.7
        #expect(Insights.compute(entries: [], moods: more, from: monday, to: monday.adding(days: 6)).moodLog.mean == 3.7)
    }

    @Test("best and worst weekday need 2 entries on a weekday and 3 weekdays")
    func weekdays() {
        var moods: [MoodDay] = []
        for week in 0..<2 {
            let m = monday.adding(days: 7 * week)
            moods += [MoodDay(day: m, mood: .bad), MoodDay(day: m.adding(days: 2), mood: .average), MoodDay(day: m.adding(days: 5), mood: .great)]
        }
        let r = Insights.compute(entries: [], moods: moods, from: monday, to: monday.adding(days: 13)).moodLog
        #expect(r.weekdays.map(\.weekday) == [2, 4, 7])
        #expect(r.bestWeekday == 7)   // Saturday
        #expect(r.worstWeekday == 2)  // Monday
        let fewer = Insights.compute(entries: [], moods: Array(moods.prefix(3)), from: monday, to: monday.adding(days: 13)).moodLog
        #expect(fewer.weekdays.isEmpty && fewer.bestWeekday == nil)
    }

    @Test("7-day averages need 3 check-ins; a day's last check-in counts (an edit replaces)")
    func sevenDay() throws {
        let sunday = monday.adding(days: 6)
        let entries = [checkIn(monday, mood: 4, sleep: 6.5), checkIn(monday, mood: 8, sleep: 7.25, at: "21:00"),
                       checkIn(monday.adding(days: 3), mood: 6, sleep: 8), checkIn(sunday, mood: 5, sleep: 6)]
        let r = Insights.compute(entries: entries, moods: [], from: monday, to: sunday).checkIns
        #expect(r.checkIns == 4 && r.days == 3)
        let last = try #require(r.lastSevenDays)
        #expect(last.checkIns == 3)
        #expect(last.mood == 6.3)              // (8 + 6 + 5) / 3
        #expect(last.sleepHours == 7.1)        // (7.25 + 8 + 6) / 3 = 7.083
        #expect(r.weekly.count == 1)
        #expect(Insights.compute(entries: Array(entries.prefix(3)), moods: [], from: monday, to: sunday).checkIns.lastSevenDays == nil)
    }

    @Test("tag × mood compares days with and without a theme, only with at least 5 days on each side")
    func themeMood() {
        var entries: [JournalEntry] = []
        for i in 0..<10 {
            let d = monday.adding(days: i)
            entries.append(i < 5 ? checkIn(d, mood: 4, themes: [.sleep]) : checkIn(d, mood: 7))
        }
        let r = Insights.compute(entries: entries, moods: [], from: monday, to: monday.adding(days: 13))
        #expect(r.themes == [ThemeMood(theme: .sleep, daysWith: 5, daysWithout: 5, moodWith: 4, moodWithout: 7, difference: -3)])
        let short = Insights.compute(entries: Array(entries.dropFirst()), moods: [], from: monday, to: monday.adding(days: 13))
        #expect(short.themes.isEmpty)
    }

    @Test("themes chosen in a deep session or a moment count for tag × mood like auto-tagged ones")
    func chosenThemes() {
        var entries: [JournalEntry] = []
        for i in 0..<10 {
            let d = monday.adding(days: i)
            entries.append(checkIn(d, mood: i < 5 ? 3 : 6))
            if i < 5 {
                entries.append(JournalEntry(sessionID: "d-\(i)", flow: "journal.deep-session", day: d, startedAt: "\(d)T20:00:00+01:00",
                                            answers: ["themes": .choices(["family", "not-a-theme"]), "next_step": .text("Call Mum")]))
            }
        }
        let r = Insights.compute(entries: entries, moods: [], from: monday, to: monday.adding(days: 13))
        #expect(r.themes == [ThemeMood(theme: .family, daysWith: 5, daysWithout: 5, moodWith: 3, moodWithout: 6, difference: -3)])
    }

    @Test("intensity change per distortion needs 3 sessions; distortions are counted per ISO week")
    func distortions() {
        func session(_ i: Int, pre: Int, post: Int) -> JournalEntry {
            JournalEntry(sessionID: "s\(i)", flow: "reflection.negative", day: monday.adding(days: i), startedAt: "\(i)",
                         distortions: [.labeling], pre: pre, post: post)
        }
        let r = Insights.compute(entries: [session(0, pre: 8, post: 4), session(1, pre: 6, post: 5), session(8, pre: 7, post: 7)],
                                 moods: [], from: monday, to: monday.adding(days: 13))
        #expect(r.intensityByDistortion == [IntensityChange(key: "labeling", sessions: 3, meanChange: -1.7)])
        #expect(r.intensityByFlow.map(\.key) == ["reflection"])
        #expect(r.distortionsByWeek.map(\.week) == [monday, monday.adding(days: 7)])
        #expect(r.distortionsByWeek.first?.counts == ["labeling": 2])
    }

    @Test("the same input gives the same report, whatever the order of entries")
    func deterministic() {
        let entries = (0..<12).map { checkIn(monday.adding(days: $0), mood: 3 + $0 % 5, themes: $0 % 2 == 0 ? [.work] : []) }
        let a = Insights.compute(entries: entries, moods: [], from: monday, to: monday.adding(days: 13))
        let b = Insights.compute(entries: entries.reversed(), moods: [], from: monday, to: monday.adding(days: 13))
        #expect(a == b)
    }
}

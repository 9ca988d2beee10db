import ArgumentParser
import ReflectCore
import ReflectStore

/// What `reflect insights` and `reflect letter` read: the person's entries,
/// mood log and craving notes, and today's logical day (from `--now` and the
/// stored time zone and day boundary).
struct JournalData {
    let entries: [JournalEntry]
    let moods: [MoodDay]
    let cravings: [CravingDay]
    let today: CalendarDay

    init(store: Store, user: String, now: String?) throws {
        let stamps = try Timestamps(now: now)
        do {
            let clock = try PersonClock(store: store, user: user, stamps: stamps)
            entries = try store.journalEntries(user: user, rules: clock.settings.dayRules)
            moods = try store.moodDays(user: user)
            cravings = try store.cravingDays(user: user)
            today = clock.moment.day
        } catch {
            throw failStore(error)
        }
    }

    /// A `YYYY-MM-DD` option.
    static func day(_ text: String?, option: String) throws -> CalendarDay? {
        guard let text else { return nil }
        guard let day = CalendarDay(text) else { throw ValidationError("\(option) must be a date YYYY-MM-DD, got '\(text.prefix(40))'") }
        return day
    }

    /// Current and longest streak of days with an entry (a session or a
    /// mood-log entry). A seam: the `progress` helper owns streaks; this
    /// counts the same "showed up" days until its computation is on main.
    func streak(through day: CalendarDay) -> StreakNumbers {
        let days = Set(entries.map(\.day) + moods.map(\.day)).filter { $0 <= day }
        var current = 0
        var d = days.contains(day) ? day : day.adding(days: -1)
        while days.contains(d) { current += 1; d = d.adding(days: -1) }
        var longest = 0, run = 0
        var previous: CalendarDay?
        for d in days.sorted() {
            run = previous.map { $0.adding(days: 1) == d } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = d
        }
        return StreakNumbers(current: current, longest: longest)
    }
}

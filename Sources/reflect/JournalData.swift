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
    /// The days the person showed up (`reflect progress`'s streak days).
    let showedUp: ShowedUpDays
    let today: CalendarDay

    init(store: Store, user: String, now: String?) throws {
        let stamps = try Timestamps(now: now)
        do {
            let clock = try PersonClock(store: store, user: user, stamps: stamps)
            entries = try store.journalEntries(user: user, rules: clock.settings.dayRules)
            moods = try store.moodDays(user: user)
            cravings = try store.cravingDays(user: user)
            showedUp = try store.showedUpDays(user: user)
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

    /// Current and longest streak through `day`, from the progress
    /// computation (``ShowedUpDays``, the days anything was logged: the same
    /// figures `reflect progress` shows). The one seam the journal's
    /// commands read streaks through; there is no second formula.
    func streak(through day: CalendarDay) -> StreakNumbers {
        StreakNumbers(current: showedUp.currentStreak(today: day), longest: showedUp.longestStreak(through: day))
    }
}

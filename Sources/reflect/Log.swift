import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log today's mood (or a given day's); logging again the same day edits the entry.")

    @Argument(help: "horrible, bad, average, good or great.")
    var mood: Mood

    @Option(help: "A short note.")
    var note: String?

    @Option(help: "The day, YYYY-MM-DD (default: today, your logical day: before your day boundary it is still yesterday).")
    var date: String?

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @Option(help: "Language of the line that confirms the entry (en, de, es, fr, ja, ko, pt-BR; default: en).")
    var locale: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let stamps = try Timestamps(now: now)
        let language = try contentOptions.personLanguage(locale)
        let store = try storeOptions.open()
        // Today is the person's logical day (time zone and day boundary from their settings).
        let today: CalendarDay
        do { today = try PersonClock(store: store, user: storeOptions.user, stamps: stamps).moment.day } catch { throw failStore(error) }
        let day = try date.map { try Log.day($0, today: today) } ?? today
        do {
            let outcome = try store.logMood(MoodLogRequest(user: storeOptions.user, day: day.description, mood: mood, note: note,
                                                           source: .log, at: stamps.stamp()))
            let entry = outcome.entry
            // The day had an entry, which this one replaced: even within the
            // same second as the first.
            let edited = outcome.replaced ? " " + language.string(.logUpdated) : ""
            let mood = language.moodName(entry.mood)
            print("\(entry.day): \(mood)\(entry.note.map { " — \($0)" } ?? "")\(edited)")
        } catch {
            throw failStore(error)
        }
    }

    /// The day `--date` names: a real date (`2026-13-45` is not one), and
    /// not after the person's logical day `today` (a mood is felt, not
    /// planned). Anything else is refused, saying what is expected.
    static func day(_ text: String, today: CalendarDay) throws -> CalendarDay {
        guard let day = CalendarDay(text) else {
            Terminal.write("error: --date '\(text.prefix(40))' is not a valid date; write the day as YYYY-MM-DD, e.g. \(today) [log.invalid_date]\n",
                           to: .err)
            throw ExitCode(1)
        }
        guard day <= today else {
            Terminal.write("error: --date \(day) is in the future: your day today is \(today) (by your time zone and day boundary); "
                           + "log today's mood or an earlier day's [log.future_date]\n", to: .err)
            throw ExitCode(1)
        }
        return day
    }
}

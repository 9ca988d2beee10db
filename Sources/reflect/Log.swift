import ArgumentParser
import Foundation
import ReflectCore
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

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let stamps = try Timestamps(now: now)
        let store = try storeOptions.open()
        do {
            // Today is the person's logical day (time zone and day boundary from their settings).
            let day: String
            if let date { day = date } else { day = try PersonClock(store: store, user: storeOptions.user, stamps: stamps).moment.day.description }
            let entry = try store.logMood(MoodLogRequest(user: storeOptions.user, day: day, mood: mood, note: note,
                                                         source: .log, at: stamps.stamp()))
            let edited = entry.createdAt != entry.updatedAt ? " (updated)" : ""
            print("\(entry.day): \(entry.mood.rawValue)\(entry.note.map { " — \($0)" } ?? "")\(edited)")
        } catch {
            throw failStore(error)
        }
    }
}

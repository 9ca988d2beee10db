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

    @Option(help: "The day, YYYY-MM-DD (default: today).")
    var date: String?

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let stamps = try Timestamps(now: now)
        let store = try storeOptions.open()
        let day = date ?? stamps.current.day
        do {
            let entry = try store.logMood(MoodLogRequest(user: storeOptions.user, day: day, mood: mood, note: note,
                                                         source: .log, at: stamps.stamp()))
            let edited = entry.createdAt != entry.updatedAt ? " (updated)" : ""
            print("\(entry.day): \(entry.mood.rawValue)\(entry.note.map { " — \($0)" } ?? "")\(edited)")
        } catch {
            throw failStore(error)
        }
    }
}

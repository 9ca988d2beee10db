import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

/// `reflect today`: the person's logical day and its phase at an instant.
struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Today at a glance: your logical day (after your day boundary) and its phase (day or evening).")

    enum Format: String, ExpressibleByArgument { case text, json }

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @Option(help: "text or json.")
    var format: Format = .text

    @OptionGroup var storeOptions: StoreOptions

    struct Output: Encodable {
        var day: String
        var phase: String
        var localTime: String
        var timeZone: String
        var dayBoundary: String

        enum CodingKeys: String, CodingKey {
            case day, phase
            case localTime = "local_time", timeZone = "time_zone", dayBoundary = "day_boundary"
        }
    }

    func run() throws {
        let stamps = try Timestamps(now: now)
        let store = try storeOptions.open(.readOnly)
        let clock: PersonClock
        do { clock = try PersonClock(store: store, user: storeOptions.user, stamps: stamps) } catch { throw failStore(error) }
        let m = clock.moment
        let out = Output(day: m.day.description, phase: m.phase.rawValue, localTime: m.clock.iso8601,
                         timeZone: clock.settings.timeZone.description, dayBoundary: clock.settings.dayBoundary.description)
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(out) + Data("\n".utf8))
        case .text:
            print("\(out.day) · \(m.phase == .day ? "day" : "evening") (local time \(m.time), day starts at \(out.dayBoundary))")
        }
    }
}

import Foundation
import Synchronization

/// The injected clock: the one instant a session treats as "now", with the
/// person's UTC offset, so morning/evening logic is testable at any hour.
/// Flows never see the real clock.
public struct FlowClock: Sendable, Equatable {
    public let date: Date
    public let utcOffsetSeconds: Int

    public init(date: Date, utcOffsetSeconds: Int) {
        self.date = date
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Parses `2026-11-22T08:30:00+01:00` or `...Z`. The offset is kept: it
    /// decides the local hour and day.
    public init?(iso8601 text: String) {
        if let (seconds, offset) = FlowClock.parseInternetTime(text) {
            self.init(date: Date(timeIntervalSince1970: TimeInterval(seconds)), utcOffsetSeconds: offset)
            return
        }
        guard let date = FlowClock.formatter.withLock({ $0.date(from: text) }) else { return nil }
        let offset: Int, m: Int
        if text.hasSuffix("Z") || text.hasSuffix("z") {
            offset = 0
            m = 0
        } else {
            let tail = text.suffix(6) // ±hh:mm
            guard tail.count == 6, let sign = tail.first, sign == "+" || sign == "-",
                  let h = Int(tail.dropFirst().prefix(2)), let minutes = Int(tail.suffix(2)) else { return nil }
            m = minutes
            offset = (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
        }
        // Foundation's parser is lenient where a time must be exact: it
        // takes offsets no time zone can have (`+99:00`, `+18:30`: writing
        // the clock out then stopped the process) and rolls impossible
        // fields over (February 30 read as March 2). Here (outside the
        // years 1600–9999, or an unusual form) only an offset Foundation's
        // formatter can write counts (under 15 hours: it stops the process
        // on more), and only a time that reads back exactly as written.
        guard abs(offset) < FlowClock.formatterOffsetLimit, m < 60, let zone = TimeZone(secondsFromGMT: offset) else { return nil }
        let back = FlowClock.formatter.withLock { f in
            f.timeZone = zone
            return f.string(from: date)
        }
        func local(_ s: String) -> Substring { s.hasSuffix("Z") || s.hasSuffix("z") ? s.dropLast() : s.dropLast(6) }
        guard local(back) == local(text) else { return nil }
        self.init(date: date, utcOffsetSeconds: offset)
    }

    /// The current real time in the machine's zone; only the CLI calls this.
    public static func system() -> FlowClock {
        let now = Date()
        return FlowClock(date: now, utcOffsetSeconds: TimeZone.current.secondsFromGMT(for: now))
    }

    /// ISO-8601 with the offset, second precision.
    public var iso8601: String {
        if let text = FlowClock.formatInternetTime(date, offset: utcOffsetSeconds) { return text }
        // Foundation's formatter stops the process on an offset of 15 hours
        // or more (`init(iso8601:)` takes up to ±18:00 within the years
        // 1600–9999, written above without it): such a clock outside those
        // years, or one built with an offset no zone can have, is written in UTC.
        let zone = abs(utcOffsetSeconds) < FlowClock.formatterOffsetLimit ? TimeZone(secondsFromGMT: utcOffsetSeconds) : nil
        return FlowClock.formatter.withLock { f in
            f.timeZone = zone ?? TimeZone(secondsFromGMT: 0)
            return f.string(from: date)
        }
    }

    /// Offsets from which Foundation's ISO-8601 formatter (ICU) stops the
    /// process instead of writing a time (15 hours; real zones end at 14).
    static let formatterOffsetLimit = 15 * 3600

    /// One formatter for every timestamp read and written (creating one
    /// costs far more than using it: an import of 100,000 answers spent most
    /// of its time there). Formatters are not thread-safe, hence the lock.
    private static let formatter: Mutex<ISO8601DateFormatter> = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return Mutex(f)
    }()

    /// Local calendar fields at the session's offset.
    public var local: LocalTime {
        if let fields = FlowClock.localFields(date, offset: utcOffsetSeconds) { return fields }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(secondsFromGMT: utcOffsetSeconds) ?? TimeZone(identifier: "UTC") ?? cal.timeZone
        let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        return LocalTime(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1,
                         hour: c.hour ?? 0, minute: c.minute ?? 0, weekday: c.weekday ?? 1)
    }
}

/// Calendar fields of an instant at a given offset. `weekday`: 1 = Sunday.
public struct LocalTime: Sendable, Equatable {
    public var year, month, day, hour, minute, weekday: Int
}

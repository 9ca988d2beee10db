/// A time of day on a local wall clock, `HH:MM` (24-hour): a day boundary,
/// a reminder time.
public struct ClockTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// 0–23.
    public let hour: Int
    /// 0–59.
    public let minute: Int

    /// Nil unless `hour` is 0–23 and `minute` 0–59.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// For constants known to be valid.
    init(valid hour: Int, _ minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// Parses `H:MM` or `HH:MM` (`04:00`, `9:30`, `21:00`); nil for
    /// anything else (`25:00`, `12:60`, `noon`, `4`).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    /// Minutes since midnight.
    public var minutesOfDay: Int { hour * 60 + minute }

    /// `HH:MM`.
    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    public static func < (a: ClockTime, b: ClockTime) -> Bool { a.minutesOfDay < b.minutesOfDay }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let t = ClockTime(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text.prefix(20))' is not a time HH:MM"))
        }
        self = t
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// The part of a person's logical day (docs/coach.md, "Logical day"):
/// `day` from the day boundary to 17:59, `evening` from 18:00 to the next
/// boundary (so 00:30 before a 04:00 boundary is still the evening).
public enum DayPhase: String, Sendable, Codable, CaseIterable {
    case day, evening

    /// The hour (local time) the evening starts.
    public static let eveningStartHour = 18

    /// The phase of a local wall-clock time, given the day boundary.
    public static func of(_ time: ClockTime, boundary: ClockTime) -> DayPhase {
        time.hour >= eveningStartHour || time < boundary ? .evening : .day
    }

    /// Reads the current names, and the four-part names snapshots written
    /// before the coach used (`morning`, `afternoon` → day; `evening`,
    /// `night` → evening), so an older save still opens.
    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        switch raw {
        case "day", "morning", "afternoon": self = .day
        case "evening", "night": self = .evening
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown day phase '\(raw.prefix(20))'"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

import Foundation

/// The zone a person's days are counted in: an IANA zone they chose
/// (`Europe/Berlin`), or, until they choose one, the UTC offset the instant
/// itself carries (`--now 2026-11-24T00:30:00+01:00`, or the device's
/// current offset as the app reports it). Never read from the machine by
/// the core.
public enum PersonTimeZone: Sendable, Hashable, CustomStringConvertible {
    /// The offset carried by the clock value (`FlowClock.utcOffsetSeconds`).
    case clockOffset
    /// An IANA time zone identifier, checked by ``named(_:)``.
    case zone(String)

    /// The zone for an IANA identifier (`Europe/Berlin`, `America/New_York`,
    /// `UTC`); nil for an unknown one.
    public static func named(_ identifier: String) -> PersonTimeZone? {
        guard !identifier.isEmpty, identifier.utf8.count <= 64, TimeZone(identifier: identifier) != nil,
              identifier == "UTC" || identifier == "GMT" || TimeZone.knownTimeZoneIdentifiers.contains(identifier) else { return nil }
        return .zone(identifier)
    }

    /// `Europe/Berlin`, or `auto` for ``clockOffset``.
    public var description: String {
        switch self {
        case .clockOffset: "auto"
        case .zone(let id): id
        }
    }

    /// The UTC offset at `clock`'s instant, in seconds.
    public func offset(at clock: FlowClock) -> Int {
        switch self {
        case .clockOffset: return clock.utcOffsetSeconds
        case .zone(let id): return TimeZone(identifier: id)?.secondsFromGMT(for: clock.date) ?? clock.utcOffsetSeconds
        }
    }

    /// `clock`'s instant, seen in this zone (same instant, its offset).
    public func localize(_ clock: FlowClock) -> FlowClock {
        FlowClock(date: clock.date, utcOffsetSeconds: offset(at: clock))
    }
}

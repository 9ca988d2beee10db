import Foundation
import ReflectCore

/// A stored instant (ISO-8601, in whatever offset it was written with) as
/// the person reads it: on their clock. Their time zone is the one in their
/// settings (`reflect settings set time_zone Europe/Berlin`), or, until they
/// choose one (`auto`), the zone of the device they read it on (`TZ`).
struct PersonTime {
    let zone: TimeZone

    init(settings: Settings) {
        switch settings.timeZone {
        case .zone(let id): zone = TimeZone(identifier: id) ?? .current
        case .clockOffset: zone = .current
        }
    }

    /// `2026-11-19 10:00` on the person's clock; a stamp that does not
    /// parse is shown as stored, cut to the minute.
    func minute(_ stamp: String) -> String {
        guard let stored = FlowClock(iso8601: stamp) else {
            return String(stamp.prefix(16)).replacingOccurrences(of: "T", with: " ")
        }
        let t = FlowClock(date: stored.date, utcOffsetSeconds: zone.secondsFromGMT(for: stored.date)).local
        return FlowClock.zeroPadded(t.year, 4) + "-" + FlowClock.zeroPadded(t.month, 2) + "-" + FlowClock.zeroPadded(t.day, 2)
            + " " + FlowClock.zeroPadded(t.hour, 2) + ":" + FlowClock.zeroPadded(t.minute, 2)
    }
}

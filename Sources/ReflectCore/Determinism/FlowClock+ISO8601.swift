import Foundation

// The ISO-8601 text FlowClock reads and writes, by arithmetic on the
// characters (CalendarDay's civil-date formulas). Foundation's
// ISO8601DateFormatter on Linux clones an ICU formatter on every call:
// about a million instructions per timestamp, nine tenths of an import of
// 10,000 answers. The formatter stays the reference: anything this fast
// path does not take (another shape, an out-of-range field) goes to it,
// so what is accepted, and how it reads, is unchanged.
extension FlowClock {
    /// `YYYY-MM-DDThh:mm:ss` then `Z` or `±hh:mm`, every field in range
    /// (years from 1600: before that, ICU's calendar is partly Julian):
    /// seconds since 1970 and the offset in seconds; nil for anything else.
    static func parseInternetTime(_ text: String) -> (seconds: Int, offset: Int)? {
        var text = text
        return text.withUTF8 { b -> (Int, Int)? in
            guard b.count == 20 || b.count == 25 else { return nil }
            func number(_ from: Int, _ count: Int) -> Int? {
                var v = 0
                for i in from..<(from + count) {
                    let c = b[i]
                    guard c >= 48, c <= 57 else { return nil }
                    v = v * 10 + Int(c - 48)
                }
                return v
            }
            guard b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58, // - - T : :
                  let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                  let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                  hour < 24, minute < 60, second < 60,
                  year >= 1600, let date = CalendarDay(year: year, month: month, day: day) else { return nil }
            let offset: Int
            if b.count == 20 {
                guard b[19] == 90 else { return nil } // Z
                offset = 0
            } else {
                guard b[19] == 43 || b[19] == 45, b[22] == 58, // + - :
                      let oh = number(20, 2), let om = number(23, 2), oh < 18 || (oh == 18 && om == 0), om < 60 else { return nil }
                offset = (b[19] == 45 ? -1 : 1) * (oh * 3600 + om * 60)
            }
            return (date.ordinal * 86_400 + hour * 3600 + minute * 60 + second - offset, offset)
        }
    }

    /// Calendar fields of the instant at `offset` (as a Gregorian calendar
    /// in that zone gives them); nil where ``formatInternetTime(_:offset:)``
    /// is nil.
    static func localFields(_ date: Date, offset: Int) -> LocalTime? {
        guard let (day, second) = localDayAndSecond(date, offset: offset) else { return nil }
        return LocalTime(year: day.year, month: day.month, day: day.day, hour: second / 3600, minute: second / 60 % 60, weekday: day.weekday)
    }

    private static func localDayAndSecond(_ date: Date, offset: Int) -> (CalendarDay, Int)? {
        guard abs(offset) <= 18 * 3600, offset % 60 == 0 else { return nil }
        let interval = date.timeIntervalSince1970.rounded(.down)
        guard interval.isFinite, abs(interval) < 1e12 else { return nil }
        let local = Int(interval) + offset
        let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
        let day = CalendarDay(ordinal: days)
        guard (1600...9999).contains(day.year) else { return nil }
        return (day, local - days * 86_400)
    }

    /// The instant at its offset, `YYYY-MM-DDThh:mm:ss` then `Z` or
    /// `±hh:mm`, whole seconds (rounded down, as the formatter does); nil
    /// outside years 1600…9999 or offsets beyond ±18 h (the formatter's case).
    static func formatInternetTime(_ date: Date, offset: Int) -> String? {
        guard let (day, secondOfDay) = localDayAndSecond(date, offset: offset) else { return nil }
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var out = day.description + "T" + two(secondOfDay / 3600) + ":" + two(secondOfDay / 60 % 60) + ":" + two(secondOfDay % 60)
        if offset == 0 {
            out += "Z"
        } else {
            let a = abs(offset)
            out += (offset < 0 ? "-" : "+") + two(a / 3600) + ":" + two(a / 60 % 60)
        }
        return out
    }
}

import Foundation

/// Writes reminders as an iCalendar file (RFC 5545): one VEVENT per
/// reminder, repeating daily (RRULE:FREQ=DAILY) or weekly on its day
/// (RRULE:FREQ=WEEKLY;BYDAY=SU, starting on the first such day) at a floating local time
/// (the person's wall clock wherever they are), each with a VALARM at the
/// start. Lines end in CRLF and are folded at 75 octets; text values are
/// escaped. UIDs are stable per person and reminder, so importing a new
/// schedule replaces the old events.
public enum ICalendar {
    /// One event's text.
    public struct Event: Sendable, Equatable {
        public var uid: String
        public var start: ClockTime
        public var title: String
        public var body: String
        public var url: String
        /// Nil: daily; else the weekday it repeats on (1 = Sunday … 7 = Saturday).
        public var weekday: Int?

        public init(uid: String, start: ClockTime, title: String, body: String, url: String, weekday: Int? = nil) {
            self.uid = uid
            self.start = start
            self.title = title
            self.body = body
            self.url = url
            self.weekday = weekday
        }
    }

    /// The calendar. `firstDay` is the first occurrence's date; `stamp` the
    /// creation instant (DTSTAMP, UTC).
    public static func calendar(_ events: [Event], firstDay: CalendarDay, stamp: FlowClock, name: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Reflect//Coach reminders//EN", "CALSCALE:GREGORIAN",
                     "METHOD:PUBLISH", "X-WR-CALNAME:" + escape(name)]
        for e in events {
            let weekly = e.weekday.flatMap { WeeklyTime(weekday: $0, time: e.start) }
            let day = weekly?.firstDay(onOrAfter: firstDay) ?? firstDay
            let start = day.description.replacingOccurrences(of: "-", with: "") + "T" + two(e.start.hour) + two(e.start.minute) + "00"
            lines += [
                "BEGIN:VEVENT",
                "UID:" + escape(e.uid),
                "DTSTAMP:" + utc(stamp),
                "DTSTART:" + start,
                "DURATION:PT5M",
                weekly.map { "RRULE:FREQ=WEEKLY;BYDAY=" + $0.calendarDay } ?? "RRULE:FREQ=DAILY",
                "SUMMARY:" + escape(e.title),
                "DESCRIPTION:" + escape(e.body + "\n" + e.url),
                "URL:" + e.url,
                "TRANSP:TRANSPARENT",
                "BEGIN:VALARM",
                "ACTION:DISPLAY",
                "DESCRIPTION:" + escape(e.body),
                "TRIGGER:PT0M",
                "END:VALARM",
                "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// TEXT escaping (RFC 5545 3.3.11): backslash, semicolon, comma, newline.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": break
            default: out.append(c)
            }
        }
        return out
    }

    /// Folds a content line at 75 octets (RFC 5545 3.1), never inside a
    /// UTF-8 sequence: continuation lines start with one space.
    static func fold(_ line: String) -> String {
        var parts: [String] = []
        var current = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let n = String(scalar).utf8.count
            let limit = parts.isEmpty ? 75 : 74
            if octets + n > limit {
                parts.append(current)
                current = ""
                octets = 0
            }
            current.unicodeScalars.append(scalar)
            octets += n
        }
        parts.append(current)
        return parts.joined(separator: "\r\n ")
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    private static func utc(_ clock: FlowClock) -> String {
        let t = FlowClock(date: clock.date, utcOffsetSeconds: 0).local
        return String(t.year) + two(t.month) + two(t.day) + "T" + two(t.hour) + two(t.minute) + "00Z"
    }
}

/// A time of day on one weekday, repeating every week (the weekly parts
/// letter's reminder): `sun 19:00`.
///
/// Weekdays are numbered as ``CalendarDay/weekday`` (1 = Sunday … 7 =
/// Saturday) and written as their first three English letters, the form
/// settings store and calendars read (`BYDAY=SU`).
public struct WeeklyTime: Sendable, Hashable, CustomStringConvertible {
    /// 1 = Sunday … 7 = Saturday.
    public let weekday: Int
    public let time: ClockTime

    /// Nil unless `weekday` is 1–7.
    public init?(weekday: Int, time: ClockTime) {
        guard (1...7).contains(weekday) else { return nil }
        self.weekday = weekday
        self.time = time
    }

    static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let fullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// Parses `DAY HH:MM`: the day as three letters or in full, any case
    /// (`sun 19:00`, `Sunday 9:30`); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, let time = ClockTime(parsing: String(parts[1])) else { return nil }
        let day = parts[0].lowercased()
        guard let index = WeeklyTime.names.firstIndex(of: day) ?? WeeklyTime.fullNames.firstIndex(of: day) else { return nil }
        self.init(weekday: index + 1, time: time)
    }

    /// `sun 19:00`.
    public var description: String { WeeklyTime.names[weekday - 1] + " " + time.description }

    /// The iCalendar day (`SU`, `MO`, …; RFC 5545 3.3.10).
    public var calendarDay: String { String(WeeklyTime.names[weekday - 1].prefix(2)).uppercased() }

    /// The first day on or after `day` that falls on this weekday.
    public func firstDay(onOrAfter day: CalendarDay) -> CalendarDay {
        day.adding(days: (weekday - day.weekday + 7) % 7)
    }
}

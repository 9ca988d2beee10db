/// Where an instant falls in a person's days: their logical day, the
/// phase of it, and the local wall-clock time. Pure: the zone and the day
/// boundary are inputs (the person's settings), never the machine's.
public struct DayMoment: Sendable, Equatable {
    /// The logical day: the local date, minus one when the local time is
    /// before the boundary (00:30 on Tuesday belongs to Monday).
    public let day: CalendarDay
    public let phase: DayPhase
    /// The local wall-clock time at the person's zone.
    public let time: ClockTime
    /// The local calendar date (not shifted by the boundary).
    public let calendarDate: CalendarDay
    /// The instant, with the person's UTC offset.
    public let clock: FlowClock
}

/// The rules that turn an instant into a ``DayMoment``.
public struct DayRules: Sendable, Equatable {
    public var timeZone: PersonTimeZone
    public var boundary: ClockTime

    /// The default boundary: 04:00.
    public static let defaultBoundary = ClockTime(valid: 4, 0)

    public init(timeZone: PersonTimeZone = .clockOffset, boundary: ClockTime = DayRules.defaultBoundary) {
        self.timeZone = timeZone
        self.boundary = boundary
    }

    /// Where `clock`'s instant falls.
    public func moment(_ clock: FlowClock) -> DayMoment {
        let local = timeZone.localize(clock)
        let t = local.local
        let date = CalendarDay(year: t.year, month: t.month, day: t.day) ?? CalendarDay(ordinal: 0)
        let time = ClockTime(hour: t.hour, minute: t.minute) ?? boundary
        let day = time < boundary ? date.adding(days: -1) : date
        return DayMoment(day: day, phase: DayPhase.of(time, boundary: boundary), time: time, calendarDate: date, clock: local)
    }
}

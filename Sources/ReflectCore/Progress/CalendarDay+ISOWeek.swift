extension CalendarDay {
    /// The ISO 8601 week this day belongs to, e.g. `2026-W48` (weeks start
    /// on Monday; week 1 holds the year's first Thursday): what
    /// `weekly_consistency:<ISO week>` is keyed by.
    public var isoWeek: String {
        let isoWeekday = (weekday + 5) % 7 + 1 // Monday = 1 … Sunday = 7
        let thursday = adding(days: 4 - isoWeekday)
        guard let jan1 = CalendarDay(year: thursday.year, month: 1, day: 1) else { return "" }
        let week = (thursday.ordinal - jan1.ordinal) / 7 + 1
        return "\(thursday.year)-W\(week < 10 ? "0" : "")\(week)"
    }

    /// The Monday of this day's ISO week.
    public var isoWeekStart: CalendarDay {
        adding(days: 1 - ((weekday + 5) % 7 + 1))
    }
}

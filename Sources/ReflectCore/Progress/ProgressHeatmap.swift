/// The 12-week heatmap: calendar weeks (starting on the locale's first
/// weekday), oldest first, the last one holding today.
public struct ProgressHeatmap: Sendable, Equatable, Codable {
    public struct Cell: Sendable, Equatable, Codable {
        public var day: CalendarDay
        /// Something was logged that day.
        public var counted: Bool
        /// After today (drawn empty).
        public var future: Bool
    }

    /// 1 = Sunday, 2 = Monday.
    public var weekStart: Int
    /// `weeks` rows of 7 cells.
    public var weeks: [[Cell]]

    public init(days: ShowedUpDays, today: CalendarDay, weeks count: Int = 12, weekStart: Int) {
        self.weekStart = weekStart
        let intoWeek = (today.weekday - weekStart + 7) % 7
        let firstDay = today.adding(days: -intoWeek - 7 * (count - 1))
        weeks = (0..<count).map { w in
            (0..<7).map { d in
                let day = firstDay.adding(days: w * 7 + d)
                return Cell(day: day, counted: day <= today && days.contains(day), future: day > today)
            }
        }
    }

    /// The first weekday of the locale's calendar weeks (1 = Sunday,
    /// 2 = Monday), as CLDR says (``FirstWeekday``).
    public static func weekStart(forLocale tag: String) -> Int {
        FirstWeekday.of(locale: tag)
    }
}

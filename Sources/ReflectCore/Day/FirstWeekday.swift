import Foundation

/// The first day of a calendar week in a person's locale, as CLDR says
/// (Foundation's `Calendar` for that locale, never a table of our own):
/// Sunday in the United States, Brazil, Japan and Korea (`en`, `en-US`,
/// `pt-BR`, `ja`, `ko`), Monday in Germany, Spain, France or Britain (`de`,
/// `es`, `fr`, `en-GB`). A tag with a region follows the region (`en-GB`:
/// Monday); any spelling `Locale` reads works (`de_DE`, `pt-BR`).
public enum FirstWeekday {
    /// 1 = Sunday, 2 = Monday … 7 = Saturday (as ``CalendarDay/weekday``).
    public static func of(locale tag: String) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: tag)
        return (1...7).contains(calendar.firstWeekday) ? calendar.firstWeekday : 2
    }

    /// The days of the week in the locale's order, as weekday numbers
    /// (1 = Sunday): `[1, 2, … 7]` when weeks start on Sunday.
    public static func order(from first: Int) -> [Int] {
        (0..<7).map { (first - 1 + $0) % 7 + 1 }
    }

    /// How many days `day` is into its week (0 on the first weekday).
    public static func offset(of day: CalendarDay, first: Int) -> Int {
        (day.weekday - first + 7) % 7
    }
}

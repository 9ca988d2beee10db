/// `reflect report`: several weeks at once, for the person or to share with
/// a therapist. A pure function of the entries and the period: overview
/// figures (``Insights``), one summary per week, and one tint per day for
/// the pictures (mood calendar, activity heatmap).
public struct JournalReport: Sendable, Equatable, Encodable {
    public var from: CalendarDay
    public var to: CalendarDay
    public var overview: InsightsReport
    /// Oldest first.
    public var weeks: [WeekSummary]
    /// Every day of the period, oldest first.
    public var days: [DaySummary]

    public struct WeekSummary: Sendable, Equatable, Encodable {
        public var start: CalendarDay
        public var entries: Int
        public var checkIns: Int
        /// Mean check-in mood (1–10) and sleep hours, one decimal; nil without check-ins.
        public var mood: Double?
        public var sleepHours: Double?
        /// The week's top themes (as in the weekly letter).
        public var themes: [Theme]
        public var moments: Int

        enum CodingKeys: String, CodingKey {
            case start, entries, mood, themes, moments
            case checkIns = "check_ins", sleepHours = "sleep_hours"
        }
    }

    public struct DaySummary: Sendable, Equatable, Encodable {
        public var day: CalendarDay
        /// Sessions and mood-log entries that day.
        public var entries: Int
        /// The day's mood on a 1–10 scale: the last check-in's mood, else
        /// the mood log's (horrible 1 … great 5) doubled; nil when neither.
        public var mood: Double?
    }

    /// The `weeks` ISO weeks ending with the week of `through`.
    public static func compose(entries: [JournalEntry], moods: [MoodDay], cravings: [CravingDay] = [], weeks: Int,
                               through: CalendarDay, streak: StreakNumbers? = nil) -> JournalReport {
        let lastMonday = Insights.weekStart(through)
        let from = lastMonday.adding(days: -7 * (max(weeks, 1) - 1)), to = lastMonday.adding(days: 6)
        let overview = Insights.compute(entries: entries, moods: moods, cravings: cravings, from: from, to: to, streak: streak)
        let inPeriod = entries.filter { $0.day >= from && $0.day <= to }
        let checkIns = Insights.dailyCheckIns(inPeriod.filter { $0.flow == JournalFlows.checkIn }
            .sorted { ($0.day, $0.startedAt, $0.sessionID) < ($1.day, $1.startedAt, $1.sessionID) })
        var summaries: [WeekSummary] = []
        var monday = from
        while monday <= to {
            let sunday = monday.adding(days: 6)
            let week = inPeriod.filter { $0.day >= monday && $0.day <= sunday }
            let days = checkIns.filter { $0.key >= monday && $0.key <= sunday }.map(\.value)
            let letter = WeeklyLetter.compose(week: monday, entries: week, moods: moods)
            summaries.append(WeekSummary(start: monday, entries: week.count, checkIns: days.count,
                                         mood: Insights.mean(days.compactMap { $0.number("mood") }).map(Insights.round1),
                                         sleepHours: Insights.mean(days.compactMap { $0.number("sleep_hours") }).map(Insights.round1),
                                         themes: letter.themes.map(\.theme),
                                         moments: week.filter { $0.flow == JournalFlows.moment }.count))
            monday = monday.adding(days: 7)
        }
        var counts: [CalendarDay: Int] = [:]
        for e in inPeriod { counts[e.day, default: 0] += 1 }
        var logged: [CalendarDay: Mood] = [:]
        for m in moods where m.day >= from && m.day <= to {
            counts[m.day, default: 0] += 1
            logged[m.day] = m.mood
        }
        var days: [DaySummary] = []
        var d = from
        while d <= to {
            let mood = checkIns[d]?.number("mood") ?? logged[d].map { Double(($0.score + 1) * 2) }
            days.append(DaySummary(day: d, entries: counts[d] ?? 0, mood: mood))
            d = d.adding(days: 1)
        }
        return JournalReport(from: from, to: to, overview: overview, weeks: summaries, days: days)
    }
}

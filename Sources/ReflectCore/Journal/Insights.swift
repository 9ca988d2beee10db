/// `reflect insights`: deterministic figures over a period, computed from the
/// journal's entries, the mood log and the craving notes. Pure: the same
/// input gives the same report. Every figure has a documented formula and a
/// minimum of data below which it is left out (nil or absent), never shown
/// on too little (docs/journal.md, "Insights").
public enum Insights {
    /// The minimums, named once (docs/journal.md lists them).
    public enum Minimum {
        /// Mood-log entries before the mean is shown.
        public static let moodEntries = 3
        /// Mood-log entries on a weekday before its mean is shown.
        public static let weekdayEntries = 2
        /// Weekdays with a mean before a best and worst are named.
        public static let weekdaysForBestWorst = 3
        /// Check-ins in a 7-day window before its averages are shown.
        public static let checkInsPerWindow = 3
        /// Days with, and days without, a theme before tag × mood is shown.
        public static let daysPerSide = 5
        /// Sessions before an intensity change is shown.
        public static let sessionsPerChange = 3
    }

    /// The report for `from … to` (inclusive). `streak` comes from the
    /// progress computation (nil: not shown).
    public static func compute(entries all: [JournalEntry], moods allMoods: [MoodDay], cravings allCravings: [CravingDay] = [],
                               from: CalendarDay, to: CalendarDay, streak: StreakNumbers? = nil) -> InsightsReport {
        let entries = all.filter { $0.day >= from && $0.day <= to }
            .sorted { ($0.day, $0.startedAt, $0.sessionID) < ($1.day, $1.startedAt, $1.sessionID) }
        let moods = allMoods.filter { $0.day >= from && $0.day <= to }
        let checkIns = entries.filter { $0.flow == JournalFlows.checkIn && $0.answers["mood"] != nil }
        return InsightsReport(from: from, to: to, moodLog: moodLog(moods), streak: streak,
                              checkIns: checkInFigures(checkIns, from: from, to: to),
                              themes: themeMood(entries, checkIns),
                              distortionsByWeek: weekly(entries.flatMap { e in e.distortions.map { (e.day, $0.rawValue) } }),
                              intensityByDistortion: intensityByDistortion(entries),
                              intensityByFlow: intensityByFlow(entries),
                              cravingsByWeek: weekly(allCravings.filter { $0.day >= from && $0.day <= to }.map { ($0.day, $0.type) }))
    }

    /// One decimal, half away from zero (how every mean is reported).
    static func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }

    static func mean(_ xs: [Double]) -> Double? { xs.isEmpty ? nil : xs.reduce(0, +) / Double(xs.count) }

    /// The Monday of the ISO week `day` is in.
    public static func weekStart(_ day: CalendarDay) -> CalendarDay {
        day.adding(days: -((day.weekday + 5) % 7))
    }

    static func moodLog(_ moods: [MoodDay]) -> MoodLogFigures {
        var distribution: [String: Int] = [:]
        for m in Mood.allCases { distribution[m.rawValue] = 0 }
        for m in moods { distribution[m.mood.rawValue, default: 0] += 1 }
        let scores = moods.map { Double($0.mood.score + 1) }
        var weekdays: [WeekdayMean] = []
        for w in 1...7 {
            let xs = moods.filter { $0.day.weekday == w }.map { Double($0.mood.score + 1) }
            if xs.count >= Minimum.weekdayEntries, let m = mean(xs) { weekdays.append(WeekdayMean(weekday: w, mean: round1(m), entries: xs.count)) }
        }
        var best: Int?, worst: Int?
        if weekdays.count >= Minimum.weekdaysForBestWorst {
            // Ties: the earlier weekday (Monday first) for both.
            let ordered = weekdays.sorted { ($0.weekday + 5) % 7 < ($1.weekday + 5) % 7 }
            let top = ordered.max { a, b in a.mean < b.mean || (a.mean == b.mean && (a.weekday + 5) % 7 > (b.weekday + 5) % 7) }
            let low = ordered.min { a, b in a.mean < b.mean || (a.mean == b.mean && (a.weekday + 5) % 7 < (b.weekday + 5) % 7) }
            if let top, let low, top.mean > low.mean { best = top.weekday; worst = low.weekday }
        }
        return MoodLogFigures(entries: moods.count, distribution: distribution,
                              mean: scores.count >= Minimum.moodEntries ? mean(scores).map(round1) : nil,
                              weekdays: weekdays, bestWeekday: best, worstWeekday: worst)
    }

    /// The last check-in of each day (an edited day counts once).
    static func dailyCheckIns(_ checkIns: [JournalEntry]) -> [CalendarDay: JournalEntry] {
        var byDay: [CalendarDay: JournalEntry] = [:]
        for e in checkIns { byDay[e.day] = e } // sorted by time: the last wins
        return byDay
    }

    static func averages(_ days: [JournalEntry], start: CalendarDay, end: CalendarDay) -> MetricAverages? {
        guard days.count >= Minimum.checkInsPerWindow else { return nil }
        func avg(_ step: StepID) -> Double? { mean(days.compactMap { $0.number(step) }).map(round1) }
        return MetricAverages(start: start, end: end, checkIns: days.count, mood: avg("mood"), energy: avg("energy"),
                              stress: avg("stress"), sleepHours: avg("sleep_hours"), sleepQuality: avg("sleep_quality"))
    }

    static func checkInFigures(_ checkIns: [JournalEntry], from: CalendarDay, to: CalendarDay) -> CheckInFigures {
        let byDay = dailyCheckIns(checkIns)
        func window(_ end: CalendarDay) -> MetricAverages? {
            let start = end.adding(days: -6)
            return averages(byDay.filter { $0.key >= start && $0.key <= end }.sorted { $0.key < $1.key }.map(\.value), start: start, end: end)
        }
        var weekly: [MetricAverages] = []
        var monday = weekStart(from)
        while monday <= to {
            let sunday = monday.adding(days: 6)
            let days = byDay.filter { $0.key >= monday && $0.key <= sunday }.sorted { $0.key < $1.key }.map(\.value)
            if let a = averages(days, start: monday, end: sunday) { weekly.append(a) }
            monday = monday.adding(days: 7)
        }
        return CheckInFigures(checkIns: checkIns.count, days: byDay.count, lastSevenDays: window(to),
                              sevenDaysBefore: window(to.adding(days: -7)), weekly: weekly)
    }

    /// Mean check-in mood on days whose entries mention a theme, and on
    /// check-in days that do not.
    static func themeMood(_ entries: [JournalEntry], _ checkIns: [JournalEntry]) -> [ThemeMood] {
        var dayThemes: [CalendarDay: Set<Theme>] = [:]
        for e in entries { dayThemes[e.day, default: []].formUnion(e.allThemes) }
        let moodByDay = dailyCheckIns(checkIns).compactMapValues { $0.number("mood") }
        var out: [ThemeMood] = []
        for theme in Theme.allCases {
            var with: [Double] = [], without: [Double] = []
            for (day, mood) in moodByDay.sorted(by: { $0.key < $1.key }) {
                if dayThemes[day]?.contains(theme) == true { with.append(mood) } else { without.append(mood) }
            }
            guard with.count >= Minimum.daysPerSide, without.count >= Minimum.daysPerSide,
                  let a = mean(with), let b = mean(without) else { continue }
            out.append(ThemeMood(theme: theme, daysWith: with.count, daysWithout: without.count, moodWith: round1(a),
                                 moodWithout: round1(b), difference: round1(a - b)))
        }
        return out
    }

    static func weekly(_ items: [(CalendarDay, String)]) -> [WeekCount] {
        var weeks: [CalendarDay: [String: Int]] = [:]
        for (day, key) in items { weeks[weekStart(day), default: [:]][key, default: 0] += 1 }
        return weeks.sorted { $0.key < $1.key }.map { WeekCount(week: $0.key, counts: $0.value) }
    }

    static func change(_ key: String, _ sessions: [JournalEntry]) -> IntensityChange? {
        let deltas = sessions.compactMap { e in e.pre.flatMap { p in e.post.map { Double($0 - p) } } }
        guard deltas.count >= Minimum.sessionsPerChange, let m = mean(deltas) else { return nil }
        return IntensityChange(key: key, sessions: deltas.count, meanChange: round1(m))
    }

    static func intensityByDistortion(_ entries: [JournalEntry]) -> [IntensityChange] {
        DistortionType.allCases.compactMap { t in change(t.rawValue, entries.filter { $0.distortions.contains(t) }) }
    }

    /// Per flow family (`reflection`, `journal`, …: the part of the flow id
    /// before the first dot).
    static func intensityByFlow(_ entries: [JournalEntry]) -> [IntensityChange] {
        let families = Set(entries.map { String($0.flow.prefix { $0 != "." }) }).sorted()
        return families.compactMap { f in change(f, entries.filter { $0.flow.prefix { $0 != "." } == f }) }
    }
}

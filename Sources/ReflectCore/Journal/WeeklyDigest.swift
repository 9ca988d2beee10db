/// `reflect digest`: one week in brief, from the insights' figures and the
/// weekly letter, template-based (no text generation). A headline, a
/// highlight, an intention for next week, and the figures they rest on.
/// Pure: the same entries, mood log, showed-up days and week give the same
/// digest, however often and whenever it is asked for (docs/journal.md,
/// "The weekly digest"). A figure below its minimum of data is left out.
public struct WeeklyDigest: Sendable, Equatable, Encodable {
    /// Monday and Sunday of the week.
    public var start: CalendarDay
    public var end: CalendarDay
    /// Sessions, and mood-log entries, of the week.
    public var entries: Int
    public var moodEntries: Int
    /// Days of the week the person showed up (progress), and the streak as
    /// of the week's last day (or today, while the week is not over).
    public var daysShowedUp: Int
    public var streak: StreakNumbers?
    /// Days of the week with a check-in.
    public var checkInDays: Int
    /// This week's and last week's check-in averages (a day's last
    /// check-in; nil below ``Insights/Minimum/checkInsPerWindow`` days).
    public var checkIns: MetricAverages?
    public var previousCheckIns: MetricAverages?
    public var headline: Headline
    public var highlight: Highlight?
    public var intention: Intention
    /// The strongest theme–mood association over the 12 weeks ending with
    /// this one (largest |difference|; ties in ``Theme`` order), with
    /// insights' minimum of days on both sides. An association, not a cause.
    public var association: ThemeMood?

    enum CodingKeys: String, CodingKey {
        case start, end, entries, streak, headline, highlight, intention, association
        case moodEntries = "mood_entries", daysShowedUp = "days_showed_up", checkInDays = "check_in_days"
        case checkIns = "check_ins", previousCheckIns = "previous_check_ins"
    }

    /// No sessions and no mood entries this week.
    public var isEmpty: Bool { WeeklyLetter.isEmptyWeek(sessions: entries, moods: moodEntries) }

    /// Days with a mood before a best day is named.
    public static let minimumMoodDays = 2
    /// Below this change (either way) the headline says "about the same".
    public static let sameWithin = 0.5
    /// A highlight's words are cut to this many characters (then "…").
    public static let maxWords = 80

    public struct Headline: Sendable, Equatable, Encodable {
        public enum Kind: String, Sendable, Encodable {
            /// Nothing this week.
            case empty
            /// Mean check-in mood this week and its change from last week
            /// (both weeks with enough check-ins).
            case moodChange = "mood_change"
            /// Mean check-in mood this week (enough check-ins this week only).
            case mood
            /// Too few check-ins for a mean: entries and days.
            case entries
        }
        public var kind: Kind
        public var mood: Double?
        /// This week's mean minus last week's, one decimal.
        public var change: Double?
        public var checkIns: Int?
        public var entries: Int?
        public var days: Int?

        enum CodingKeys: String, CodingKey {
            case kind, mood, change, entries, days
            case checkIns = "check_ins"
        }
    }

    public struct Highlight: Sendable, Equatable, Encodable {
        public enum Kind: String, Sendable, Encodable {
            /// The day with the highest mood (see ``WeeklyDigest/compose``).
            case bestDay = "best_day"
            /// No best day: the week's most intense moment.
            case moment
        }
        public var kind: Kind
        public var day: CalendarDay
        /// 1 = Sunday … 7 = Saturday.
        public var weekday: Int
        /// The day's mood on the 1–10 scale (best day only).
        public var mood: Double?
        /// The person's own words from that day (or the moment's quote).
        public var words: String?
    }

    public struct Intention: Sendable, Equatable, Encodable {
        public enum Kind: String, Sendable, Encodable {
            /// The week's latest "next step" answer (the letter's commitment).
            case commitment
            /// No next step: notice what helps with the week's top theme.
            case theme
            /// Entries but no theme and no next step.
            case gentle
            /// An empty week.
            case begin
        }
        public var kind: Kind
        public var text: String?
        public var theme: Theme?
    }

    /// The digest of the ISO week containing `day`. `streak` and
    /// `daysShowedUp` come from the progress computation (the CLI reads
    /// them as of ``streakDay(week:today:)``); nil: not shown.
    public static func compose(week day: CalendarDay, entries all: [JournalEntry], moods: [MoodDay], streak: StreakNumbers?,
                               daysShowedUp: Int) -> WeeklyDigest {
        let start = Insights.weekStart(day), end = start.adding(days: 6)
        let entries = all.filter { $0.day >= start && $0.day <= end }
            .sorted { ($0.day, $0.startedAt, $0.sessionID) < ($1.day, $1.startedAt, $1.sessionID) }
        let weekMoods = moods.filter { $0.day >= start && $0.day <= end }
        var digest = WeeklyDigest(start: start, end: end, entries: entries.count, moodEntries: weekMoods.count,
                                  daysShowedUp: daysShowedUp, streak: streak, checkInDays: 0,
                                  checkIns: nil, previousCheckIns: nil, headline: Headline(kind: .empty),
                                  highlight: nil, intention: Intention(kind: .begin), association: nil)
        guard !digest.isEmpty else { return digest }

        // Figures: the same formulas as `reflect insights` and the report.
        let checkIns = Insights.dailyCheckIns(all.filter { $0.flow == JournalFlows.checkIn && $0.answers["mood"] != nil }
            .sorted { ($0.day, $0.startedAt, $0.sessionID) < ($1.day, $1.startedAt, $1.sessionID) })
        func week(_ monday: CalendarDay) -> MetricAverages? {
            let sunday = monday.adding(days: 6)
            let days = checkIns.filter { $0.key >= monday && $0.key <= sunday }.sorted { $0.key < $1.key }.map(\.value)
            return Insights.averages(days, start: monday, end: sunday)
        }
        digest.checkInDays = checkIns.keys.filter { $0 >= start && $0 <= end }.count
        digest.checkIns = week(start)
        digest.previousCheckIns = week(start.adding(days: -7))

        // Headline.
        let days = Set(entries.map(\.day) + weekMoods.map(\.day)).count
        if let mood = digest.checkIns?.mood {
            if let before = digest.previousCheckIns?.mood {
                digest.headline = Headline(kind: .moodChange, mood: mood, change: Insights.round1(mood - before),
                                           checkIns: digest.checkIns?.checkIns)
            } else {
                digest.headline = Headline(kind: .mood, mood: mood, checkIns: digest.checkIns?.checkIns)
            }
        } else {
            digest.headline = Headline(kind: .entries, entries: entries.count + weekMoods.count, days: days)
        }

        // Highlight: the best day by mood (the report's day mood: the last
        // check-in's, else the mood log's doubled), ties to the later day;
        // else the letter's first moment.
        let report = JournalReport.compose(entries: entries, moods: weekMoods, weeks: 1, through: start)
        let moodDays = report.days.compactMap { d in d.mood.map { (d.day, $0) } }
        let letter = WeeklyLetter.compose(week: start, entries: entries, moods: weekMoods)
        if moodDays.count >= minimumMoodDays, let high = moodDays.map(\.1).max(), let low = moodDays.map(\.1).min(), high > low,
           let best = moodDays.last(where: { $0.1 == high }) {
            digest.highlight = Highlight(kind: .bestDay, day: best.0, weekday: best.0.weekday, mood: best.1,
                                         words: words(on: best.0, entries, moods: weekMoods))
        } else if let moment = letter.moments.first {
            digest.highlight = Highlight(kind: .moment, day: moment.day, weekday: moment.day.weekday, words: cut(moment.quote))
        }

        // Intention.
        if let commitment = letter.commitment {
            digest.intention = Intention(kind: .commitment, text: cut(commitment))
        } else if let top = letter.themes.first {
            digest.intention = Intention(kind: .theme, theme: top.theme)
        } else {
            digest.intention = Intention(kind: .gentle)
        }

        // The strongest association over the 12 weeks ending with this one.
        let themes = Insights.themeMood(all.filter { $0.day >= start.adding(days: -77) && $0.day <= end },
                                        Array(checkIns.filter { $0.key >= start.adding(days: -77) && $0.key <= end }.values)
                                            .sorted { ($0.day, $0.startedAt, $0.sessionID) < ($1.day, $1.startedAt, $1.sessionID) })
        digest.association = themes.max { a, b in
            abs(a.difference) < abs(b.difference) || (abs(a.difference) == abs(b.difference) && a.theme > b.theme)
        }
        return digest
    }

    /// The day a week's streak is read on: its Sunday, or `today` while
    /// the week is not over (so a past week's digest never changes).
    public static func streakDay(week day: CalendarDay, today: CalendarDay) -> CalendarDay {
        min(Insights.weekStart(day).adding(days: 6), today)
    }

    /// The person's words from a day, those written with the mood that made
    /// it the best day first: a day whose mood is a check-in's (the
    /// report's day mood) quotes the latest entry's first text among
    /// ``JournalFlows/highlightSteps``, else the day's mood-log note; a day
    /// whose mood is the mood log's quotes its note first.
    static func words(on day: CalendarDay, _ entries: [JournalEntry], moods: [MoodDay]) -> String? {
        var written: String?
        search: for e in entries.reversed() where e.day == day {
            for step in JournalFlows.highlightSteps {
                if let t = e.text(step) { written = cut(t); break search }
            }
        }
        let note = moods.last { $0.day == day }?.note.map(cut).flatMap { $0.isEmpty ? nil : $0 }
        let checkedIn = entries.contains { $0.day == day && $0.flow == JournalFlows.checkIn && $0.answers["mood"] != nil }
        return checkedIn ? written ?? note : note ?? written
    }

    /// The first line, at most ``maxWords`` characters (then "…").
    static func cut(_ text: String) -> String {
        let line = String(text.prefix { $0 != "\n" && $0 != "\r" }).trimmingSpaces()
        return line.count > maxWords ? String(line.prefix(maxWords)).trimmingSpaces() + "…" : line
    }
}

private extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}

/// What `reflect insights` reports (`--format json` is this, encoded). A
/// figure below its minimum of data is nil or left out of its list.
public struct InsightsReport: Sendable, Equatable, Encodable {
    public var from: CalendarDay
    public var to: CalendarDay
    public var moodLog: MoodLogFigures
    public var streak: StreakNumbers?
    public var checkIns: CheckInFigures
    /// Tag × mood, for themes with enough days on both sides.
    public var themes: [ThemeMood]
    /// Distortions detected, per ISO week (Monday) and type.
    public var distortionsByWeek: [WeekCount]
    /// Mean intensity change (post − pre) of sessions where a distortion was detected.
    public var intensityByDistortion: [IntensityChange]
    /// Mean intensity change per flow family.
    public var intensityByFlow: [IntensityChange]
    /// Craving notes per ISO week and type.
    public var cravingsByWeek: [WeekCount]

    enum CodingKeys: String, CodingKey {
        case from, to, streak, themes
        case moodLog = "mood_log", checkIns = "check_ins", distortionsByWeek = "distortions_by_week"
        case intensityByDistortion = "intensity_by_distortion", intensityByFlow = "intensity_by_flow", cravingsByWeek = "cravings_by_week"
    }
}

/// Current and longest streak, from the progress computation.
public struct StreakNumbers: Sendable, Equatable, Encodable {
    public var current: Int
    public var longest: Int
    public init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }
}

/// The 5-point mood log, scored horrible 1 … great 5 (``Mood/score`` + 1).
public struct MoodLogFigures: Sendable, Equatable, Encodable {
    public var entries: Int
    /// Entries per mood (every mood present, 0 when none).
    public var distribution: [String: Int]
    /// Mean score, one decimal; nil below ``Insights/Minimum/moodEntries``.
    public var mean: Double?
    /// Weekdays (1 = Sunday … 7 = Saturday) with enough entries.
    public var weekdays: [WeekdayMean]
    public var bestWeekday: Int?
    public var worstWeekday: Int?

    enum CodingKeys: String, CodingKey {
        case entries, distribution, mean, weekdays
        case bestWeekday = "best_weekday", worstWeekday = "worst_weekday"
    }
}

public struct WeekdayMean: Sendable, Equatable, Encodable {
    public var weekday: Int
    public var mean: Double
    public var entries: Int
}

public struct CheckInFigures: Sendable, Equatable, Encodable {
    /// Check-ins in the period, and the days they cover (a day's last check-in counts).
    public var checkIns: Int
    public var days: Int
    /// The 7 days ending on the period's last day, and the 7 before.
    public var lastSevenDays: MetricAverages?
    public var sevenDaysBefore: MetricAverages?
    /// ISO weeks (Monday–Sunday) with enough check-ins.
    public var weekly: [MetricAverages]

    enum CodingKeys: String, CodingKey {
        case days, weekly
        case checkIns = "check_ins", lastSevenDays = "last_seven_days", sevenDaysBefore = "seven_days_before"
    }
}

/// Averages of the check-in metrics over a window, one decimal.
public struct MetricAverages: Sendable, Equatable, Encodable {
    public var start: CalendarDay
    public var end: CalendarDay
    public var checkIns: Int
    public var mood: Double?
    public var energy: Double?
    public var stress: Double?
    public var sleepHours: Double?
    public var sleepQuality: Double?

    enum CodingKeys: String, CodingKey {
        case start, end, mood, energy, stress
        case checkIns = "check_ins", sleepHours = "sleep_hours", sleepQuality = "sleep_quality"
    }
}

/// Mean check-in mood on days with and without a theme: an association in
/// the person's own entries, not a cause.
public struct ThemeMood: Sendable, Equatable, Encodable {
    public var theme: Theme
    public var daysWith: Int
    public var daysWithout: Int
    public var moodWith: Double
    public var moodWithout: Double
    /// `moodWith − moodWithout`, one decimal.
    public var difference: Double

    enum CodingKeys: String, CodingKey {
        case theme, difference
        case daysWith = "days_with", daysWithout = "days_without", moodWith = "mood_with", moodWithout = "mood_without"
    }
}

public struct WeekCount: Sendable, Equatable, Encodable {
    /// The week's Monday.
    public var week: CalendarDay
    public var counts: [String: Int]
}

public struct IntensityChange: Sendable, Equatable, Encodable {
    public var key: String
    public var sessions: Int
    public var meanChange: Double

    enum CodingKeys: String, CodingKey {
        case key, sessions
        case meanChange = "mean_change"
    }
}

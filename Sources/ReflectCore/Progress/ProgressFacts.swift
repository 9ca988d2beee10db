/// What celebration rules read about the person's history, snapshotted with
/// the other ``UserFacts`` when a session starts ("first time" facts are
/// read as they were then, spec coach §7).
public struct ProgressFacts: Sendable, Equatable, Codable {
    /// Per step of the session's flow that was ever saved.
    public var steps: [StepProgress]
    /// The flow's completions (`step` is empty).
    public var completed: StepProgress
    /// Whether any flow was completed today before the session started.
    public var anyCompletedToday: Bool
    /// Achievement keys already held.
    public var achievements: [String]
    /// Today's ISO week (`2026-W48`), for `weekly_consistency:<week>`.
    public var week: String
    /// The last line the person saw from each pool.
    public var lastLines: [LastLine]

    public init(steps: [StepProgress], completed: StepProgress, anyCompletedToday: Bool, achievements: [String], week: String,
                lastLines: [LastLine] = []) {
        self.steps = steps
        self.completed = completed
        self.anyCompletedToday = anyCompletedToday
        self.achievements = achievements
        self.week = week
        self.lastLines = lastLines
    }

    /// Bounds a snapshot in a save must respect.
    func validate(field: String) throws(SaveValidationError) {
        guard steps.count <= SessionLimits.maxAnswers, achievements.count <= SessionLimits.maxAnswers else {
            throw SaveValidationError(field: field, reason: "more than \(SessionLimits.maxAnswers) steps or achievements")
        }
        for (i, s) in steps.enumerated() where s.step.utf8.count > SessionLimits.maxStepIDBytes {
            throw SaveValidationError(field: "\(field).steps[\(i)].step", reason: "not a step id")
        }
        for (i, a) in achievements.enumerated() where a.utf8.count > 64 {
            throw SaveValidationError(field: "\(field).achievements[\(i)]", reason: "longer than 64 bytes")
        }
    }
}

/// One step's history as of the session's start.
public struct StepProgress: Sendable, Equatable, Codable {
    public var step: String
    /// Consecutive days it was saved, ending today (or yesterday while
    /// today has none yet).
    public var streak: Int
    /// Days it was ever saved.
    public var days: Int
    /// Saved today already.
    public var today: Bool
    /// Days it was a Yes, or a checklist with a Done.
    public var yesDays: Int
    public var yesToday: Bool
    /// Such days in today's ISO week (today included when already so).
    public var yesThisWeek: Int

    public init(step: String, streak: Int, days: Int, today: Bool, yesDays: Int, yesToday: Bool, yesThisWeek: Int) {
        self.step = step
        self.streak = streak
        self.days = days
        self.today = today
        self.yesDays = yesDays
        self.yesToday = yesToday
        self.yesThisWeek = yesThisWeek
    }

    /// From a step's day sets (`saved` and `positive`), as of `today`.
    public init(step: String, saved: ShowedUpDays, positive: ShowedUpDays, today: CalendarDay) {
        let monday = today.isoWeekStart
        self.init(step: step, streak: saved.currentStreak(today: today), days: saved.count(from: CalendarDay(ordinal: .min / 2), to: today),
                  today: saved.contains(today), yesDays: positive.count(from: CalendarDay(ordinal: .min / 2), to: today),
                  yesToday: positive.contains(today), yesThisWeek: positive.count(from: monday, to: today))
    }
}

/// An achievement (spec coach §6): data, recorded once with the day it was
/// earned, kept even when its celebration collapses under the rate limit.
public enum Achievement: Sendable, Hashable, CustomStringConvertible {
    /// `streak_3`, `streak_7`, `streak_14`, `streak_30`.
    case streak(Int)
    /// 7 mornings completed in a row, the first time.
    case firstWeekMorning
    /// `weekly_consistency:<ISO week>`: 5 evenings that week with at least
    /// one prep item marked Done; one per week.
    case weeklyConsistency(week: String)
    /// The first morning stress plan.
    case firstStressResponse

    public static let streakLengths = [3, 7, 14, 30]

    /// The stored key, e.g. `streak_7`, `weekly_consistency:2026-W48`.
    public var key: String {
        switch self {
        case .streak(let n): "streak_\(n)"
        case .firstWeekMorning: "first_week_morning"
        case .weeklyConsistency(let week): "weekly_consistency:\(week)"
        case .firstStressResponse: "first_stress_response"
        }
    }

    public var description: String { key }

    /// Reads a stored key; nil for anything else.
    public init?(key: String) {
        switch key {
        case "first_week_morning": self = .firstWeekMorning
        case "first_stress_response": self = .firstStressResponse
        default:
            if key.hasPrefix("streak_"), let n = Int(key.dropFirst(7)), Achievement.streakLengths.contains(n) {
                self = .streak(n)
            } else if key.hasPrefix("weekly_consistency:") {
                let week = String(key.dropFirst("weekly_consistency:".count))
                guard week.count == 8, week.dropFirst(4).hasPrefix("-W"), Int(week.prefix(4)) != nil, let w = Int(week.suffix(2)),
                      (1...53).contains(w) else { return nil }
                self = .weeklyConsistency(week: week)
            } else {
                return nil
            }
        }
    }
}

/// The histories achievements are earned from, as day sets.
public struct AchievementHistory: Sendable, Equatable {
    /// Days anything was logged.
    public var showedUp: ShowedUpDays
    /// Days the morning check-in was completed.
    public var morningsCompleted: ShowedUpDays
    /// Days with an evening prep checklist holding at least one Done.
    public var eveningsWithPrepDone: ShowedUpDays
    /// Days a morning stress plan was saved.
    public var stressResponses: ShowedUpDays

    public init(showedUp: ShowedUpDays, morningsCompleted: ShowedUpDays, eveningsWithPrepDone: ShowedUpDays,
                stressResponses: ShowedUpDays) {
        self.showedUp = showedUp
        self.morningsCompleted = morningsCompleted
        self.eveningsWithPrepDone = eveningsWithPrepDone
        self.stressResponses = stressResponses
    }

    /// Only what happened after `day` (after "reset achievements", the
    /// person starts over).
    public func after(_ day: CalendarDay?) -> AchievementHistory {
        AchievementHistory(showedUp: showedUp.after(day), morningsCompleted: morningsCompleted.after(day),
                           eveningsWithPrepDone: eveningsWithPrepDone.after(day), stressResponses: stressResponses.after(day))
    }
}

/// Which achievements a history has earned, and on which day. Pure: the
/// same history always earns the same achievements on the same days, so
/// recomputing after every logged action and recording what is missing
/// records each one once.
public enum AchievementRules {
    /// The flows and steps the coach achievements read (spec coach §2–3).
    public static let morningFlow = "coach.morning"
    public static let eveningFlow = "coach.evening"
    public static let stressStep: StepID = "stress_response"
    public static let prepStep: StepID = "prep"

    /// Whether ``earned(by:)`` reads marks like `mark` (besides the
    /// showed-up days): a new mark of any other step, on a day already
    /// showed up, cannot earn anything, so the store does not recompute.
    public static func reads(_ mark: ActivityMark) -> Bool {
        switch mark.kind {
        case .completed: mark.flow == morningFlow && mark.step.isEmpty
        case .positive: mark.flow == eveningFlow && mark.step == prepStep.rawValue
        case .saved: mark.flow == morningFlow && mark.step == stressStep.rawValue
        case .logged: false
        }
    }

    /// Every achievement the history earned, with the day it was earned,
    /// in order of that day (then key).
    public static func earned(by history: AchievementHistory) -> [(achievement: Achievement, day: CalendarDay)] {
        var out: [(Achievement, CalendarDay)] = []
        for n in Achievement.streakLengths {
            if let day = history.showedUp.firstDayReaching(n) { out.append((.streak(n), day)) }
        }
        if let day = history.morningsCompleted.firstDayReaching(7) { out.append((.firstWeekMorning, day)) }
        if let day = history.stressResponses.days.first { out.append((.firstStressResponse, day)) }
        var perWeek: [String: (count: Int, day: CalendarDay)] = [:]
        for day in history.eveningsWithPrepDone.days {
            let week = day.isoWeek
            let n = (perWeek[week]?.count ?? 0) + 1
            perWeek[week] = (n, n == 5 ? day : perWeek[week]?.day ?? day)
            if n == 5 { out.append((.weeklyConsistency(week: week), day)) }
        }
        return out.sorted { ($0.1, $0.0.key) < ($1.1, $1.0.key) }
    }
}

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
        AchievementTrack(mark: mark) != nil
    }

    /// Every achievement the history earned, with the day it was earned,
    /// in order of that day (then key).
    public static func earned(by history: AchievementHistory) -> [(achievement: Achievement, day: CalendarDay)] {
        var out: [(Achievement, CalendarDay)] = []
        out += AchievementTrack.showedUp.earned(by: history.showedUp)
        out += AchievementTrack.morningsCompleted.earned(by: history.morningsCompleted)
        out += AchievementTrack.stressResponses.earned(by: history.stressResponses)
        out += AchievementTrack.eveningsWithPrepDone.earned(by: history.eveningsWithPrepDone)
        return out.sorted { ($0.1, $0.0.key) < ($1.1, $1.0.key) }
    }
}

/// One of the day sets of ``AchievementHistory``, with the achievements it
/// alone decides, and what a new day of it can change: the incremental
/// form of ``AchievementRules/earned(by:)``.
///
/// Contract of the incremental form: when every achievement a history
/// earned is recorded (insert-or-ignore, first day kept), and one day `d`
/// joins a track's set, then recording ``earned(by:)`` of only the set's
/// days within ``window(around:)`` of `d` records exactly what recording
/// ``AchievementRules/earned(by:)`` of the whole history would: every
/// achievement already earned is recorded (recording it again changes
/// nothing), and one not yet earned can only be earned by the run or week
/// `d` belongs to, which lies within the window. So the store reads a few
/// days around each new one, never the whole history
/// (`AchievementIncrementalTests` hold the two to the same results).
public enum AchievementTrack: Sendable, CaseIterable {
    /// Days anything was logged: `streak_N`.
    case showedUp
    /// Morning check-ins completed: `first_week_morning`.
    case morningsCompleted
    /// Evenings with a prep item Done: `weekly_consistency:<week>`.
    case eveningsWithPrepDone
    /// Morning stress plans saved: `first_stress_response`.
    case stressResponses

    /// The run of consecutive days `first_week_morning` asks for.
    static let morningRun = 7
    /// Evenings in one ISO week `weekly_consistency` asks for.
    static let eveningsPerWeek = 5

    /// The track a step mark feeds (nil: a mark no achievement reads;
    /// showed-up days come from every mark's day, not from a step mark).
    public init?(mark: ActivityMark) {
        switch mark.kind {
        case .completed where mark.flow == AchievementRules.morningFlow && mark.step.isEmpty: self = .morningsCompleted
        case .positive where mark.flow == AchievementRules.eveningFlow && mark.step == AchievementRules.prepStep.rawValue:
            self = .eveningsWithPrepDone
        case .saved where mark.flow == AchievementRules.morningFlow && mark.step == AchievementRules.stressStep.rawValue:
            self = .stressResponses
        default: return nil
        }
    }

    /// What this set of days earns, alone.
    public func earned(by days: ShowedUpDays) -> [(achievement: Achievement, day: CalendarDay)] {
        switch self {
        case .showedUp:
            return Achievement.streakLengths.compactMap { n in days.firstDayReaching(n).map { (.streak(n), $0) } }
        case .morningsCompleted:
            return days.firstDayReaching(Self.morningRun).map { [(.firstWeekMorning, $0)] } ?? []
        case .stressResponses:
            return days.days.first.map { [(.firstStressResponse, $0)] } ?? []
        case .eveningsWithPrepDone:
            var out: [(Achievement, CalendarDay)] = []
            var week = "", count = 0
            for day in days.days {
                let w = day.isoWeek
                if w != week { (week, count) = (w, 0) }
                count += 1
                if count == Self.eveningsPerWeek { out.append((.weeklyConsistency(week: w), day)) }
            }
            return out
        }
    }

    /// The days whose presence decides what `day` joining this set can
    /// newly earn: the runs of up to 30 (7) days through it, its ISO week,
    /// or the day itself (the first stress plan).
    public func window(around day: CalendarDay) -> ClosedRange<CalendarDay> {
        switch self {
        case .showedUp:
            let reach = (Achievement.streakLengths.max() ?? 1) - 1
            return day.adding(days: -reach)...day.adding(days: reach)
        case .morningsCompleted:
            return day.adding(days: -(Self.morningRun - 1))...day.adding(days: Self.morningRun - 1)
        case .eveningsWithPrepDone:
            let monday = day.isoWeekStart
            return monday...monday.adding(days: 6)
        case .stressResponses:
            return day...day
        }
    }
}

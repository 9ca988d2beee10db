import Foundation

/// What the coach chat knows about the person's day (docs/coach.md, "Coach
/// context"): today's why, swap and commitment from the morning check-in,
/// and the streak figures. Text generation is a separate capability; this
/// is its input.
public struct CoachContext: Sendable, Equatable, Codable {
    /// Today's identity and focus answers, joined.
    public var todayWhy: String
    /// Today's stress plan (plus the snack line, when given).
    public var todaySwap: String
    /// Today's focus.
    public var commitTo: String
    public var commitFrom: String
    public var currentStreak: Int
    /// Days counted among the last seven.
    public var daysThisWeek: Int
    /// At most one sentence (``Nudge``), or nil.
    public var nudge: String?
    /// This week's craving notes by type, most first.
    public var cravingTypes: [CravingCount]

    public struct CravingCount: Sendable, Equatable, Codable {
        public var type: CravingNote.Kind
        public var count: Int
    }

    public init(todayWhy: String = "", todaySwap: String = "", commitTo: String = "", commitFrom: String = "",
                currentStreak: Int = 0, daysThisWeek: Int = 0, nudge: String? = nil, cravingTypes: [CravingCount] = []) {
        self.todayWhy = todayWhy
        self.todaySwap = todaySwap
        self.commitTo = commitTo
        self.commitFrom = commitFrom
        self.currentStreak = currentStreak
        self.daysThisWeek = daysThisWeek
        self.nudge = nudge
        self.cravingTypes = cravingTypes
    }

    /// The context from today's answers (``EarlierAnswer`` of
    /// `coach.morning`; the latest answer of a step wins), the streak
    /// figures and this week's craving types. `nudgeText` gives a nudge's
    /// locale text.
    public static func make(earlier: [EarlierAnswer], streak: StreakFigures?, cravings: [CravingNote.Kind],
                            nudgeText: (Nudge) -> String) -> CoachContext {
        func answer(_ step: StepID) -> String {
            for a in earlier.reversed() where a.flow == "coach.morning" && a.step == step {
                if case .text(let t) = a.value { return t.trimmingCharacters(in: .whitespacesAndNewlines) }
            }
            return ""
        }
        let why = [answer("identity"), answer("focus")].filter { !$0.isEmpty }.joined(separator: " — ")
        let snack = answer("snack")
        let swap = [answer("stress_response"), snack].filter { !$0.isEmpty }.joined(separator: " — ")
        let current = streak?.current ?? 0, week = streak?.lastSevenDays ?? 0
        var counts: [CravingNote.Kind: Int] = [:]
        for c in cravings { counts[c, default: 0] += 1 }
        let ranked = CravingNote.Kind.allCases.compactMap { k in counts[k].map { CravingCount(type: k, count: $0) } }
            .sorted { $0.count > $1.count }
        return CoachContext(todayWhy: why, todaySwap: swap, commitTo: answer("focus"), commitFrom: "", currentStreak: current,
                            daysThisWeek: week, nudge: Nudge.pick(currentStreak: current, daysThisWeek: week).map(nudgeText),
                            cravingTypes: ranked)
    }
}

/// The one-sentence nudge, in this order: a seven-day streak, then five
/// days this week, else none.
public enum Nudge: String, Sendable, CaseIterable {
    case streak7 = "streak_7"
    case fiveDays = "five_days"

    public var key: String { "coach.nudge.\(rawValue)" }

    public static func pick(currentStreak: Int, daysThisWeek: Int) -> Nudge? {
        if currentStreak == 7 { return .streak7 }
        if daysThisWeek >= 5 { return .fiveDays }
        return nil
    }
}

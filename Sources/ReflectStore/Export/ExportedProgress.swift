import ReflectCore

/// The progress part of the JSON export (docs/storage.md): showed-up days,
/// step days, achievements, resets and celebrations. Absent from exports
/// made before it existed; such a file still imports (streaks then start
/// from the mood entries it holds).
public struct ExportedProgress: Codable, Sendable, Equatable {
    public var showedUpDays: [ExportedShowedUpDay]
    public var stepDays: [ExportedStepDay]
    public var achievements: [AchievementRow]
    public var achievementResets: [ExportedShowedUpDay]
    public var celebrations: [CelebrationRow]

    public init(showedUpDays: [ExportedShowedUpDay] = [], stepDays: [ExportedStepDay] = [], achievements: [AchievementRow] = [],
                achievementResets: [ExportedShowedUpDay] = [], celebrations: [CelebrationRow] = []) {
        self.showedUpDays = showedUpDays
        self.stepDays = stepDays
        self.achievements = achievements
        self.achievementResets = achievementResets
        self.celebrations = celebrations
    }

    enum CodingKeys: String, CodingKey {
        case achievements, celebrations
        case showedUpDays = "showed_up_days", stepDays = "step_days", achievementResets = "achievement_resets"
    }

    var isEmpty: Bool {
        showedUpDays.isEmpty && stepDays.isEmpty && achievements.isEmpty && achievementResets.isEmpty && celebrations.isEmpty
    }

    /// Checks every value before anything is written.
    func validate() throws(StoreError) {
        func fail(_ record: String, _ field: String, _ why: String) -> StoreError { .invalidImport(record: record, field: field, reason: why) }
        for (i, a) in achievements.enumerated() {
            guard Achievement(key: a.key) != nil else { throw fail("progress.achievements[\(i)]", "key", "unknown achievement '\(a.key.prefix(60))'") }
            guard CalendarDay(a.achievedAt) != nil else { throw fail("progress.achievements[\(i)]", "achieved_at", "not a YYYY-MM-DD day") }
        }
        for (i, c) in celebrations.enumerated() {
            guard CelebrationReason(rawValue: c.reason) != nil else {
                throw fail("progress.celebrations[\(i)]", "reason", "unknown reason '\(c.reason.prefix(60))'")
            }
            if let pool = c.pool, LinePool(rawValue: pool) == nil { throw fail("progress.celebrations[\(i)]", "pool", "unknown pool '\(pool.prefix(60))'") }
            guard (c.line?.utf8.count ?? 0) <= SessionLimits.maxPromptTextBytes else { throw fail("progress.celebrations[\(i)]", "line", "too long") }
            if let item = c.item, !StepID.isValid(item) { throw fail("progress.celebrations[\(i)]", "item", "not a checklist item id") }
        }
        for (i, s) in stepDays.enumerated() where s.flow.utf8.count > SessionLimits.maxFlowIDBytes || s.step.utf8.count > SessionLimits.maxStepIDBytes {
            throw fail("progress.step_days[\(i)]", "flow", "not a flow and step id")
        }
    }
}

/// A person and a day (`YYYY-MM-DD`).
public struct ExportedShowedUpDay: Codable, Sendable, Equatable {
    public var user: String
    public var day: CalendarDay

    public init(user: String, day: CalendarDay) {
        self.user = user
        self.day = day
    }
}

/// A step day: what a flow's step left on a day.
public struct ExportedStepDay: Codable, Sendable, Equatable {
    public var user: String
    public var flow: String
    public var step: String
    public var kind: ActivityMark.Kind
    public var day: CalendarDay

    public init(user: String, flow: String, step: String, kind: ActivityMark.Kind, day: CalendarDay) {
        self.user = user
        self.flow = flow
        self.step = step
        self.kind = kind
        self.day = day
    }
}

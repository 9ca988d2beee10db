/// What a flow may know about the person beyond its own session, read-only.
///
/// Contract: the host takes this snapshot when a session starts and the
/// engine keeps it in the session's save. Replaying (going back), resuming
/// after a crash and resuming days later all read the snapshot in the save,
/// never fresh data, so a flow that branches on a fact takes the same branch
/// every time. A fact that changes while the session is open (another
/// session logged meanwhile) is seen by the next session, not this one.
public struct UserFacts: Sendable, Equatable, Codable {
    /// The person's logical day (`YYYY-MM-DD`), after the day boundary.
    public var day: String?
    /// Where in that day the session starts.
    public var phase: DayPhase?
    /// Answers the person gave earlier today, e.g. the morning's stress plan
    /// that the evening quotes back.
    public var earlierAnswers: [EarlierAnswer]
    /// Streak figures, as the progress feature computes them.
    public var streak: StreakFigures?
    /// Whether this is the person's first session today / ever (celebration
    /// rules need both).
    public var firstToday: Bool?
    public var firstEver: Bool?
    /// Today's Prep Library checklist (active items, in order); empty when
    /// the host gave none. Read-only to flows.
    public var prepItems: [PrepItem]
    /// The marks made on the previous logical day ("Last Night's Prep").
    public var lastNightPrep: [PrepMark]
    /// The history celebration rules read (per-step streaks, achievements
    /// held), as the progress feature computes it.
    public var progress: ProgressFacts?
    /// The person's personalization profile (tone, response length,
    /// preferred actions, topics to avoid), as it was when the session started.
    public var profile: PersonalizationProfile?

    public init(day: String? = nil, phase: DayPhase? = nil, earlierAnswers: [EarlierAnswer] = [],
                streak: StreakFigures? = nil, firstToday: Bool? = nil, firstEver: Bool? = nil,
                prepItems: [PrepItem] = [], lastNightPrep: [PrepMark] = [], progress: ProgressFacts? = nil,
                profile: PersonalizationProfile? = nil) {
        self.day = day
        self.phase = phase
        self.earlierAnswers = earlierAnswers
        self.streak = streak
        self.firstToday = firstToday
        self.firstEver = firstEver
        self.prepItems = prepItems
        self.lastNightPrep = lastNightPrep
        self.progress = progress
        self.profile = profile
    }

    private enum CodingKeys: String, CodingKey {
        case day, phase, earlierAnswers, streak, firstToday, firstEver, prepItems, lastNightPrep, progress, profile
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        day = try c.decodeIfPresent(String.self, forKey: .day)
        phase = try c.decodeIfPresent(DayPhase.self, forKey: .phase)
        earlierAnswers = try c.decodeIfPresent([EarlierAnswer].self, forKey: .earlierAnswers) ?? []
        streak = try c.decodeIfPresent(StreakFigures.self, forKey: .streak)
        firstToday = try c.decodeIfPresent(Bool.self, forKey: .firstToday)
        firstEver = try c.decodeIfPresent(Bool.self, forKey: .firstEver)
        prepItems = try c.decodeIfPresent([PrepItem].self, forKey: .prepItems) ?? []
        lastNightPrep = try c.decodeIfPresent([PrepMark].self, forKey: .lastNightPrep) ?? []
        progress = try c.decodeIfPresent(ProgressFacts.self, forKey: .progress)
        profile = try c.decodeIfPresent(PersonalizationProfile.self, forKey: .profile)
    }

    /// Bounds a snapshot in a save must respect (the same as answers').
    func validate(field: String) throws(SaveValidationError) {
        if let day, day.utf8.count > 10 || !day.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) {
            throw SaveValidationError(field: "\(field).day", reason: "not a YYYY-MM-DD day")
        }
        try progress?.validate(field: "\(field).progress")
        if let profile, profile.preferredActions.count > Theme.allCases.count || profile.avoidTopics.count > Theme.allCases.count {
            throw SaveValidationError(field: "\(field).profile", reason: "more themes than there are")
        }
        guard earlierAnswers.count <= SessionLimits.maxAnswers else {
            throw SaveValidationError(field: "\(field).earlierAnswers", reason: "more than \(SessionLimits.maxAnswers) answers")
        }
        guard prepItems.count <= SessionLimits.maxOptions, lastNightPrep.count <= SessionLimits.maxOptions else {
            throw SaveValidationError(field: "\(field).prepItems", reason: "more than \(SessionLimits.maxOptions) items")
        }
        for (i, item) in prepItems.enumerated() {
            guard StepID.isValid(item.id), item.label.raw.utf8.count <= SessionLimits.maxOptionTextBytes else {
                throw SaveValidationError(field: "\(field).prepItems[\(i)]", reason: "not a prep item")
            }
        }
        for (i, a) in earlierAnswers.enumerated() {
            guard !a.flow.isEmpty, a.flow.utf8.count <= SessionLimits.maxFlowIDBytes else {
                throw SaveValidationError(field: "\(field).earlierAnswers[\(i)].flow", reason: "invalid flow id")
            }
            if case .text(let s) = a.value, s.utf8.count > SessionLimits.maxTextBytes {
                throw SaveValidationError(field: "\(field).earlierAnswers[\(i)].value", reason: "text longer than \(SessionLimits.maxTextBytes) bytes")
            }
        }
    }
}

/// An answer from an earlier session of the same day.
public struct EarlierAnswer: Sendable, Equatable, Codable {
    public var flow: String
    public var step: StepID
    public var value: AnswerValue

    public init(flow: String, step: StepID, value: AnswerValue) {
        self.flow = flow
        self.step = step
        self.value = value
    }
}

/// Streak figures a flow may show ("showed up" days, not perfect ones),
/// computed by ``ShowedUpDays/figures(today:)``.
public struct StreakFigures: Sendable, Equatable, Codable {
    /// Consecutive counted days ending today, or yesterday while today has
    /// nothing yet.
    public var current: Int
    public var longest: Int
    /// Days with any logged action among the last seven.
    public var lastSevenDays: Int
    /// Whether today already counts (when false, the session's first saved
    /// answer makes it count: the streak becomes `current + 1`).
    public var today: Bool

    public init(current: Int, longest: Int, lastSevenDays: Int, today: Bool = false) {
        self.current = current
        self.longest = longest
        self.lastSevenDays = lastSevenDays
        self.today = today
    }

    /// The streak once today counts.
    public var includingToday: Int { today ? current : current + 1 }

    private enum CodingKeys: String, CodingKey { case current, longest, lastSevenDays, today }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        current = try c.decode(Int.self, forKey: .current)
        longest = try c.decode(Int.self, forKey: .longest)
        lastSevenDays = try c.decode(Int.self, forKey: .lastSevenDays)
        today = try c.decodeIfPresent(Bool.self, forKey: .today) ?? false
    }
}

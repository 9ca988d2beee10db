/// How big a celebration is (spec coach §7): the app draws it.
/// - tiny: a soft pop near the button;
/// - medium: mini-confetti, 1.0–1.5 s;
/// - big: screen confetti, 1.5–2.0 s, and a banner.
public enum CelebrationTier: String, Sendable, Codable, CaseIterable, Comparable {
    case tiny, medium, big

    private var rank: Int {
        switch self {
        case .tiny: 0
        case .medium: 1
        case .big: 2
        }
    }

    public static func < (a: CelebrationTier, b: CelebrationTier) -> Bool { a.rank < b.rank }
}

/// Why a celebration fired: a stable identifier the app may use to pick a
/// banner. Rules are content (which event earns which tier); the reasons
/// they may give are this fixed list, so a misspelled one is an author
/// error (`reflect check`), never a silent new reason.
public enum CelebrationReason: String, Sendable, Codable, CaseIterable {
    case resetDone = "reset_done"
    case identityStreak = "identity_streak"
    case focusWithIdentity = "focus_with_identity"
    case firstStressResponse = "first_stress_response"
    case stressResponse = "stress_response"
    case morningComplete = "morning_complete"
    case careDone = "care_done"
    case prepDone = "prep_done"
    case prepTwoDone = "prep_two_done"
    case weeklyConsistency = "weekly_consistency"
    case dayComplete = "day_complete"
    case streakMilestone = "streak_milestone"
    case streakThree = "streak_3"
    case firstWeekMorning = "first_week_morning"
    case planConsent = "plan_consent"
    /// For flows outside the coach (a custom win).
    case win

    /// The closest known reason to a misspelled one (for diagnostics).
    public static func suggestion(for text: String) -> CelebrationReason? {
        allCases.min { editDistance($0.rawValue, text) < editDistance($1.rawValue, text) }
            .flatMap { editDistance($0.rawValue, text) <= 3 ? $0 : nil }
    }
}

/// The per-session rate limit (core, not content): in one run of a flow at
/// most one medium and one big celebration; any further one collapses to
/// tiny. Tiny ones are never limited.
public enum CelebrationLimit {
    /// The tier a requested celebration gets, given the tiers already shown
    /// in this session.
    public static func granted(_ requested: CelebrationTier, shown: [CelebrationTier]) -> CelebrationTier {
        switch requested {
        case .tiny: .tiny
        case .medium, .big: shown.contains(requested) ? .tiny : requested
        }
    }
}

/// Levenshtein distance over Unicode scalars (short identifiers only).
func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var previous = Array(0...y.count)
    for i in 1...x.count {
        var row = [i] + Array(repeating: 0, count: y.count)
        for j in 1...y.count {
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        previous = row
    }
    return previous[y.count]
}

/// A celebration that fired in a session: kept in the save (and the store)
/// so that replay, going back, resuming and crash recovery never fire it
/// twice, and so that the rate limit counts it. Once per step, reason and
/// item.
public struct FiredCelebration: Sendable, Equatable, Codable {
    /// The step whose answer earned it.
    public var step: StepID
    /// The checklist item whose mark earned it (evening 3: one tiny
    /// celebration per prep item marked Done), else nil.
    public var item: String?
    /// The tier shown (after the rate limit); nil for a line alone or a
    /// gentle checkmark (never rate-limited).
    public var tier: CelebrationTier?
    public var reason: CelebrationReason
    /// The line shown with it, from a pool.
    public var line: PoolLine?

    public init(step: StepID, tier: CelebrationTier?, reason: CelebrationReason, line: PoolLine? = nil, item: String? = nil) {
        self.step = step
        self.item = item
        self.tier = tier
        self.reason = reason
        self.line = line
    }

    /// Whether `other` is the same celebration (fired once per session):
    /// the same step, reason and item.
    public func isSame(as other: FiredCelebration) -> Bool {
        step == other.step && reason == other.reason && item == other.item
    }
}

/// A line drawn from a pool, as shown.
public struct PoolLine: Sendable, Equatable, Codable {
    public var pool: LinePool
    /// 1-based, in the pool's order.
    public var index: Int
    public var text: String

    public init(pool: LinePool, index: Int, text: String) {
        self.pool = pool
        self.index = index
        self.text = text
    }
}

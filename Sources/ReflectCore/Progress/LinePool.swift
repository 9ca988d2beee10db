/// A pool of short lines (spec coach §8), translatable (locale keys
/// `pool.<name>.<n>`) and overridable per personality pack (same keys).
public enum LinePool: String, Sendable, Codable, CaseIterable {
    /// Shown after a hard day (evening `care_done` = No). 19 lines.
    case warmValidation = "warm_validation"
    /// Shown with a small win (evening `care_done` = Yes). 15 lines.
    case miniCelebration = "mini_celebration"

    public var size: Int {
        switch self {
        case .warmValidation: 19
        case .miniCelebration: 15
        }
    }

    /// The locale key of line `index` (1-based).
    public func key(_ index: Int) -> String { "pool.\(rawValue).\(index)" }

    /// Every key of the pool, in order.
    public var keys: [String] { (1...size).map(key) }

    /// The line a draw in `1...size` picks: the drawn one, or the next one
    /// when it is the line the person saw last from this pool.
    public func choose(draw: Int64, avoiding previous: Int?) -> Int {
        let index = Int(min(max(draw, 1), Int64(size)))
        guard let previous, previous == index, size > 1 else { return index }
        return index % size + 1
    }
}

/// The line of a pool a person saw last (so the next one differs).
public struct LastLine: Sendable, Equatable, Codable {
    public var pool: LinePool
    public var index: Int

    public init(pool: LinePool, index: Int) {
        self.pool = pool
        self.index = index
    }
}

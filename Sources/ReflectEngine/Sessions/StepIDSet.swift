import ReflectCore

/// The step ids a run has asked (or requested): a set that stays a short
/// list searched with `==` while it is small, which is what a flow asks (a
/// handful of prompts: no hash of each id at every prompt), and adds a
/// hashed set once it holds more than ``listLimit``, so that a flow asking
/// up to ``SessionLimits/maxAnswers`` prompts is not quadratic.
///
/// Contract: `insert` and `contains` answer as `Set<StepID>`'s do; `count`
/// is the number of distinct ids inserted.
struct StepIDSet {
    static var listLimit: Int { 32 }
    private var list: [StepID] = []
    private var hashed: Set<StepID>?

    /// Room for `capacity` ids before the list grows.
    init(capacity: Int) { list.reserveCapacity(capacity) }

    var count: Int { list.count }

    func contains(_ step: StepID) -> Bool {
        if let hashed { return hashed.contains(step) }
        return list.contains(step)
    }

    /// Inserts `step`; false when it was already there.
    mutating func insert(_ step: StepID) -> Bool {
        guard !contains(step) else { return false }
        list.append(step)
        if hashed != nil {
            hashed?.insert(step)
        } else if list.count > Self.listLimit {
            hashed = Set(list)
        }
        return true
    }
}

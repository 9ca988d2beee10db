/// Pearson's chi-square goodness of fit: observed counts against expected
/// shares (normalized to sum 1). The sample-ratio-mismatch check of the
/// report; agrees with SciPy's `chisquare(observed, expected)`.
public struct ChiSquareTest: Sendable, Equatable, Codable {
    public var statistic: Double
    public var degreesOfFreedom: Int
    public var pValue: Double

    /// Nil with fewer than 2 categories, no observations, or a share ≤ 0.
    public init?(observed: [Int], expectedShares: [Double]) {
        guard observed.count >= 2, observed.count == expectedShares.count else { return nil }
        let total = observed.reduce(0, +)
        let shareSum = expectedShares.reduce(0, +)
        guard total > 0, shareSum > 0, expectedShares.allSatisfy({ $0 > 0 }) else { return nil }
        var stat = 0.0
        for (o, share) in zip(observed, expectedShares) {
            let e = Double(total) * share / shareSum
            stat += (Double(o) - e) * (Double(o) - e) / e
        }
        statistic = stat
        degreesOfFreedom = observed.count - 1
        pValue = ChiSquare(df: Double(degreesOfFreedom)).sf(stat)
    }
}

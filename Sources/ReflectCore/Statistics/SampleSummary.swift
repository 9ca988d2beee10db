/// A sample, as the store aggregates it: count, sum and sum of squares
/// (``init(count:sum:sumOfSquares:)``), or from values.
public struct SampleSummary: Sendable, Equatable, Codable {
    public var count: Int
    public var mean: Double
    /// The unbiased (n − 1) variance; 0 when count < 2.
    public var variance: Double

    public init(count: Int, mean: Double, variance: Double) {
        self.count = count
        self.mean = mean
        self.variance = variance
    }

    /// From running sums (exact when the values are whole numbers, as
    /// intensity changes are).
    public init(count: Int, sum: Double, sumOfSquares: Double) {
        self.count = count
        mean = count > 0 ? sum / Double(count) : 0
        variance = count > 1 ? max(0, (sumOfSquares - sum * sum / Double(count)) / Double(count - 1)) : 0
    }

    /// From the values themselves (two passes, for accuracy).
    public init(_ values: [Double]) {
        count = values.count
        mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        let m = mean
        variance = values.count > 1 ? values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1) : 0
    }

    public var standardErrorSquared: Double { count > 0 ? variance / Double(count) : .infinity }
}

/// A two-sided interval at some confidence level.
public struct Interval: Sendable, Equatable, Codable {
    public var low: Double
    public var high: Double
    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }
    public func contains(_ x: Double) -> Bool { x >= low && x <= high }
}

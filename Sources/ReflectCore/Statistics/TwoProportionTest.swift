/// Two-proportion z-test, treatment against control: pooled standard error
/// for the test (the same p-value as a 2×2 chi-square without continuity
/// correction), unpooled (Wald) standard error for the difference's interval.
public struct TwoProportionTest: Sendable, Equatable, Codable {
    public var controlRate: Double
    public var treatmentRate: Double
    /// treatment rate − control rate.
    public var difference: Double
    public var z: Double
    public var pValue: Double
    public var interval: Interval

    /// Nil when a group is empty, or when every unit (or none) succeeded in
    /// both groups (no variation to test).
    public init?(controlSuccesses x1: Int, controlTotal n1: Int, treatmentSuccesses x2: Int, treatmentTotal n2: Int,
                 confidence: Double = 0.95) {
        guard n1 > 0, n2 > 0, x1 >= 0, x2 >= 0, x1 <= n1, x2 <= n2 else { return nil }
        let p1 = Double(x1) / Double(n1), p2 = Double(x2) / Double(n2)
        let pooled = Double(x1 + x2) / Double(n1 + n2)
        let se0 = (pooled * (1 - pooled) * (1 / Double(n1) + 1 / Double(n2))).squareRoot()
        guard se0 > 0 else { return nil }
        controlRate = p1
        treatmentRate = p2
        difference = p2 - p1
        z = difference / se0
        pValue = 2 * StandardNormal.sf(abs(z))
        let se = (p1 * (1 - p1) / Double(n1) + p2 * (1 - p2) / Double(n2)).squareRoot()
        let q = StandardNormal.quantile(1 - (1 - confidence) / 2)
        interval = Interval(low: difference - q * se, high: difference + q * se)
    }
}

/// Welch's two-sample t-test (unequal variances), treatment against control,
/// with the difference's confidence interval and the relative lift's
/// delta-method interval. Agrees with SciPy's
/// `ttest_ind(control, treatment, equal_var=False)` (sign flipped: here the
/// difference is treatment − control).
public struct WelchTest: Sendable, Equatable, Codable {
    /// treatment mean − control mean.
    public var difference: Double
    public var standardError: Double
    /// Welch–Satterthwaite degrees of freedom.
    public var degreesOfFreedom: Double
    public var t: Double
    public var pValue: Double
    public var interval: Interval
    /// treatment mean / control mean − 1; nil when the control mean is 0.
    public var relativeLift: Double?
    /// Delta-method interval of the lift (normal approximation).
    public var relativeLiftInterval: Interval?

    /// Nil when either group has fewer than 2 values or both have no variance.
    public init?(control a: SampleSummary, treatment b: SampleSummary, confidence: Double = 0.95) {
        guard a.count >= 2, b.count >= 2 else { return nil }
        let va = a.standardErrorSquared, vb = b.standardErrorSquared
        let se2 = va + vb
        guard se2 > 0 else { return nil }
        difference = b.mean - a.mean
        standardError = se2.squareRoot()
        degreesOfFreedom = se2 * se2 / (va * va / Double(a.count - 1) + vb * vb / Double(b.count - 1))
        t = difference / standardError
        let dist = StudentT(df: degreesOfFreedom)
        pValue = dist.twoSidedP(t)
        let q = dist.quantile(1 - (1 - confidence) / 2)
        interval = Interval(low: difference - q * standardError, high: difference + q * standardError)
        if a.mean != 0 {
            let lift = b.mean / a.mean - 1
            let varLift = vb / (a.mean * a.mean) + b.mean * b.mean * va / (a.mean * a.mean * a.mean * a.mean)
            let z = StandardNormal.quantile(1 - (1 - confidence) / 2)
            relativeLift = lift
            relativeLiftInterval = Interval(low: lift - z * varLift.squareRoot(), high: lift + z * varLift.squareRoot())
        } else {
            relativeLift = nil
            relativeLiftInterval = nil
        }
    }
}

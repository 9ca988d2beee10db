import Foundation

/// The special functions behind the report's distributions, in Double.
///
/// Regularized incomplete beta by its continued fraction (modified Lentz),
/// regularized incomplete gamma by series below `a + 1` and continued
/// fraction above, `lgamma`/`erfc` from the C library. Held against SciPy to
/// 1e-6 (relative) by `StatisticsReferenceTests` and the fixture
/// `Tests/Fixtures/statistics/scipy-reference.json`
/// (`scripts/stats-reference.py`); in practice they agree to ~1e-12.
public enum SpecialFunctions {
    static let epsilon = 1e-15
    static let tiny = 1e-300
    static let maxIterations = 100_000

    /// ln Γ(x) for x > 0.
    public static func logGamma(_ x: Double) -> Double { lgamma(x) }

    /// I_x(a, b), the regularized incomplete beta function, for a, b > 0
    /// and 0 ≤ x ≤ 1 (NaN otherwise).
    public static func regularizedIncompleteBeta(a: Double, b: Double, x: Double) -> Double {
        guard a > 0, b > 0, x >= 0, x <= 1, !x.isNaN else { return .nan }
        if x == 0 { return 0 }
        if x == 1 { return 1 }
        let logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * log(x) + b * log1p(-x)
        // The continued fraction converges fast for x < (a + 1) / (a + b + 2);
        // otherwise use I_x(a, b) = 1 − I_{1−x}(b, a).
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * betaContinuedFraction(a: a, b: b, x: x) / a
        }
        return 1 - exp(logFront) * betaContinuedFraction(a: b, b: a, x: 1 - x) / b
    }

    /// The continued fraction of I_x(a, b) (Numerical Recipes' `betacf`
    /// form), evaluated by modified Lentz.
    static func betaContinuedFraction(a: Double, b: Double, x: Double) -> Double {
        let qab = a + b, qap = a + 1, qam = a - 1
        var c = 1.0
        var d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...maxIterations {
            let m = Double(m), m2 = 2 * m
            var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < epsilon { break }
        }
        return h
    }

    /// P(a, x), the regularized lower incomplete gamma function (a > 0, x ≥ 0).
    public static func regularizedGammaP(a: Double, x: Double) -> Double {
        guard a > 0, x >= 0 else { return .nan }
        if x == 0 { return 0 }
        if x.isInfinite { return 1 }
        return x < a + 1 ? gammaSeries(a: a, x: x) : 1 - gammaContinuedFraction(a: a, x: x)
    }

    /// Q(a, x) = 1 − P(a, x), computed directly in the upper tail (so small
    /// p-values keep their digits).
    public static func regularizedGammaQ(a: Double, x: Double) -> Double {
        guard a > 0, x >= 0 else { return .nan }
        if x == 0 { return 1 }
        if x.isInfinite { return 0 }
        return x < a + 1 ? 1 - gammaSeries(a: a, x: x) : gammaContinuedFraction(a: a, x: x)
    }

    static func gammaSeries(a: Double, x: Double) -> Double {
        var ap = a, sum = 1 / a, term = sum
        for _ in 0..<maxIterations {
            ap += 1
            term *= x / ap
            sum += term
            if abs(term) < abs(sum) * epsilon { break }
        }
        return sum * exp(-x + a * log(x) - logGamma(a))
    }

    static func gammaContinuedFraction(a: Double, x: Double) -> Double {
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var h = d
        for i in 1...maxIterations {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < epsilon { break }
        }
        return exp(-x + a * log(x) - logGamma(a)) * h
    }
}

import Foundation

/// The standard normal distribution.
public enum StandardNormal {
    public static func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
    /// P(Z > z), accurate in the far tail.
    public static func sf(_ z: Double) -> Double { 0.5 * erfc(z / 2.0.squareRoot()) }
    public static func pdf(_ z: Double) -> Double { exp(-0.5 * z * z) / (2 * Double.pi).squareRoot() }

    /// The z with cdf(z) = p, for 0 < p < 1: Acklam's rational
    /// approximation refined by Halley steps on `erfc` (full Double precision).
    public static func quantile(_ p: Double) -> Double {
        guard p > 0, p < 1 else { return p == 0 ? -.infinity : (p == 1 ? .infinity : .nan) }
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
                 -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
                 -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
                 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * log1p(-p)).squareRoot()
            x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        for _ in 0..<2 {
            let e = cdf(x) - p
            let u = e * (2 * Double.pi).squareRoot() * exp(x * x / 2)
            x -= u / (1 + x * u / 2)
        }
        return x
    }
}

/// Student's t distribution with `df` degrees of freedom (df > 0, not
/// necessarily whole: Welch's test gives fractional df).
public struct StudentT: Sendable {
    public let df: Double
    public init(df: Double) { self.df = df }

    /// P(|T| > |t|), from the incomplete beta directly (no 1 − x cancellation).
    public func twoSidedP(_ t: Double) -> Double {
        guard t.isFinite else { return t.isNaN ? .nan : 0 }
        return SpecialFunctions.regularizedIncompleteBeta(a: df / 2, b: 0.5, x: df / (df + t * t))
    }

    /// P(T > t).
    public func sf(_ t: Double) -> Double {
        let tail = twoSidedP(t) / 2
        return t >= 0 ? tail : 1 - tail
    }

    public func cdf(_ t: Double) -> Double { 1 - sf(t) }

    public func pdf(_ t: Double) -> Double {
        exp(SpecialFunctions.logGamma((df + 1) / 2) - SpecialFunctions.logGamma(df / 2) - 0.5 * log(df * Double.pi)
            - (df + 1) / 2 * log1p(t * t / df))
    }

    /// The t with cdf(t) = p (0 < p < 1): Newton steps kept inside a
    /// shrinking bracket (bisection when a step leaves it).
    public func quantile(_ p: Double) -> Double {
        guard p > 0, p < 1, df > 0 else { return p == 0 ? -.infinity : (p == 1 ? .infinity : .nan) }
        if p == 0.5 { return 0 }
        // Work in the upper half and mirror.
        let upper = p > 0.5
        let target = upper ? 1 - p : p // the tail probability sf(t) for t > 0
        var lo = 0.0, hi = max(1.0, StandardNormal.quantile(1 - target))
        while sf(hi) > target { lo = hi; hi *= 2; if hi > 1e300 { break } }
        var t = min(max(StandardNormal.quantile(1 - target), lo), hi)
        for _ in 0..<300 {
            let f = sf(t) - target // decreasing in t
            if f > 0 { lo = t } else { hi = t }
            let step = f / pdf(t) // Newton on sf: t_new = t + f / pdf
            var next = t + step
            if !(next > lo && next < hi) || !next.isFinite { next = (lo + hi) / 2 }
            if abs(next - t) <= 1e-14 * max(1, abs(t)) { t = next; break }
            t = next
        }
        return upper ? t : -t
    }
}

/// The chi-square distribution with `df` degrees of freedom.
public struct ChiSquare: Sendable {
    public let df: Double
    public init(df: Double) { self.df = df }
    public func cdf(_ x: Double) -> Double { x <= 0 ? 0 : SpecialFunctions.regularizedGammaP(a: df / 2, x: x / 2) }
    /// P(X > x), computed in the upper tail.
    public func sf(_ x: Double) -> Double { x <= 0 ? 1 : SpecialFunctions.regularizedGammaQ(a: df / 2, x: x / 2) }
}

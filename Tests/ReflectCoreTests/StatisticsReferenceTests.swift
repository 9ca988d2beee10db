import Foundation
import Testing
@testable import ReflectCore

/// The report's statistics against SciPy, on the fixed data of
/// Tests/Fixtures/statistics/scipy-reference.json (scripts/stats-reference.py
/// wrote it, with the samples). Tolerance 1e-6, relative above 1 and
/// absolute below.
@Suite("Statistics against SciPy")
struct StatisticsReferenceTests {
    struct Reference: Decodable {
        struct Beta: Decodable { var a, b, x, value: Double }
        struct Gamma: Decodable { var a, x, p, q: Double }
        struct T: Decodable { var df, t, sf, cdf: Double }
        struct TQ: Decodable { var df, p, value: Double }
        struct NQ: Decodable { var p, value: Double }
        struct Chi: Decodable { var df, x, sf: Double }
        struct Welch: Decodable {
            var control, treatment: [Double]
            var t, p, df: Double
            var ci_low, ci_high, lift, lift_low, lift_high: Double
        }
        struct Prop: Decodable {
            var x1, n1, x2, n2: Int
            var z, p, ci_low, ci_high: Double
        }
        struct GOF: Decodable {
            var observed: [Int]
            var shares: [Double]
            var statistic, p: Double
        }
        var scipy: String
        var incomplete_beta: [Beta]
        var incomplete_gamma: [Gamma]
        var student_t: [T]
        var student_t_quantile: [TQ]
        var normal_quantile: [NQ]
        var chi_square: [Chi]
        var welch: [Welch]
        var two_proportion: [Prop]
        var chi_square_gof: [GOF]
    }

    static let reference: Reference? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/statistics/scipy-reference.json")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(Reference.self, from: $0) }
    }()

    static func close(_ a: Double?, _ b: Double) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= 1e-6 * max(1, abs(b))
    }

    @Test("the fixture is there and readable")
    func fixture() throws {
        let r = try #require(Self.reference)
        #expect(!r.welch.isEmpty && !r.two_proportion.isEmpty && !r.chi_square_gof.isEmpty)
    }

    @Test("regularized incomplete beta and gamma")
    func specialFunctions() throws {
        let r = try #require(Self.reference)
        for c in r.incomplete_beta {
            #expect(Self.close(SpecialFunctions.regularizedIncompleteBeta(a: c.a, b: c.b, x: c.x), c.value), "I(\(c.a), \(c.b), \(c.x))")
        }
        for c in r.incomplete_gamma {
            #expect(Self.close(SpecialFunctions.regularizedGammaP(a: c.a, x: c.x), c.p), "P(\(c.a), \(c.x))")
            #expect(Self.close(SpecialFunctions.regularizedGammaQ(a: c.a, x: c.x), c.q), "Q(\(c.a), \(c.x))")
        }
    }

    @Test("t, normal and chi-square distributions and quantiles")
    func distributions() throws {
        let r = try #require(Self.reference)
        for c in r.student_t {
            #expect(Self.close(StudentT(df: c.df).sf(c.t), c.sf), "t sf(\(c.t); \(c.df))")
            #expect(Self.close(StudentT(df: c.df).cdf(c.t), c.cdf), "t cdf(\(c.t); \(c.df))")
        }
        for c in r.student_t_quantile {
            #expect(Self.close(StudentT(df: c.df).quantile(c.p), c.value), "t ppf(\(c.p); \(c.df))")
        }
        for c in r.normal_quantile { #expect(Self.close(StandardNormal.quantile(c.p), c.value), "norm ppf(\(c.p))") }
        for c in r.chi_square { #expect(Self.close(ChiSquare(df: c.df).sf(c.x), c.sf), "chi2 sf(\(c.x); \(c.df))") }
    }

    @Test("Welch's t-test: t, df, p, 95% interval, delta-method lift (ttest_ind(equal_var=False))")
    func welch() throws {
        let r = try #require(Self.reference)
        for (i, c) in r.welch.enumerated() {
            let w = try #require(WelchTest(control: SampleSummary(c.control), treatment: SampleSummary(c.treatment)))
            #expect(Self.close(w.t, c.t), "case \(i) t")
            #expect(Self.close(w.degreesOfFreedom, c.df), "case \(i) df")
            #expect(Self.close(w.pValue, c.p), "case \(i) p")
            #expect(Self.close(w.interval.low, c.ci_low) && Self.close(w.interval.high, c.ci_high), "case \(i) interval")
            #expect(Self.close(w.relativeLift, c.lift), "case \(i) lift")
            #expect(Self.close(w.relativeLiftInterval?.low, c.lift_low) && Self.close(w.relativeLiftInterval?.high, c.lift_high))
        }
    }

    @Test("Welch from running sums equals Welch from values (what the store aggregates)")
    func sums() throws {
        let r = try #require(Self.reference)
        for c in r.welch {
            let fromSums = SampleSummary(count: c.control.count, sum: c.control.reduce(0, +),
                                         sumOfSquares: c.control.reduce(0) { $0 + $1 * $1 })
            let direct = SampleSummary(c.control)
            #expect(abs(fromSums.mean - direct.mean) < 1e-9 && abs(fromSums.variance - direct.variance) < 1e-8 * max(1, direct.variance))
        }
    }

    @Test("two proportions: z, p (= 2×2 chi-square, no correction) and the Wald interval")
    func proportions() throws {
        let r = try #require(Self.reference)
        for c in r.two_proportion {
            guard let t = TwoProportionTest(controlSuccesses: c.x1, controlTotal: c.n1, treatmentSuccesses: c.x2, treatmentTotal: c.n2) else {
                // Equal rates give z = 0, still defined.
                Issue.record("no test for \(c.x1)/\(c.n1) vs \(c.x2)/\(c.n2)")
                continue
            }
            #expect(Self.close(t.z, c.z) && Self.close(t.pValue, c.p), "\(c.x1)/\(c.n1) vs \(c.x2)/\(c.n2)")
            #expect(Self.close(t.interval.low, c.ci_low) && Self.close(t.interval.high, c.ci_high))
        }
    }

    @Test("chi-square goodness of fit (chisquare)")
    func goodnessOfFit() throws {
        let r = try #require(Self.reference)
        for c in r.chi_square_gof {
            let t = try #require(ChiSquareTest(observed: c.observed, expectedShares: c.shares))
            #expect(Self.close(t.statistic, c.statistic) && Self.close(t.pValue, c.p), "\(c.observed)")
        }
    }

    @Test("degenerate inputs give no test instead of NaN")
    func degenerate() {
        #expect(WelchTest(control: SampleSummary([1]), treatment: SampleSummary([1, 2])) == nil)
        #expect(WelchTest(control: SampleSummary([1, 1]), treatment: SampleSummary([2, 2])) == nil)
        #expect(TwoProportionTest(controlSuccesses: 0, controlTotal: 0, treatmentSuccesses: 1, treatmentTotal: 2) == nil)
        #expect(ChiSquareTest(observed: [0, 0], expectedShares: [0.5, 0.5]) == nil)
    }
}

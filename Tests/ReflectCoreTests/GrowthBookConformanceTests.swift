import Foundation
import Testing
@testable import ReflectCore

/// Runs every vector of the hash, getBucketRange, chooseVariation,
/// getEqualWeights and inNamespace sections of GrowthBook's conformance
/// cases, read at test time from Tests/Fixtures/growthbook/growthbook-cases.json
/// (a copy of ../shared/conformance/growthbook-cases.json).
@Suite("GrowthBook conformance")
struct GrowthBookConformanceTests {
    static var cases: [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/growthbook/growthbook-cases.json")
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    static func section(_ name: String) -> [[Any]] { (cases[name] as? [[Any]]) ?? [] }

    /// Ranges are compared after floor(x·1e8)/1e8, as the reference tests do.
    static func floored(_ x: Double) -> Double { (x * 1e8).rounded(.down) / 1e8 }

    static func number(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }

    static func ranges(_ any: Any?) -> [GrowthBookHash.BucketRange] {
        ((any as? [[Any]]) ?? []).compactMap { pair in
            guard pair.count == 2, let s = number(pair[0]), let e = number(pair[1]) else { return nil }
            return GrowthBookHash.BucketRange(s, e)
        }
    }

    @Test("the fixture has the 63 vectors of the five sections")
    func fixtureIsComplete() {
        let counts = ["hash", "getBucketRange", "chooseVariation", "getEqualWeights", "inNamespace"].map { Self.section($0).count }
        #expect(counts == [15, 13, 13, 6, 16])
    }

    @Test("hash: every vector")
    func hash() {
        let vectors = Self.section("hash")
        #expect(!vectors.isEmpty)
        for v in vectors {
            guard let seed = v[0] as? String, let value = v[1] as? String, let version = Self.number(v[2]).map({ Int($0) }) else {
                Issue.record("malformed vector \(v)")
                continue
            }
            let got = GrowthBookHash.hash(seed: seed, value: value, version: version)
            if v[3] is NSNull {
                #expect(got == nil, "hash(\(seed), \(value), v\(version))")
            } else {
                #expect(got == Self.number(v[3]), "hash(\(seed), \(value), v\(version))")
            }
        }
    }

    @Test("hash: FNV-1a over UTF-16 code units (seed exp, id Zoë, v2 → 0.1884)")
    func nonASCII() {
        #expect(GrowthBookHash.hash(seed: "exp", value: "Zoë", version: 2) == 0.1884)
        // A character outside the BMP is two code units, as in JavaScript.
        #expect(GrowthBookHash.fnv1a32("😀") != GrowthBookHash.fnv1a32("\u{F600}"))
    }

    @Test("getBucketRange: every vector")
    func bucketRanges() {
        let vectors = Self.section("getBucketRange")
        #expect(!vectors.isEmpty)
        for v in vectors {
            guard let args = v[1] as? [Any], let n = Self.number(args[0]), let coverage = Self.number(args[1]) else {
                Issue.record("malformed vector \(v)")
                continue
            }
            let weights = (args[2] as? [Any])?.compactMap(Self.number)
            let got = GrowthBookHash.bucketRanges(count: Int(n), coverage: coverage, weights: weights)
            let want = Self.ranges(v[2])
            #expect(got.map { [Self.floored($0.start), Self.floored($0.end)] } == want.map { [Self.floored($0.start), Self.floored($0.end)] },
                    "\(v[0])")
        }
    }

    @Test("chooseVariation: every vector")
    func chooseVariation() {
        let vectors = Self.section("chooseVariation")
        #expect(!vectors.isEmpty)
        for v in vectors {
            guard let n = Self.number(v[1]), let want = Self.number(v[3]) else {
                Issue.record("malformed vector \(v)")
                continue
            }
            let got = GrowthBookHash.chooseVariation(n, ranges: Self.ranges(v[2])) ?? -1
            #expect(got == Int(want), "\(v[0])")
        }
    }

    @Test("getEqualWeights: every vector")
    func equalWeights() {
        let vectors = Self.section("getEqualWeights")
        #expect(!vectors.isEmpty)
        for v in vectors {
            guard let n = Self.number(v[0]), let want = (v[1] as? [Any])?.compactMap(Self.number) else {
                Issue.record("malformed vector \(v)")
                continue
            }
            #expect(GrowthBookHash.equalWeights(Int(n)).map(Self.floored) == want.map(Self.floored), "n = \(n)")
        }
    }

    @Test("inNamespace: every vector")
    func inNamespace() {
        let vectors = Self.section("inNamespace")
        #expect(!vectors.isEmpty)
        for v in vectors {
            guard let id = v[1] as? String, let ns = v[2] as? [Any], let nsID = ns[0] as? String,
                  let start = Self.number(ns[1]), let end = Self.number(ns[2]), let want = v[3] as? Bool else {
                Issue.record("malformed vector \(v)")
                continue
            }
            #expect(GrowthBookHash.inNamespace(userID: id, namespace: Namespace(id: nsID, start: start, end: end)) == want, "\(v[0])")
        }
    }
}

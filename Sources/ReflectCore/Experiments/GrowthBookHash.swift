/// GrowthBook's deterministic bucketing, offline: the same person, seed and
/// settings give the same bucket on every device and in every SDK.
///
/// Follows the reference JavaScript SDK exactly: FNV-1a 32-bit over UTF-16
/// code units, and Double arithmetic for ranges (held by
/// `GrowthBookConformanceTests`, which runs the shared conformance vectors).
public enum GrowthBookHash {
    /// FNV-1a, 32 bits, over the string's UTF-16 code units (as JavaScript's
    /// `charCodeAt` sees them).
    public static func fnv1a32(_ text: String) -> UInt32 {
        var h: UInt32 = 0x811C_9DC5
        for unit in text.utf16 {
            h ^= UInt32(unit)
            h = h &* 0x0100_0193
        }
        return h
    }

    /// A number in [0, 1) for `value` under `seed`:
    /// - version 2: `fnv1a32(decimal(fnv1a32(seed + value))) % 10000 / 10000`;
    /// - version 1: `fnv1a32(value + seed) % 1000 / 1000`;
    /// - any other version: nil.
    public static func hash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 2: Double(fnv1a32(String(fnv1a32(seed + value))) % 10_000) / 10_000
        case 1: Double(fnv1a32(value + seed) % 1_000) / 1_000
        default: nil
        }
    }

    /// `n` equal weights summing to 1; empty for `n <= 0`.
    public static func equalWeights(_ n: Int) -> [Double] {
        n <= 0 ? [] : Array(repeating: 1 / Double(n), count: n)
    }

    /// One arm's share of [0, 1): a person whose hash falls in
    /// `[start, end)` gets that arm.
    public struct BucketRange: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public init(_ start: Double, _ end: Double) {
            self.start = start
            self.end = end
        }
        public func contains(_ n: Double) -> Bool { n >= start && n < end }
    }

    /// The ranges of `count` arms. Coverage is clamped to [0, 1]; weights of
    /// the wrong count, or not summing to 1 ± 0.01, fall back to equal
    /// weights. Each arm starts where the full-coverage arm would start and
    /// covers `coverage × weight` of it, so lowering coverage shrinks arms in
    /// place and never moves a person from one arm to another.
    public static func bucketRanges(count: Int, coverage: Double = 1, weights: [Double]? = nil) -> [BucketRange] {
        let coverage = coverage.isNaN ? 0 : min(max(coverage, 0), 1)
        let equal = equalWeights(count)
        var w = weights ?? equal
        if w.count != count { w = equal }
        let total = w.reduce(0, +)
        if !(total >= 0.99 && total <= 1.01) { w = equal }
        var cumulative = 0.0
        return w.map { weight in
            let start = cumulative
            cumulative += weight
            return BucketRange(start, start + coverage * weight)
        }
    }

    /// The index of the range holding `n`, or nil (not in the experiment).
    public static func chooseVariation(_ n: Double, ranges: [BucketRange]) -> Int? {
        ranges.firstIndex { $0.contains(n) }
    }

    /// Whether `userID` falls in the namespace's share `[start, end)`:
    /// experiments of one namespace with disjoint shares never share a person.
    public static func inNamespace(userID: String, namespace: Namespace) -> Bool {
        guard let n = hash(seed: "__" + namespace.id, value: userID, version: 1) else { return false }
        return n >= namespace.start && n < namespace.end
    }
}

/// A namespace share: mutually exclusive experiments take disjoint ranges of
/// the same namespace id.
public struct Namespace: Sendable, Equatable, Codable {
    public var id: String
    public var start: Double
    public var end: Double
    public init(id: String, start: Double, end: Double) {
        self.id = id
        self.start = start
        self.end = end
    }
    public func overlaps(_ other: Namespace) -> Bool { id == other.id && start < other.end && other.start < end }
}

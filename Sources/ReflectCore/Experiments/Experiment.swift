/// An A/B test of wording, as content: which arms exist, who takes part, and
/// how people are split (GrowthBook's rules, see ``GrowthBookHash``).
///
/// The first variation is the control. A person outside every bucket range
/// (coverage below 1, another namespace share) is not in the experiment:
/// they see the control text and are never counted.
public struct Experiment: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable, Codable {
        case draft, running, stopped
    }

    public var key: String
    /// Hash seed; a new seed re-randomizes everyone. Default: the key.
    public var seed: String
    /// 2 (default) or 1 (GrowthBook's legacy hash).
    public var hashVersion: Int
    public var status: Status
    /// First and last local day (`YYYY-MM-DD`) the experiment assigns people; nil: open.
    public var startDay: String?
    public var endDay: String?
    /// Bumping it re-randomizes people who already have a stored assignment.
    public var bucketVersion: Int
    public var variations: [ExperimentVariation]
    /// Nil: equal. Wrong count or a sum outside 1 ± 0.01 also means equal.
    public var weights: [Double]?
    /// Share of people in the experiment, 0–1.
    public var coverage: Double
    public var targeting: ExperimentTargeting
    public var namespace: Namespace?

    public init(key: String, seed: String? = nil, hashVersion: Int = 2, status: Status = .running, startDay: String? = nil,
                endDay: String? = nil, bucketVersion: Int = 0, variations: [ExperimentVariation], weights: [Double]? = nil,
                coverage: Double = 1, targeting: ExperimentTargeting = ExperimentTargeting(), namespace: Namespace? = nil) {
        self.key = key
        self.seed = seed ?? key
        self.hashVersion = hashVersion
        self.status = status
        self.startDay = startDay
        self.endDay = endDay
        self.bucketVersion = bucketVersion
        self.variations = variations
        self.weights = weights
        self.coverage = coverage
        self.targeting = targeting
        self.namespace = namespace
    }

    public var control: ExperimentVariation? { variations.first }

    /// The weights actually used (GrowthBook's fallback to equal weights applied).
    public var effectiveWeights: [Double] {
        let equal = GrowthBookHash.equalWeights(variations.count)
        guard let weights, weights.count == variations.count else { return equal }
        let total = weights.reduce(0, +)
        return total >= 0.99 && total <= 1.01 ? weights : equal
    }

    public var bucketRanges: [GrowthBookHash.BucketRange] {
        GrowthBookHash.bucketRanges(count: variations.count, coverage: coverage, weights: weights)
    }

    /// Whether the experiment assigns people in this context now.
    public func applies(to context: ExperimentContext) -> Bool {
        guard status == .running, targeting.matches(context) else { return false }
        if let startDay, let day = context.day, day < startDay { return false }
        if let endDay, let day = context.day, day > endDay { return false }
        return true
    }

    /// The person's arm, or nil when they are not in the experiment (it does
    /// not apply, their hash is outside every range or their namespace share).
    ///
    /// `sticky` is the variation id stored for this person, this
    /// ``bucketVersion`` and this ``seed`` (the one they have seen): it wins
    /// over weights and coverage as long as that variation still exists. A
    /// new seed re-randomizes everyone (the caller finds no sticky arm for
    /// it); a new bucket version does too.
    public func assign(_ context: ExperimentContext, sticky: String? = nil) -> VariantAssignment? {
        guard applies(to: context) else { return nil }
        if let sticky, variations.contains(where: { $0.id == sticky }) {
            return VariantAssignment(experiment: key, variation: sticky, bucketVersion: bucketVersion, seed: seed)
        }
        if let namespace, !GrowthBookHash.inNamespace(userID: context.user, namespace: namespace) { return nil }
        guard let n = GrowthBookHash.hash(seed: seed, value: context.user, version: hashVersion),
              let index = GrowthBookHash.chooseVariation(n, ranges: bucketRanges) else { return nil }
        return VariantAssignment(experiment: key, variation: variations[index].id, bucketVersion: bucketVersion, seed: seed)
    }
}

/// One arm: what it changes.
public struct ExperimentVariation: Sendable, Equatable {
    public var id: String
    /// Locale string overrides by locale tag, then key (per-key fallback: a
    /// key the variation does not override keeps the locale's text).
    public var strings: [String: [String: String]]
    /// A personality pack whose voice this arm uses, if any.
    public var personality: String?

    public init(id: String, strings: [String: [String: String]] = [:], personality: String? = nil) {
        self.id = id
        self.strings = strings
        self.personality = personality
    }
}

/// Which sessions an experiment applies to; an empty list means "any".
public struct ExperimentTargeting: Sendable, Equatable {
    /// Flow ids, or families (`reflection` matches `reflection.negative`).
    public var flows: [String]
    public var locales: [String]
    public var moods: [Mood]

    public init(flows: [String] = [], locales: [String] = [], moods: [Mood] = []) {
        self.flows = flows
        self.locales = locales
        self.moods = moods
    }

    public func matches(_ c: ExperimentContext) -> Bool {
        if !flows.isEmpty, !flows.contains(where: { c.flow == $0 || c.flow.hasPrefix($0 + ".") }) { return false }
        if !locales.isEmpty, !locales.contains(where: { c.locale == $0 || c.locale.hasPrefix($0 + "-") }) { return false }
        if !moods.isEmpty, !(c.mood.map(moods.contains) ?? false) { return false }
        return true
    }
}

/// Who and what a session is, for assignment.
public struct ExperimentContext: Sendable, Equatable {
    public var user: String
    public var flow: String
    public var locale: String
    public var mood: Mood?
    /// The local day (`YYYY-MM-DD`), for start and end dates; nil: ignore dates.
    public var day: String?

    public init(user: String, flow: String, locale: String, mood: Mood? = nil, day: String? = nil) {
        self.user = user
        self.flow = flow
        self.locale = locale
        self.mood = mood
        self.day = day
    }
}

/// A person's arm in one experiment, as kept in a session's save (so back,
/// resume and crash recovery show the same wording) and in the store (so it
/// is sticky across sessions).
public struct VariantAssignment: Sendable, Equatable, Codable, Hashable {
    public var experiment: String
    public var variation: String
    public var bucketVersion: Int
    /// The hash seed the arm was chosen under (nil in saves written before
    /// seeds were recorded): a sticky arm holds only under the same seed.
    public var seed: String?

    public init(experiment: String, variation: String, bucketVersion: Int = 0, seed: String? = nil) {
        self.experiment = experiment
        self.variation = variation
        self.bucketVersion = bucketVersion
        self.seed = seed
    }

    enum CodingKeys: String, CodingKey {
        case experiment, variation, seed
        case bucketVersion = "bucket_version"
    }
}

/// Experiment keys and variation ids: 1–64 characters, a lowercase letter
/// or digit, then lowercase letters, digits, `_ - .`.
public enum ExperimentKey {
    public static func isValid(_ s: String) -> Bool {
        guard let first = s.first, s.utf8.count <= 64, first.isASCII, first.isLowercase || first.isNumber else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }
    }
}

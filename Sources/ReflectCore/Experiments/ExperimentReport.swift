/// The answer to "did the new wording help?", computed from the store's
/// per-arm sums (``ExperimentAggregates``) and the experiment's settings.
///
/// - Primary metric: intensity change (pre − post; higher is more relief),
///   intent to treat: every exposed session counts, one that did not finish
///   counts as 0. Welch's t-test against control, the difference's 95%
///   interval and the relative lift's delta-method interval.
/// - Secondary: the completers' mean (sessions that finished with both
///   intensities), flagged as biased when completion rates differ.
/// - Proportions: completion (per exposed session) and "came back within
///   7 days" (per person), two-proportion z-tests.
/// - Sample ratio mismatch: chi-square of people per arm against the
///   configured weights; p < 0.001 prints a warning and no verdict.
/// - Per-person check: the unit is the exposed session, but sessions of one
///   person are not independent, so when anyone has more than one exposed
///   session the primary test is also run on each person's mean change
///   (every person once). A verdict the per-person test does not reach
///   (another significance or direction) is marked unconfirmed.
public struct ExperimentReport: Sendable, Codable {
    public static let alpha = 0.05
    public static let srmThreshold = 0.001

    public struct Arm: Sendable, Codable {
        public var variation: String
        /// The configured weight (after GrowthBook's fallback), nil for an
        /// arm that is in the data but no longer configured.
        public var weight: Double?
        public var people: Int
        public var sessions: Int
        public var completedSessions: Int
        public var completionRate: Double?
        /// Intent to treat: every exposed session.
        public var intentToTreat: SampleSummary
        /// Completers only.
        public var completers: SampleSummary
        public var returnRate: Double?
        public var returnedPeople: Int
        /// Intent to treat counted per person: each person's mean change once.
        public var perPerson: SampleSummary
        /// People with more than one exposed session, and the most any one has.
        public var repeatPeople: Int
        public var mostSessions: Int
    }

    public enum Verdict: String, Sendable, Codable {
        /// More relief than control (p < 0.05 on the primary metric).
        case better
        /// Less relief than control.
        case worse
        /// No difference detectable with this many sessions.
        case inconclusive
    }

    public struct Comparison: Sendable, Codable {
        public var variation: String
        public var intentToTreat: WelchTest?
        public var completers: WelchTest?
        public var completion: TwoProportionTest?
        public var returned: TwoProportionTest?
        /// The primary test on each person's mean change (every person once).
        public var perPerson: WelchTest?
        /// Nil when the sample ratio mismatch warning is raised, or there is
        /// not enough data for a test.
        public var verdict: Verdict?
        /// Whether the per-person test reaches the same verdict: nil when
        /// there is no verdict or nobody has more than one exposed session
        /// (then both tests are the same test).
        public var confirmedPerPerson: Bool?
    }

    public var experiment: String
    public var status: Experiment.Status?
    public var control: String
    public var arms: [Arm]
    public var comparisons: [Comparison]
    public var excludedPeople: Int
    public var sampleRatio: ChiSquareTest?
    /// p < 0.001: the split is not what was configured; no verdict.
    public var sampleRatioMismatch: Bool
    /// Completion rates differ (p < 0.05): the completers' comparison is biased.
    public var completionDiffers: Bool
    /// People (in the report's arms) with more than one exposed session, and
    /// the most exposed sessions any one person has.
    public var repeatPeople: Int
    public var mostSessionsPerPerson: Int

    public init(experiment: Experiment, aggregates: ExperimentAggregates) {
        self.experiment = experiment.key
        status = experiment.status
        control = experiment.control?.id ?? ""
        excludedPeople = aggregates.excludedPeople
        let weights = experiment.effectiveWeights
        var ids = experiment.variations.map(\.id)
        for a in aggregates.arms where !ids.contains(a.variation) { ids.append(a.variation) }
        arms = ids.map { id in
            let a = aggregates.arms.first { $0.variation == id }
                ?? ArmAggregate(variation: id, people: 0, sessions: 0, completedSessions: 0, completers: 0, changeSum: 0, changeSquares: 0,
                                returnedPeople: 0)
            let weight = experiment.variations.firstIndex { $0.id == id }.map { weights[$0] }
            return Arm(variation: id, weight: weight, people: a.people, sessions: a.sessions, completedSessions: a.completedSessions,
                       completionRate: a.sessions > 0 ? Double(a.completedSessions) / Double(a.sessions) : nil,
                       intentToTreat: SampleSummary(count: a.sessions, sum: Double(a.changeSum), sumOfSquares: Double(a.changeSquares)),
                       completers: SampleSummary(count: a.completers, sum: Double(a.changeSum), sumOfSquares: Double(a.changeSquares)),
                       returnRate: a.people > 0 ? Double(a.returnedPeople) / Double(a.people) : nil, returnedPeople: a.returnedPeople,
                       perPerson: SampleSummary(count: a.people, sum: a.personMeanSum, sumOfSquares: a.personMeanSquares),
                       repeatPeople: a.repeatPeople, mostSessions: a.mostSessions)
        }
        repeatPeople = arms.reduce(0) { $0 + $1.repeatPeople }
        mostSessionsPerPerson = arms.map(\.mostSessions).max() ?? 0
        let configured = arms.filter { $0.weight != nil }
        sampleRatio = ChiSquareTest(observed: configured.map(\.people), expectedShares: configured.map { $0.weight ?? 0 })
        sampleRatioMismatch = (sampleRatio?.pValue ?? 1) < ExperimentReport.srmThreshold
        guard let base = arms.first else {
            comparisons = []
            completionDiffers = false
            return
        }
        let srm = sampleRatioMismatch
        let repeats = repeatPeople > 0
        comparisons = arms.dropFirst().map { arm in
            let itt = WelchTest(control: base.intentToTreat, treatment: arm.intentToTreat)
            let perPerson = WelchTest(control: base.perPerson, treatment: arm.perPerson)
            var verdict: Verdict?
            if let itt, !srm { verdict = ExperimentReport.verdict(itt) }
            var confirmed: Bool?
            if let verdict, repeats { confirmed = perPerson.map(ExperimentReport.verdict) == verdict }
            return Comparison(variation: arm.variation, intentToTreat: itt,
                              completers: WelchTest(control: base.completers, treatment: arm.completers),
                              completion: TwoProportionTest(controlSuccesses: base.completedSessions, controlTotal: base.sessions,
                                                            treatmentSuccesses: arm.completedSessions, treatmentTotal: arm.sessions),
                              returned: TwoProportionTest(controlSuccesses: base.returnedPeople, controlTotal: base.people,
                                                          treatmentSuccesses: arm.returnedPeople, treatmentTotal: arm.people),
                              perPerson: perPerson, verdict: verdict, confirmedPerPerson: confirmed)
        }
        completionDiffers = comparisons.contains { ($0.completion?.pValue ?? 1) < ExperimentReport.alpha }
    }

    /// The primary metric's p-value of the first treatment arm (what the
    /// simulation counts).
    public var primaryPValue: Double? { comparisons.first?.intentToTreat?.pValue }

    /// The same, counted per person (each person's mean change once).
    public var perPersonPValue: Double? { comparisons.first?.perPerson?.pValue }

    /// Better, worse or inconclusive at ``alpha``.
    static func verdict(_ test: WelchTest) -> Verdict {
        test.pValue < alpha ? (test.difference > 0 ? .better : .worse) : .inconclusive
    }
}

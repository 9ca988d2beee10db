/// What the store sums up per arm of an experiment: the report's only input
/// besides the experiment's configuration (``ExperimentReport``).
public struct ExperimentAggregates: Sendable, Equatable, Codable {
    public var experiment: String
    public var arms: [ArmAggregate]
    /// People exposed to more than one variation (left out of every figure).
    public var excludedPeople: Int

    public init(experiment: String, arms: [ArmAggregate] = [], excludedPeople: Int = 0) {
        self.experiment = experiment
        self.arms = arms
        self.excludedPeople = excludedPeople
    }
}

/// One arm's sums. The unit is the exposed session; `changeSum` and
/// `changeSquares` are over every exposed session with 0 for one that did not
/// finish (intent to treat), so they are also the completers' sums.
public struct ArmAggregate: Sendable, Equatable, Codable {
    public var variation: String
    public var people: Int
    public var sessions: Int
    /// Exposed sessions that finished.
    public var completedSessions: Int
    /// Finished sessions with both intensities (the completers' n).
    public var completers: Int
    /// Σ (pre − post) and Σ (pre − post)² over completers.
    public var changeSum: Int
    public var changeSquares: Int
    /// People who started another session within 7 days of their first exposure.
    public var returnedPeople: Int
    /// The same metric counted per person: Σ m and Σ m² over the arm's
    /// `people`, where m is one person's mean intensity change over their
    /// exposed sessions (intent to treat). Sessions of one person are not
    /// independent; this is what the report checks its verdict against.
    public var personMeanSum: Double
    public var personMeanSquares: Double
    /// People of this arm with more than one exposed session, and the most
    /// exposed sessions any one person has.
    public var repeatPeople: Int
    public var mostSessions: Int

    public init(variation: String, people: Int, sessions: Int, completedSessions: Int, completers: Int, changeSum: Int,
                changeSquares: Int, returnedPeople: Int, personMeanSum: Double = 0, personMeanSquares: Double = 0,
                repeatPeople: Int = 0, mostSessions: Int = 0) {
        self.variation = variation
        self.people = people
        self.sessions = sessions
        self.completedSessions = completedSessions
        self.completers = completers
        self.changeSum = changeSum
        self.changeSquares = changeSquares
        self.returnedPeople = returnedPeople
        self.personMeanSum = personMeanSum
        self.personMeanSquares = personMeanSquares
        self.repeatPeople = repeatPeople
        self.mostSessions = mostSessions
    }
}

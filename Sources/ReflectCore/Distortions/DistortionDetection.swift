/// What the detector says about one thought: a type and how sure it is.
public struct DistortionDetection: Sendable, Equatable {
    /// The named type, or `unknown` when nothing matched or the confidence
    /// is below the locale's threshold.
    public var type: DistortionType
    /// The best candidate's confidence, 0 … 1 (also when it fell short of
    /// the threshold and `type` is `unknown`; 0 when nothing matched).
    public var confidence: Double
    /// The best candidate type, even when it fell short (`unknown` when
    /// nothing matched).
    public var candidate: DistortionType

    public init(type: DistortionType, confidence: Double, candidate: DistortionType) {
        self.type = type
        self.confidence = confidence
        self.candidate = candidate
    }

    public static let none = DistortionDetection(type: .unknown, confidence: 0, candidate: .unknown)
}

/// Why the detector decided as it did (`reflect detect --explain`).
public struct DistortionExplanation: Sendable, Equatable {
    /// One rule that matched somewhere in the thought.
    public struct Match: Sendable, Equatable {
        public enum Status: Sendable, Equatable {
            /// Adds the rule's weight to its type.
            case counted
            /// Cancelled by a negation word (the word as found).
            case negated(by: String)
            /// Inside someone else's quoted words.
            case quoted
        }

        public var type: DistortionType
        public var strength: DistortionRules.Strength
        /// The rule as written in the locale file.
        public var rule: String
        /// The matched words (normalised text).
        public var text: String
        public var status: Status
    }

    /// One type's combined score: 1 − Π(1 − weight) over its counted rules.
    public struct Score: Sendable, Equatable {
        public var type: DistortionType
        public var score: Double
        public var rules: Int
        /// The score from rules sharing no words with the winner's matches
        /// (what competes with the winner; the winner's own is its score).
        public var competing: Double
        /// Where its first counted match starts (byte offset in the
        /// normalised text; breaks ties between scores).
        public var start: Int
    }

    public var matches: [Match]
    /// Types with a counted rule, best first (ties in priority order).
    public var scores: [Score]
    public var detection: DistortionDetection
    public var threshold: Double
    /// The locale's priority order (breaks ties).
    public var priority: [DistortionType]
}

/// A locale's distortion rules: the content a ``DistortionDetector`` is
/// compiled from (the `distortions:` section of `locales/<tag>.yaml`;
/// docs/distortions.md is the author's guide).
///
/// A rule is a readable pattern of one or more pieces:
/// - `my fault` — a phrase (whole words in `word` mode, a stem in `substring` mode);
/// - `i'm a {trait_noun}` — a slot: any entry of the slot list, right after
///   the piece before it (only spaces between);
/// - `what if ... {bad_outcome}` — `...` (or `…`): the next piece comes
///   anywhere later in the same sentence.
///
/// Each rule has a strength (its weight); a thought's score for a type
/// combines the weights of the type's rules that matched, and the detector
/// names the best type only when its confidence reaches `threshold`.
public struct DistortionRules: Sendable, Equatable {
    /// How much one matching rule says on its own.
    public enum Strength: String, Sendable, CaseIterable, Comparable {
        case strong, medium, weak

        /// The rule's weight: strong 0.9, medium 0.6, weak 0.3.
        public var weight: Double {
            switch self {
            case .strong: 0.9
            case .medium: 0.6
            case .weak: 0.3
            }
        }

        public static func < (a: Strength, b: Strength) -> Bool { a.weight > b.weight }
    }

    /// One type's rules, by strength.
    public struct Cues: Sendable, Equatable {
        public var strong: [String]
        public var medium: [String]
        public var weak: [String]

        public init(strong: [String] = [], medium: [String] = [], weak: [String] = []) {
            self.strong = strong
            self.medium = medium
            self.weak = weak
        }

        public subscript(strength: Strength) -> [String] {
            get {
                switch strength {
                case .strong: strong
                case .medium: medium
                case .weak: weak
                }
            }
            set {
                switch strength {
                case .strong: strong = newValue
                case .medium: medium = newValue
                case .weak: weak = newValue
                }
            }
        }

        public var isEmpty: Bool { strong.isEmpty && medium.isEmpty && weak.isEmpty }
    }

    /// Words that cancel a rule's match: `before` it (English "not", "n't")
    /// or `after` it (Japanese じゃない, Korean 아니), within `window` words
    /// (`word` mode) or characters (`substring` mode), in the same clause.
    public struct Negation: Sendable, Equatable {
        public var before: [String]
        public var after: [String]
        public var window: Int

        public init(before: [String] = [], after: [String] = [], window: Int = 3) {
            self.before = before
            self.after = after
            self.window = window
        }
    }

    /// The lowest confidence that names a type; below it the thought is `unknown`.
    public static let defaultThreshold = 0.5

    /// Type names, most specific first: breaks ties between equal scores.
    public var priority: [String]
    /// Rules per type name.
    public var cues: [String: Cues]
    /// Slot lists, by slot name (entries may use other slots).
    public var slots: [String: [String]]
    public var threshold: Double
    public var negation: Negation
    /// Words that end a clause for negation ("but", "although"); clause
    /// punctuation (, ; : . ! ? and their full-width forms) always does.
    public var clauseBreaks: [String]
    /// Frames that make a following quotation the person's own thought
    /// ("i keep thinking", "i told myself"). Other quoted words are someone
    /// else's and are not matched.
    public var ownWords: [String]

    public init(priority: [String], cues: [String: Cues], slots: [String: [String]] = [:],
                threshold: Double = DistortionRules.defaultThreshold, negation: Negation = Negation(),
                clauseBreaks: [String] = [], ownWords: [String] = []) {
        self.priority = priority
        self.cues = cues
        self.slots = slots
        self.threshold = threshold
        self.negation = negation
        self.clauseBreaks = clauseBreaks
        self.ownWords = ownWords
    }

    /// Rules written as plain phrase lists, every phrase `strong` (the
    /// first pass's format; also how tests build small rule sets).
    public init(priority: [String], phrases: [String: [String]], slots: [String: [String]] = [:]) {
        self.init(priority: priority, cues: phrases.mapValues { Cues(strong: $0) }, slots: slots)
    }
}

/// What the safety gate and the output filter read from a locale file's
/// `safety:` section. Data tunes the gate; it cannot switch it off: the
/// categories, the normalisation and the rules are in code.
public struct SafetyData: Sendable, Equatable {
    /// Crisis phrases by category (see ``SafetyCategory``); slots as in
    /// ``PhraseLexicon``.
    public var phrases: [String: [String]]
    public var slots: [String: [String]]
    /// Idioms that contain crisis words but are harmless ("killing it at
    /// work", "to die for", "Suicide Squad"): blanked out before matching.
    public var benign: [String]
    /// Words that, just before a crisis phrase, negate it ("never", "don't").
    public var negations: [String]
    /// Negations that follow what they negate: a crisis phrase whose clause
    /// ends with one of them, right after it, does not count (German "Er
    /// schlägt mich nicht.", "Ich bringe mich nicht um"; Japanese
    /// 死ぬつもりはない). For languages that negate after the verb; see
    /// ``SafetyGate/negated(after:in:by:)``.
    public var negationsAfter: [String]
    /// Output filter: medical-boundary phrases by kind (`diagnosis`, `medication`).
    public var medical: [String: [String]]
    /// Crisis resources by region (`US`, `DE`, …, and `default`), one line each.
    /// Shown for every category.
    public var resources: [String: [String]]
    /// Topic helplines by category and region (domestic-violence lines for
    /// `abuse`, drug and alcohol lines for `substance_abuse`), shown before
    /// the crisis lines of ``resources``.
    public var helplines: [SafetyCategory: [String: [String]]]
    /// The region assumed for this locale when none is given.
    public var defaultRegion: String?

    public init(phrases: [String: [String]] = [:], slots: [String: [String]] = [:], benign: [String] = [], negations: [String] = [],
                negationsAfter: [String] = [], medical: [String: [String]] = [:], resources: [String: [String]] = [:],
                helplines: [SafetyCategory: [String: [String]]] = [:], defaultRegion: String? = nil) {
        self.phrases = phrases
        self.slots = slots
        self.benign = benign
        self.negations = negations
        self.negationsAfter = negationsAfter
        self.medical = medical
        self.resources = resources
        self.helplines = helplines
        self.defaultRegion = defaultRegion
    }
}

/// What a person's words may signal, most urgent first. The raw values are
/// the names used in locale files, the `safety` event, the stored flag and
/// `reflect safety` output.
public enum SafetyCategory: String, Sendable, Codable, CaseIterable {
    case suicide
    case selfHarm = "self_harm"
    case crisis
    /// Being hurt, threatened or controlled by a partner or family member;
    /// not safe at home.
    case abuse
    /// Overdose, using to cope or to stop feeling, withdrawal.
    case substanceAbuse = "substance_abuse"
}

/// The gate's decision about one text.
public enum SafetyVerdict: Sendable, Equatable {
    case ok
    case crisis(SafetyCategory)
}

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
    /// They may use the slots ("cut myself a {portion}").
    public var benign: [String]
    /// Phrases that keep a benign idiom they overlap from being blanked
    /// (`benign_unless`): each is written as an idiom carried on by what
    /// makes it no idiom ("rather die than {go_on}", "{live}くらいなら死んだほうがまし"),
    /// so "I'd rather die than go on like this" is matched as written while
    /// "I'd rather die than go to that party" stays quiet. They may use the
    /// slots; they flag nothing themselves.
    public var benignUnless: [String]
    /// Words that, just before a crisis phrase, negate it ("never", "don't").
    public var negations: [String]
    /// Negations that follow what they negate: a crisis phrase whose clause
    /// ends with one of them, right after it, does not count (German "Er
    /// schlägt mich nicht.", "Ich bringe mich nicht um"; Japanese
    /// 死ぬつもりはない). For languages that negate after the verb; see
    /// ``SafetyGate/negated(after:in:by:scope:)`` and ``negationsAfterScope``.
    public var negationsAfter: [String]
    /// How much of the clause after a crisis phrase a ``negationsAfter``
    /// entry must cover (`negations_after_scope`).
    public var negationsAfterScope: NegationScope
    /// Phrases that say a negation in their sentence is untrue ("I'd be
    /// lying", "it would be a lie", 거짓말, 嘘): a crisis phrase in the
    /// same sentence as one of them counts even when a negation
    /// (``negations``, ``negationsAfter``) or a benign idiom over it would
    /// cancel it ("if I said I didn't want to die I'd be lying"). A voiding
    /// phrase that is itself negated ("I'm not lying") or blanked by a
    /// benign idiom (거짓말 아니야) voids nothing. `negations_void`.
    public var negationsVoid: [String]
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

    public init(phrases: [String: [String]] = [:], slots: [String: [String]] = [:], benign: [String] = [], benignUnless: [String] = [], negations: [String] = [],
                negationsAfter: [String] = [], negationsAfterScope: NegationScope = .clause,
                negationsVoid: [String] = [], medical: [String: [String]] = [:], resources: [String: [String]] = [:],
                helplines: [SafetyCategory: [String: [String]]] = [:], defaultRegion: String? = nil) {
        self.phrases = phrases
        self.slots = slots
        self.benign = benign
        self.benignUnless = benignUnless
        self.negations = negations
        self.negationsAfter = negationsAfter
        self.negationsAfterScope = negationsAfterScope
        self.negationsVoid = negationsVoid
        self.medical = medical
        self.resources = resources
        self.helplines = helplines
        self.defaultRegion = defaultRegion
    }
}

/// How much of what follows a crisis phrase a negation after it
/// (``SafetyData/negationsAfter``) must cover to cancel it; see
/// ``SafetyGate/negated(after:in:by:scope:)``.
public enum NegationScope: String, Sendable, Equatable, CaseIterable {
    /// The whole rest of the clause, up to `, . ; : ! ?` (in substring
    /// mode also up to a space, which is where Japanese 。 and 、 are): German
    /// "Er schlägt mich | nicht.", Japanese 死ぬつもり|はない. "…nicht nur"
    /// or 傷つけ|ないと落ち着かない stay alarms.
    case clause
    /// Whole words right after the phrase (or after the spaces that follow
    /// it), across spaces, ending where a word ends: Korean, which writes
    /// spaces inside its negations (하고 싶|지는 않아, 자해| 안 해) and ends
    /// a sentence with the verb's ending, often without punctuation. The
    /// list must hold only endings that close the sentence: 않아 but not
    /// 않은 (죽고 싶지 않은 날이 없어) or 않고 (자해하지 않고 버틸 수가 없어).
    case words
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

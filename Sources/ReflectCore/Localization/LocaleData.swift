/// One locale's content, as loaded from `locales/<tag>.yaml`: strings by
/// key, and the word lists the core matches text against.
public struct LocaleData: Sendable, Equatable {
    public var tag: String
    public var name: String
    /// How word lists match in this language: whole words (alphabetic
    /// scripts) or substrings (Japanese, Korean).
    public var matching: PhraseMatcher.Mode
    /// Translated strings by key. Only entries fit to show are here (see
    /// ``Localizer``); a locale may hold a subset.
    public var strings: [String: String]
    public var probe: ProbeData
    /// Distortion rules and threshold; nil when the locale has none (the
    /// detector then falls back along the chain).
    public var distortions: DistortionRules?
    /// Words for yes/no and checklist marks in this language.
    public var answerWords: AnswerWords
    /// Crisis language, benign idioms, medical-boundary phrases, resources.
    public var safety: SafetyData?
    /// Theme word lists for auto-tagging; nil when the locale has none
    /// (tagging then falls back along the chain).
    public var themes: ThemeLists?

    public init(tag: String, name: String, matching: PhraseMatcher.Mode = .wordBoundary, strings: [String: String] = [:],
                probe: ProbeData = ProbeData(), distortions: DistortionRules? = nil, answerWords: AnswerWords = AnswerWords(),
                safety: SafetyData? = nil, themes: ThemeLists? = nil) {
        self.tag = tag
        self.name = name
        self.matching = matching
        self.strings = strings
        self.probe = probe
        self.distortions = distortions
        self.answerWords = answerWords
        self.safety = safety
        self.themes = themes
    }
}

/// The specificity probe's per-locale data.
public struct ProbeData: Sendable, Equatable {
    public var minimumCharacters: Int
    public var vaguePhrases: [String]

    public init(minimumCharacters: Int = 25, vaguePhrases: [String] = []) {
        self.minimumCharacters = minimumCharacters
        self.vaguePhrases = vaguePhrases
    }
}

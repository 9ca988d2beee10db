/// How the coach should talk to this person (journal spec §5): tone,
/// response length, preferred actions and topics to avoid. Data only; a
/// flow reads it as `s:facts().profile`, and it never changes what safety
/// does (the gate, crisis messages and resources are the same for everyone).
///
/// The profile is the person's own choices (``PersonalizationChoices``)
/// with their 👍 / 👎 ratings since applied in order
/// (``PersonalizationProfile/applying(_:)``): a pure function, so the same
/// choices and ratings always give the same profile.
public struct PersonalizationProfile: Sendable, Equatable, Codable {
    public enum Tone: String, Sendable, Codable, CaseIterable { case warm, direct, cheerful, neutral }
    public enum ResponseLength: String, Sendable, Codable, CaseIterable { case short, medium, long }

    public var tone: Tone
    public var responseLength: ResponseLength
    /// Themes of the small steps the person liked (most liked first, at most 3).
    public var preferredActions: [Theme]
    /// Themes the coach should not bring up (theme order).
    public var avoidTopics: [Theme]

    public init(tone: Tone = .warm, responseLength: ResponseLength = .medium, preferredActions: [Theme] = [], avoidTopics: [Theme] = []) {
        self.tone = tone
        self.responseLength = responseLength
        self.preferredActions = preferredActions
        self.avoidTopics = avoidTopics
    }

    /// How many 👎 on replies of one length, with no 👍 on that length in
    /// between, change the length.
    public static let repeatedDown = 2
    /// How many 👍 on replies of one length, with no 👎 on it in between,
    /// make it the length.
    public static let repeatedUp = 3
    /// How many 👎-rated replies must mention a theme, and no 👍-rated one,
    /// before it is avoided.
    public static let avoidAfter = 3
    public static let maxPreferredActions = 3

    /// The profile after `ratings`, oldest first:
    /// - **length**: 👎 on `long` replies twice (no 👍 on a long one in
    ///   between) → `short`; on `medium` twice → `short`; on `short` twice →
    ///   `medium`. 👍 on replies of one length three times (no 👎 on it in
    ///   between) → that length;
    /// - **preferred actions**: the themes of the small steps ("action"
    ///   answers) of sessions rated 👍, minus those rated 👎, the most
    ///   liked first (ties in theme order), at most 3, after the person's own;
    /// - **topics to avoid**: the person's own, and every theme mentioned by
    ///   3 or more 👎-rated replies and by no 👍-rated one;
    /// - **tone** is the person's choice only.
    public func applying(_ ratings: [ReplyRating]) -> PersonalizationProfile {
        var out = self
        var downs: [ResponseLength: Int] = [:], ups: [ResponseLength: Int] = [:]
        var actionScore: [Theme: Int] = [:]
        var downThemes: [Theme: Int] = [:]
        var upThemes = Set<Theme>()
        for r in ratings {
            switch r.rating {
            case .down:
                ups[r.length] = 0
                downs[r.length, default: 0] += 1
                if downs[r.length] == PersonalizationProfile.repeatedDown {
                    downs[r.length] = 0
                    out.responseLength = r.length == .short ? .medium : .short
                }
                for t in r.themes { downThemes[t, default: 0] += 1 }
                for t in r.actionThemes { actionScore[t, default: 0] -= 1 }
            case .up:
                downs[r.length] = 0
                ups[r.length, default: 0] += 1
                if ups[r.length] == PersonalizationProfile.repeatedUp {
                    ups[r.length] = 0
                    out.responseLength = r.length
                }
                upThemes.formUnion(r.themes)
                for t in r.actionThemes { actionScore[t, default: 0] += 1 }
            }
        }
        let order = Dictionary(uniqueKeysWithValues: Theme.allCases.enumerated().map { ($1, $0) })
        let liked = Theme.allCases.filter { (actionScore[$0] ?? 0) > 0 && !out.preferredActions.contains($0) }
            .sorted { ((actionScore[$1] ?? 0), order[$0] ?? 0) < ((actionScore[$0] ?? 0), order[$1] ?? 0) }
        out.preferredActions = Array((out.preferredActions + liked).prefix(PersonalizationProfile.maxPreferredActions))
        let avoided = Theme.allCases.filter { (downThemes[$0] ?? 0) >= PersonalizationProfile.avoidAfter && !upThemes.contains($0) }
        out.avoidTopics = Theme.allCases.filter { out.avoidTopics.contains($0) || avoided.contains($0) }
        return out
    }
}

/// One 👍 or 👎 on a coach's reply (a chat reply, or a session's
/// feedback), with what the profile learns from it.
public struct ReplyRating: Sendable, Equatable, Codable {
    public enum Rating: String, Sendable, Codable, CaseIterable { case up, down }

    public var rating: Rating
    /// The rated reply's length (``ReplyRating/length(of:)``).
    public var length: PersonalizationProfile.ResponseLength
    /// Themes the rated reply mentions.
    public var themes: [Theme]
    /// Themes of the small step the session ended with (its `action`
    /// answer), for a rated session; empty otherwise.
    public var actionThemes: [Theme]

    public init(rating: Rating, length: PersonalizationProfile.ResponseLength, themes: [Theme] = [], actionThemes: [Theme] = []) {
        self.rating = rating
        self.length = length
        self.themes = themes
        self.actionThemes = actionThemes
    }

    /// A reply's length class by its words: short up to 30, medium up to
    /// 80, long beyond. In scripts written without spaces (Han, kana), three
    /// characters count as a word.
    public static func length(of text: String) -> PersonalizationProfile.ResponseLength {
        let words = wordCount(text)
        return words <= shortWords ? .short : words <= mediumWords ? .medium : .long
    }

    /// The most words of a short reply, and of a medium one.
    public static let shortWords = 30
    public static let mediumWords = 80

    static func wordCount(_ text: String) -> Int {
        var words = 0, unspaced = 0
        for token in text.split(whereSeparator: { $0.isWhitespace }) {
            let dense = token.unicodeScalars.filter { (0x3040...0x30FF).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) }.count
            if dense > 0 { unspaced += dense } else { words += 1 }
        }
        return words + (unspaced + 2) / 3
    }
}

/// What the person chose themselves (`reflect profile set …`); nil fields
/// are left to the defaults.
public struct PersonalizationChoices: Sendable, Equatable, Codable {
    public var tone: PersonalizationProfile.Tone?
    public var responseLength: PersonalizationProfile.ResponseLength?
    public var preferredActions: [Theme]
    public var avoidTopics: [Theme]

    public init(tone: PersonalizationProfile.Tone? = nil, responseLength: PersonalizationProfile.ResponseLength? = nil,
                preferredActions: [Theme] = [], avoidTopics: [Theme] = []) {
        self.tone = tone
        self.responseLength = responseLength
        self.preferredActions = preferredActions
        self.avoidTopics = avoidTopics
    }

    /// The profile these choices start from.
    public var profile: PersonalizationProfile {
        PersonalizationProfile(tone: tone ?? .warm, responseLength: responseLength ?? .medium,
                               preferredActions: Array(preferredActions.prefix(PersonalizationProfile.maxPreferredActions)),
                               avoidTopics: Theme.allCases.filter(avoidTopics.contains))
    }
}

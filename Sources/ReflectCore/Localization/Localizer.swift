/// Looks strings up along a locale fallback chain (`pt-BR → pt → en`).
///
/// A key found nowhere returns nil: callers turn that into an author-facing
/// error, never into a raw key on screen.
public struct Localizer: Sendable, Equatable {
    /// Most specific first; the source locale (en) last.
    public let chain: [LocaleData]
    /// A personality's tone overrides, by locale tag then key; at each step
    /// of the chain they win over that locale's own string.
    public let overrides: [String: [String: String]]
    /// The person's experiment arms' overrides, by locale tag then key; at
    /// each step of the chain they win over the personality and the locale
    /// (a key an arm does not override falls back as usual).
    public let variantStrings: [String: [String: String]]

    public init(chain: [LocaleData], overrides: [String: [String: String]] = [:], variantStrings: [String: [String: String]] = [:]) {
        self.chain = chain
        self.overrides = overrides
        self.variantStrings = variantStrings
    }

    public var tag: String { chain.first?.tag ?? "en" }

    /// The chain of tags for `tag`: itself, its language, then English.
    /// `pt-BR` → [`pt-BR`, `pt`, `en`].
    public static func fallbackTags(for tag: String) -> [String] {
        var tags = [tag]
        if let dash = tag.firstIndex(of: "-") { tags.append(String(tag[..<dash])) }
        tags.append("en")
        var seen = Set<String>()
        return tags.filter { seen.insert($0).inserted }
    }

    /// The text for `key` from the first locale in the chain that has it.
    public func string(_ key: String) -> String? {
        for locale in chain {
            if !variantStrings.isEmpty, let s = variantStrings[locale.tag]?[key] { return s }
            if !overrides.isEmpty, let s = overrides[locale.tag]?[key] { return s }
            if let s = locale.strings[key] { return s }
        }
        return nil
    }

    /// Which locale answered `key` (for reports).
    public func source(of key: String) -> String? {
        chain.first { $0.strings[key] != nil }?.tag
    }

    /// The first locale in the chain with distortion lists, and its mode.
    public var distortionSource: LocaleData? { chain.first { $0.distortions != nil } }
    /// The first locale of the chain with theme word lists.
    public var themeSource: LocaleData? { chain.first { $0.themes != nil } }

    /// Answer words of the whole chain, most specific first, English last.
    public var answerWords: AnswerWords {
        var words = AnswerWords()
        for locale in chain { words = words.merged(with: locale.answerWords) }
        return words.merged(with: .english)
    }

    /// The first locale in the chain with vague phrases.
    public var probeSource: LocaleData? { chain.first { !$0.probe.vaguePhrases.isEmpty } }
}

import ReflectCore

import Foundation

/// Everything language-specific a session needs, for one locale chain:
/// strings, the distortion detector, the specificity probe, and the safety
/// gate and output filter. Built once per run (compiling the word lists is
/// the expensive part).
///
/// The compiled parts are built, or read from a ``CompiledCache`` file,
/// when first used: a run's first prompt needs only strings, the gate is
/// needed at the first answer and the output filter only for generated
/// text. Each is built at most once per language (thread-safe).
public struct Language: Sendable {
    public let localizer: Localizer
    /// Nil when no locale in the chain has distortion lists.
    public var detector: DistortionDetector? { parts.detector.value }
    /// Nil when no locale in the chain has vague phrases.
    public var probe: SpecificityProbe? { parts.probe.value }
    /// Crisis language of every locale in the chain together (people mix in
    /// English); always present.
    public var safety: SafetyGate { parts.safety.value }
    /// Checks generated text; allows the chain's crisis lines.
    public var outputFilter: OutputFilter { parts.outputFilter.value }
    /// The personality whose tone overrides apply, if any.
    public let personality: String?
    /// The person's experiment arms in this session (strings, `s:variant`,
    /// exposures); ``ActiveVariants/none`` outside experiments.
    public let variants: ActiveVariants
    /// Auto-tagging with the first theme lists on the chain (tags nothing
    /// when no locale has any).
    public var themes: ThemeTagger { parts.themes.value }

    /// The compiled word lists, each built on first use.
    let parts: LanguageParts
    /// The templates of this language's keys, parsed at first use.
    let templates = TemplateCache()

    public var tag: String { localizer.tag }

    /// Compiles every list now (an error names the locale file).
    /// `cache`: where a compiled safety gate may be kept between runs
    /// (``CompiledCache/gate(_:name:)``); by default every list is compiled.
    public init(chain: [LocaleData], personality: Personality? = nil, variants: ActiveVariants = .none,
                cache: CompiledCache = .none) throws(EngineError) {
        localizer = Localizer(chain: chain, overrides: personality?.strings ?? [:], variantStrings: variants.strings)
        self.personality = personality?.id
        self.variants = variants
        parts = try LanguageParts(compiling: chain, gateCache: cache)
    }

    /// A language whose compiled parts come from `parts` (a cache file, or
    /// another language of the same chain).
    init(chain: [LocaleData], personality: Personality?, variants: ActiveVariants, parts: LanguageParts) {
        localizer = Localizer(chain: chain, overrides: personality?.strings ?? [:], variantStrings: variants.strings)
        self.personality = personality?.id
        self.variants = variants
        self.parts = parts
    }

    /// Whether any locale of the chain has safety lists.
    public var hasSafetyData: Bool { localizer.chain.contains { $0.safety != nil } }

    /// The region assumed when none is given: the first locale's default.
    public var defaultRegion: String {
        localizer.chain.lazy.compactMap { $0.safety?.defaultRegion }.first ?? "default"
    }

    /// Crisis resources for `region`, from the most specific locale that has
    /// that region; else that locale's `default` lines; never empty when the
    /// content has any resources.
    public func resources(for region: String) -> [String] {
        for locale in localizer.chain { if let r = locale.safety?.resources[region], !r.isEmpty { return r } }
        for locale in localizer.chain { if let r = locale.safety?.resources["default"], !r.isEmpty { return r } }
        return []
    }

    /// What a `category` notice lists for `region`: the category's topic
    /// helplines (domestic-violence lines for `abuse`, drug and alcohol lines
    /// for `substance_abuse`; looked up like the crisis lines, region then
    /// `default`, most specific locale first), then the crisis lines of
    /// ``resources(for:)``. Categories without helplines get the crisis lines.
    public func resources(for region: String, category: SafetyCategory) -> [String] {
        var topic: [String] = []
        lookup: for key in [region, "default"] {
            for locale in localizer.chain {
                if let r = locale.safety?.helplines[category]?[key], !r.isEmpty {
                    topic = r
                    break lookup
                }
            }
        }
        let crisis = resources(for: region)
        return topic + crisis.filter { !topic.contains($0) }
    }

    /// The warm message of a `category` notice: `safety.message.<category>`
    /// when the chain has it, else `safety.message`.
    public func safetyMessage(for category: SafetyCategory) -> String? {
        localizer.string("safety.message.\(category.rawValue)") ?? localizer.string("safety.message")
    }

    /// A language with no locale files at all (flows with literal texts).
    public static let none: Language = {
        do { return try Language(chain: []) } catch { preconditionFailure("an empty chain cannot fail") }
    }()
}

/// Generated text after the output filter: what may be shown, and why the
/// original was replaced, if it was.
public struct ScreenedText: Sendable, Equatable {
    public var text: String
    public var blocked: OutputFilter.Reason?
}

extension Language {
    /// Passes generated text (coach replies, feedback, personality lines)
    /// through the output filter; a blocked text is replaced and the reason
    /// is returned for the caller to record. A medical block becomes the
    /// locale's `safety.medical` line (generation spec §6); any other block
    /// the `safety.fallback` line. `context` is what the person
    /// typed: a medication they named themselves may be named back.
    public func screen(generated text: String, context: String = "") -> ScreenedText {
        switch outputFilter.check(text, context: context) {
        case .ok:
            return ScreenedText(text: text, blocked: nil)
        case .blocked(let reason) where reason.isMedical:
            return ScreenedText(text: string(.safetyMedical), blocked: reason)
        case .blocked(let reason):
            return ScreenedText(text: string(.safetyFallback), blocked: reason)
        }
    }
}

extension Language {
    /// The chain's text for an engine string. A language loaded through
    /// ``ContentLibrary/language(for:personality:)`` has every key; only a
    /// chain built by hand (or ``none``) can lack one, and then the key
    /// itself is shown, never a text in a language the person did not choose.
    public func string(_ string: EngineString) -> String {
        localizer.string(string.key) ?? string.key
    }

    /// What an answer that was not taken is told: the chain's
    /// `invalid.<code>`, else the validator's own ``InvalidAnswer/message``
    /// (hosts without locale files, and codes without a translated message).
    /// Numbers among the arguments are written in the language ("0,25").
    public func message(for invalid: InvalidAnswer) -> String {
        EngineString(invalid: invalid.code).flatMap { localizer.string($0.key) }
            .map { Template($0).render(invalid.arguments.map(localizer.numbers.localized)) }
            ?? invalid.message
    }
}

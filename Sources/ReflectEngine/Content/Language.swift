import ReflectCore

/// Everything language-specific a session needs, for one locale chain:
/// strings, the distortion detector and the specificity probe. Built once
/// per run (compiling the word lists is the expensive part).
public struct Language: Sendable {
    public let localizer: Localizer
    /// Nil when no locale in the chain has distortion lists.
    public let detector: DistortionDetector?
    /// Nil when no locale in the chain has vague phrases.
    public let probe: SpecificityProbe?

    public var tag: String { localizer.tag }
    /// The personality whose tone overrides apply, if any.
    public let personality: String?

    public init(chain: [LocaleData], personality: Personality? = nil) throws(EngineError) {
        localizer = Localizer(chain: chain, overrides: personality?.strings ?? [:])
        self.personality = personality?.id
        if let source = localizer.distortionSource, let lexicon = source.distortions {
            do { detector = try DistortionDetector(lexicon, mode: source.matching) } catch {
                throw .invalidContent(file: "locales/\(source.tag).yaml", line: nil, message: "distortions: \(error)")
            }
        } else {
            detector = nil
        }
        if let source = localizer.probeSource {
            do {
                probe = try SpecificityProbe(minimumCharacters: source.probe.minimumCharacters,
                                             vaguePhrases: source.probe.vaguePhrases, mode: source.matching)
            } catch {
                throw .invalidContent(file: "locales/\(source.tag).yaml", line: nil, message: "probe: \(error)")
            }
        } else {
            probe = nil
        }
    }

    /// A language with no locale files at all (flows with literal texts).
    public static let none: Language = {
        do { return try Language(chain: []) } catch { preconditionFailure("an empty chain cannot fail") }
    }()
}

import ReflectCore

/// The weekly digest told in a few sentences by the text generator
/// (journal-insights spec §4: "optionally narrated by the text generator,
/// cached by a hash of the data"; docs/journal.md, "Narration").
///
/// Contract:
/// - The input is the digest as the template words it, in the person's
///   language: its story (headline, highlight, intention) and its figures.
///   The provider is asked to retell those and nothing else
///   (`prompts/digest.v<N>.yaml`), within ``timeout``, once.
/// - What it returns is shown only if it passes: at most ``maxWords``
///   words, no number that the digest does not hold (a narration must never
///   invent a figure: `rule.invented_figure`), then the checks every
///   generated text passes (``GeneratedTextScreen``: the output filter and
///   the crisis gate, whose replacement is shown with its crisis lines).
///   Anything else — no provider text in time, a failed rule — leaves the
///   template's digest as it is; the person never sees an error.
/// - ``basis`` names the data a narration was made from (the digest's words
///   and figures, the language, the voice, the prompt, the provider and
///   model): a stored narration is reused only for the same basis, so an
///   unchanged week is never sent twice and a changed one is never
///   described with old words.
public struct DigestNarration: Sendable {
    /// The request's purpose, and the prompt family (`prompts/digest.vN.yaml`).
    public static let purpose = "digest"
    /// How long the person may wait for a narration (one attempt).
    public static let timeout: Duration = .seconds(3)
    /// Longest narration shown, in words.
    public static let maxWords = 90

    /// What to show in place of the template's story lines.
    public struct Outcome: Sendable, Equatable, Encodable {
        /// The narration, or the screen's replacement; nil: keep the template's lines.
        public var text: String?
        /// A provider's text, shown as generated (fresh or stored).
        public var generated: Bool
        /// Read from the store rather than asked for.
        public var cached: Bool
        /// Why a provider's text was not shown as is (`rule.too_long`,
        /// `rule.invented_figure`, `timeout`, `crisis.suicide`, …).
        public var refused: String?
        /// Crisis lines shown with a de-escalation message.
        public var resources: [String]
        public var basis: String

        public init(text: String?, generated: Bool, cached: Bool, refused: String?, resources: [String] = [], basis: String) {
            self.text = text
            self.generated = generated
            self.cached = cached
            self.refused = refused
            self.resources = resources
            self.basis = basis
        }
    }

    public let language: Language
    public let region: String
    public let generator: any TextGenerator
    public let prompts: PromptLibrary
    /// The digest's story lines (headline, highlight, intention), as the template words them.
    public let story: [String]
    /// The figures lines, as the template words them.
    public let figures: [String]
    /// Who answers: the provider's name and model (part of ``basis``).
    public let provider: String

    public init(language: Language, region: String? = nil, generator: any TextGenerator, prompts: PromptLibrary, story: [String],
                figures: [String], provider: String) {
        self.language = language
        self.region = region ?? language.defaultRegion
        self.generator = generator
        self.prompts = prompts
        self.story = story
        self.figures = figures
        self.provider = provider
    }

    var request: GenerationRequest {
        GenerationRequest(id: "digest", purpose: DigestNarration.purpose, inputs: story, fallback: "", timeout: DigestNarration.timeout,
                          context: GenerationContext(locale: language.tag, personality: language.personality, coachLines: figures))
    }

    /// The data the narration is made from, as a digest (see the type's contract).
    public var basis: String {
        let prompt = prompts.template(for: DigestNarration.purpose)?.id ?? "none"
        let parts = [prompt, provider, language.tag, language.personality ?? "default"] + story + ["\u{1E}"] + figures
        return String(SHA256.hex(parts.joined(separator: "\u{1F}")).prefix(32))
    }

    /// A stored narration for ``basis`` (`stored`), else the provider's, checked.
    /// A stored one passes today's screens again (the gate's lists may have
    /// grown since it was kept), as a found past entry does.
    public func narrate(stored: String?) -> Outcome {
        let basis = self.basis
        let screen = GeneratedTextScreen(language: language, region: region, prompts: prompts)
        let context = (story + figures).joined(separator: "\n")
        if let stored {
            let again = screen.screen(stored, context: context)
            if again.reason == nil { return Outcome(text: stored, generated: true, cached: true, refused: nil, basis: basis) }
            return Outcome(text: again.text, generated: false, cached: true, refused: again.reason, resources: again.resources, basis: basis)
        }
        let request = self.request
        let generator = self.generator
        let reply: String
        switch GenerationDeadline.run(timeout: DigestNarration.timeout, { try await generator.generate(request) }) {
        case .success(let text): reply = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case .failure(let failure): return Outcome(text: nil, generated: false, cached: false, refused: DigestNarration.reason(failure), basis: basis)
        }
        if let problem = problem(reply) { return Outcome(text: nil, generated: false, cached: false, refused: problem, basis: basis) }
        let screened = screen.screen(reply, context: context)
        return Outcome(text: screened.text, generated: screened.reason == nil, cached: false, refused: screened.reason,
                       resources: screened.resources, basis: basis)
    }

    /// Why `text` may not stand in for the digest, or nil.
    func problem(_ text: String) -> String? {
        if text.isEmpty { return "rule.empty" }
        if GeneratedTextScreen.wordCount(text) > DigestNarration.maxWords { return "rule.too_long" }
        let allowed = Set(DigestNarration.numbers(in: (story + figures).joined(separator: "\n")))
        if DigestNarration.numbers(in: text).contains(where: { !allowed.contains($0) }) { return "rule.invented_figure" }
        return nil
    }

    /// The numbers written in `text`, in a comparable form: runs of decimal
    /// digits of any script as ASCII, one `.` or `,` between digits read
    /// as a decimal point (`7,5` = `7.5`), leading zeros and a zero
    /// fraction dropped (`07` = `7`, `8.0` = `8`).
    public static func numbers(in text: String) -> [String] {
        var out: [String] = []
        var whole = "", fraction = "", inFraction = false, pendingPoint = false
        func flush() {
            if !whole.isEmpty {
                let w = String(whole.drop { $0 == "0" })
                let f = String(fraction.reversed().drop { $0 == "0" }.reversed())
                out.append((w.isEmpty ? "0" : w) + (f.isEmpty ? "" : "." + f))
            }
            whole = ""; fraction = ""; inFraction = false; pendingPoint = false
        }
        for ch in text {
            if let d = ch.wholeNumberValue, ch.isNumber, d >= 0, d <= 9, ch.unicodeScalars.count == 1,
               ch.unicodeScalars.first?.properties.numericType == .decimal {
                if pendingPoint { inFraction = true; pendingPoint = false }
                if inFraction { fraction.append(Character("\(d)")) } else { whole.append(Character("\(d)")) }
            } else if (ch == "." || ch == ",") && !whole.isEmpty && !inFraction && !pendingPoint {
                pendingPoint = true
            } else {
                flush()
            }
        }
        flush()
        return out
    }

    static func reason(_ failure: GenerationFailure) -> String {
        switch failure {
        case .timeout: return "timeout"
        case .unsupported: return "unsupported"
        case .http(let status): return "http.\(status)"
        case .malformed: return "malformed"
        case .transport: return "transport"
        }
    }
}

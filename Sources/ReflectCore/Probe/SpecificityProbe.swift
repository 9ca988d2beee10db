import Foundation

/// The soft "could you be more specific?" hint for a situation answer.
///
/// An answer is vague when it is shorter than the locale's minimum (25
/// characters in English; denser scripts set less), or when it is still
/// short (under twice that) and contains one of the locale's vague phrases
/// ("idk", "everything", "same as always"). The hint never blocks: the
/// answer is kept and the flow goes on.
public struct SpecificityProbe: Sendable {
    public let minimumCharacters: Int
    private let vague: PhraseMatcher?
    private let nonAnswers: Set<String>

    public init(minimumCharacters: Int = 25, vaguePhrases: [String], mode: PhraseMatcher.Mode = .wordBoundary) throws(LexiconError) {
        self.minimumCharacters = minimumCharacters
        nonAnswers = Set(vaguePhrases.map { SpecificityProbe.core(of: $0) })
        vague = vaguePhrases.isEmpty ? nil
            : try PhraseMatcher(PhraseLexicon(priority: ["vague"], phrases: ["vague": vaguePhrases]), mode: mode)
    }

    /// Whether the whole answer is just a vague phrase ("idk", "nothing."):
    /// such an answer is not quoted back; prompts use their static text.
    public func isNonAnswer(_ answer: String) -> Bool {
        nonAnswers.contains(SpecificityProbe.core(of: answer))
    }

    /// Normalised text without surrounding spaces and punctuation.
    private static func core(of text: String) -> String {
        TextNormalizer.string(text).trimmingCharacters(in: CharacterSet.alphanumerics.inverted)
    }

    public func isVague(_ answer: String) -> Bool {
        let text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count < minimumCharacters { return true }
        return text.count < 2 * minimumCharacters && vague?.match(text) != nil
    }
}

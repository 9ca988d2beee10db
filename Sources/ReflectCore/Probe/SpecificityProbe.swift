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

    public init(minimumCharacters: Int = 25, vaguePhrases: [String], mode: PhraseMatcher.Mode = .wordBoundary) throws(LexiconError) {
        self.minimumCharacters = minimumCharacters
        vague = vaguePhrases.isEmpty ? nil
            : try PhraseMatcher(PhraseLexicon(priority: ["vague"], phrases: ["vague": vaguePhrases]), mode: mode)
    }

    public func isVague(_ answer: String) -> Bool {
        let text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count < minimumCharacters { return true }
        return text.count < 2 * minimumCharacters && vague?.match(text) != nil
    }
}

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
    static func core(of text: String) -> String {
        var text = text
        // ASCII is only lowercased by the normaliser, and its letters and
        // digits are exactly [a-z0-9] then: the same result, by bytes.
        if let ascii = text.withUTF8({ b -> String? in
            guard !b.contains(where: { $0 >= 0x80 }) else { return nil }
            func kept(_ c: UInt8) -> Bool { (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) }
            var start = 0, end = b.count
            while start < end, !kept(b[start]) { start += 1 }
            while end > start, !kept(b[end - 1]) { end -= 1 }
            return String(decoding: b[start..<end].map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
        }) {
            return ascii
        }
        return TextNormalizer.string(text).trimmingCharacters(in: notAlphanumeric)
    }

    private static let notAlphanumeric = CharacterSet.alphanumerics.inverted

    public func isVague(_ answer: String) -> Bool {
        var answer = answer
        // ASCII without line ends: the trimmed text's characters are its bytes.
        let counted: (text: String, count: Int)? = answer.withUTF8 { b in
            guard !b.contains(where: { $0 >= 0x80 || $0 == 0x0D }) else { return nil }
            func space(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
            var start = 0, end = b.count
            while start < end, space(b[start]) { start += 1 }
            while end > start, space(b[end - 1]) { end -= 1 }
            return (String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self), end - start)
        }
        if let (text, count) = counted {
            if count < minimumCharacters { return true }
            return count < 2 * minimumCharacters && vague?.match(text) != nil
        }
        let text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count < minimumCharacters { return true }
        return text.count < 2 * minimumCharacters && vague?.match(text) != nil
    }
}

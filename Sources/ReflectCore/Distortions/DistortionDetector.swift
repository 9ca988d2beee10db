/// Names the cognitive distortion in a thought, deterministically, from a
/// locale's keyword and pattern lists.
///
/// Categories are tried most specific first (the lexicon's `priority`, e.g.
/// catastrophizing before overgeneralization, so "I always ruin everything"
/// is catastrophizing). Matching follows ``PhraseMatcher``: whole words for
/// alphabetic scripts, substrings for Japanese and Korean; case, accents and
/// apostrophe variants do not matter. No match is `.unknown`.
public struct DistortionDetector: Sendable {
    private let matcher: PhraseMatcher
    private let types: [DistortionType]

    /// - Throws: ``LexiconError`` for an unknown category name, a bad slot, or
    ///   an empty phrase.
    public init(_ lexicon: PhraseLexicon, mode: PhraseMatcher.Mode = .wordBoundary) throws(LexiconError) {
        var types: [DistortionType] = []
        for name in lexicon.priority {
            guard let t = DistortionType(rawValue: name), t != .unknown else {
                throw LexiconError(category: name, phrase: "", reason: "not a distortion type (expected one of "
                    + DistortionType.allCases.filter { $0 != .unknown }.map(\.rawValue).joined(separator: ", ") + ")")
            }
            types.append(t)
        }
        self.types = types
        matcher = try PhraseMatcher(lexicon, mode: mode)
    }

    public func detect(_ thought: String) -> DistortionType {
        matcher.match(thought).map { types[$0] } ?? .unknown
    }
}

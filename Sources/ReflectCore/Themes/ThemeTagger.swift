/// Tags a text with every theme whose words it contains (auto-tagging):
/// "I'm worried about the presentation tomorrow" → `work`. Pure and
/// deterministic: the same text and lists give the same tags, in
/// ``Theme`` order. Uses the same matcher as the distortion detector.
public struct ThemeTagger: Sendable {
    private let matcher: PhraseMatcher?

    /// Compiles the lists (an error names the theme and phrase at fault).
    public init(_ lists: ThemeLists, mode: PhraseMatcher.Mode) throws(LexiconError) {
        matcher = lists.isEmpty ? nil : try PhraseMatcher(lists.lexicon, mode: mode)
    }

    /// A tagger that tags nothing (a locale chain without theme lists).
    public static let none = ThemeTagger()
    private init() { matcher = nil }

    /// The themes `text` mentions, each once, in ``Theme`` order.
    public func themes(in text: String) -> [Theme] {
        guard let matcher, !text.isEmpty else { return [] }
        var found = Set<Int>()
        let bytes = TextNormalizer.bytes(text)
        bytes.withUnsafeBufferPointer { buffer in
            matcher.forEachOccurrence(normalized: buffer) { _, _, category in found.insert(category) }
        }
        return found.sorted().compactMap { Theme(rawValue: matcher.categories[$0]) }.sorted()
    }
}

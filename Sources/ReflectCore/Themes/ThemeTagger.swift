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
    private init(matcher: PhraseMatcher) { self.matcher = matcher }

    /// The themes `text` mentions, each once, in ``Theme`` order.
    public func themes(in text: String) -> [Theme] {
        guard let matcher, !text.isEmpty else { return [] }
        // Which categories occur, not where: matches in any order, one flag each.
        var found = [Bool](repeating: false, count: matcher.categories.count)
        let bytes = TextNormalizer.bytes(text)
        bytes.withUnsafeBufferPointer { buffer in
            matcher.forEachMatch(normalized: buffer) { _, _, category in found[category] = true }
        }
        return found.indices.filter { found[$0] }.compactMap { Theme(rawValue: matcher.categories[$0]) }.sorted()
    }
}

extension ThemeTagger {
    /// The compiled tagger as bytes, read back by ``init(reading:)``.
    public func write(to w: inout CompiledWriter) {
        w.bool(matcher != nil)
        matcher?.write(to: &w.bytes)
    }

    /// Nil unless the bytes are a complete compiled tagger.
    public init?(reading r: inout CompiledReader) {
        guard let present = r.bool() else { return nil }
        guard present else {
            self = .none
            return
        }
        var at = r.offset
        guard let m = PhraseMatcher(reading: r.bytes, at: &at) else { return nil }
        r.offset = at
        self.init(matcher: m)
    }
}

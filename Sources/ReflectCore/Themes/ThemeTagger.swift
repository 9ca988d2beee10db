/// Tags a text with every theme whose words it contains (auto-tagging):
/// "I'm worried about the presentation tomorrow" → `work`. Pure and
/// deterministic: the same text and lists give the same tags, in
/// ``Theme`` order. Uses the same matcher as the distortion detector.
public struct ThemeTagger: Sendable {
    private let matcher: PhraseMatcher?
    /// The theme of each of the matcher's categories (nil for a category
    /// that names no theme), fixed when the tagger is made.
    private let themeOfCategory: [Theme?]

    /// Compiles the lists (an error names the theme and phrase at fault).
    public init(_ lists: ThemeLists, mode: PhraseMatcher.Mode) throws(LexiconError) {
        self.init(matcher: lists.isEmpty ? nil : try PhraseMatcher(lists.lexicon, mode: mode))
    }

    /// A tagger that tags nothing (a locale chain without theme lists).
    public static let none = ThemeTagger(matcher: nil)
    private init(matcher: PhraseMatcher?) {
        self.matcher = matcher
        themeOfCategory = matcher?.categories.map { Theme(rawValue: $0) } ?? []
    }

    /// The themes `text` mentions, each once, in ``Theme`` order.
    public func themes(in text: String) -> [Theme] {
        guard let matcher, !text.isEmpty else { return [] }
        // Which themes occur, not where: matches in any order, one bit per
        // theme (in declared order, so reading the bits out is the order).
        var found: UInt32 = 0
        let bytes = TextNormalizer.bytes(text)
        bytes.withUnsafeBufferPointer { buffer in
            matcher.forEachMatch(normalized: buffer) { _, _, category in
                if let theme = themeOfCategory[category] { found |= 1 << UInt32(theme.order) }
            }
        }
        guard found != 0 else { return [] }
        var out: [Theme] = []
        for theme in Theme.allCases where found & (1 << UInt32(theme.order)) != 0 { out.append(theme) }
        return out
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

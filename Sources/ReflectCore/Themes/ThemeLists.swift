/// One locale's theme word lists (`themes:` in `locales/<tag>.yaml`): the
/// words and phrases that tag an answer with a theme ("presentation" →
/// work). Written like the distortion lists: compared ignoring case and
/// accents, whole words in `word` locales, stems anywhere in `substring`
/// ones (ja, ko), `{slot}` expanding to a slot list.
public struct ThemeLists: Sendable, Equatable {
    /// Phrases per theme.
    public var words: [Theme: [String]]
    /// Slot lists, by slot name.
    public var slots: [String: [String]]

    public init(words: [Theme: [String]] = [:], slots: [String: [String]] = [:]) {
        self.words = words
        self.slots = slots
    }

    public var isEmpty: Bool { words.values.allSatisfy(\.isEmpty) }

    /// The lists as a lexicon for the phrase matcher, themes in their
    /// declared order.
    public var lexicon: PhraseLexicon {
        PhraseLexicon(priority: Theme.allCases.map(\.rawValue),
                      phrases: Dictionary(uniqueKeysWithValues: words.map { ($0.key.rawValue, $0.value) }), slots: slots)
    }
}

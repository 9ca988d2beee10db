/// Word lists in priority order: the data a ``PhraseMatcher`` is compiled
/// from. Used for distortion keywords (per locale, from `locales/<tag>.yaml`)
/// and for any list a benchmark supplies (the C anchors' TSV).
///
/// Phrases may contain slots: `"i'm a {trait}"` expands to one phrase per
/// entry of the slot list `trait`. This is how a pattern such as
/// "I am [negative trait]" is written without a regex, so that matching
/// stays a single pass over the text.
public struct PhraseLexicon: Sendable, Equatable {
    /// Category names, most specific first.
    public var priority: [String]
    /// Phrases per category (slots unexpanded).
    public var phrases: [String: [String]]
    /// Slot lists, by slot name.
    public var slots: [String: [String]]

    public init(priority: [String], phrases: [String: [String]], slots: [String: [String]] = [:]) {
        self.priority = priority
        self.phrases = phrases
        self.slots = slots
    }

    /// Every phrase of `category` with its slots filled in.
    public func expandedPhrases(of category: String) throws(LexiconError) -> [String] {
        var out: [String] = []
        for phrase in phrases[category] ?? [] { out += try expand(phrase, category: category, depth: 0) }
        return out
    }

    private func expand(_ phrase: String, category: String, depth: Int) throws(LexiconError) -> [String] {
        guard let open = phrase.firstIndex(of: "{") else { return [phrase] }
        guard depth < 8 else {
            throw LexiconError(category: category, phrase: phrase, reason: "slots nest more than 8 deep (does a slot refer to itself?)")
        }
        guard let close = phrase[open...].firstIndex(of: "}") else {
            throw LexiconError(category: category, phrase: phrase, reason: "unclosed '{'")
        }
        let name = String(phrase[phrase.index(after: open)..<close])
        guard let values = slots[name], !values.isEmpty else {
            throw LexiconError(category: category, phrase: phrase, reason: "unknown or empty slot '{\(name)}'")
        }
        var out: [String] = []
        for v in values {
            out += try expand(phrase[..<open] + v + phrase[phrase.index(after: close)...], category: category, depth: depth + 1)
        }
        return out
    }
}

/// A lexicon that cannot be compiled, with the category and phrase at fault.
public struct LexiconError: Error, Sendable, Equatable, CustomStringConvertible {
    public var category: String
    public var phrase: String
    public var reason: String
    public var description: String { "\(category): \"\(phrase)\": \(reason)" }
}

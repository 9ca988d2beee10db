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
        try normalizedPhrases(of: category, normalize: { Array($0.utf8) }).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// Every phrase of `category` with its slots filled in, as normalised
    /// bytes (``TextNormalizer``), each with the unexpanded phrase it came
    /// from (for error messages).
    ///
    /// Each literal piece of a phrase and each slot value is normalised on
    /// its own and the results are joined, so a list of ten thousand
    /// expansions costs a few hundred normalisations, not ten thousand.
    /// This equals normalising the joined text except where a piece begins
    /// with a combining mark meant for the character before the slot
    /// (no list does that).
    public func normalizedPhrases(of category: String) throws(LexiconError) -> [(bytes: [UInt8], phrase: String)] {
        try normalizedPhrases(of: category, normalize: TextNormalizer.bytes)
    }

    /// Throws what compiling a ``PhraseMatcher`` from this lexicon would
    /// throw (unknown or looping slots, empty phrases), without building
    /// one: for checking content that is compiled later.
    public func validate() throws(LexiconError) {
        for name in priority {
            for (bytes, phrase) in try normalizedPhrases(of: name) {
                _ = try PhraseMatcher.trimmed(bytes, category: name, phrase: phrase)
            }
        }
    }

    private func normalizedPhrases(of category: String, normalize: @escaping (String) -> [UInt8])
        throws(LexiconError) -> [(bytes: [UInt8], phrase: String)] {
        var expansion = Expansion(slots: slots, category: category, normalize: normalize)
        var out: [(bytes: [UInt8], phrase: String)] = []
        for phrase in phrases[category] ?? [] {
            for bytes in try expansion.expand(phrase, depth: 0) { out.append((bytes, phrase)) }
        }
        return out
    }
}

/// One category's slot expansion, with each slot's expansions and each
/// literal piece's normalisation computed once.
private struct Expansion {
    let slots: [String: [String]]
    let category: String
    let normalize: (String) -> [UInt8]
    var slotCache: [String: [[UInt8]]] = [:]
    var pieceCache: [Substring: [UInt8]] = [:]

    init(slots: [String: [String]], category: String, normalize: @escaping (String) -> [UInt8]) {
        self.slots = slots
        self.category = category
        self.normalize = normalize
    }

    mutating func expand(_ phrase: String, depth: Int) throws(LexiconError) -> [[UInt8]] {
        var results: [[UInt8]] = [[]]
        var rest = phrase[...]
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "{") else {
                let tail = piece(rest)
                results = Expansion.join(results, [tail])
                break
            }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw LexiconError(category: category, phrase: phrase, reason: "unclosed '{'")
            }
            // Pieces are computed before joining: a `self` call with a
            // mutating argument would copy the caches on every piece.
            if open > rest.startIndex {
                let head = piece(rest[..<open])
                results = Expansion.join(results, [head])
            }
            let values = try slot(String(rest[rest.index(after: open)..<close]), in: phrase, depth: depth)
            results = Expansion.join(results, values)
            rest = rest[rest.index(after: close)...]
        }
        return results
    }

    private mutating func slot(_ name: String, in phrase: String, depth: Int) throws(LexiconError) -> [[UInt8]] {
        if let cached = slotCache[name] { return cached }
        guard depth < 8 else {
            throw LexiconError(category: category, phrase: phrase, reason: "slots nest more than 8 deep (does a slot refer to itself?)")
        }
        guard let values = slots[name], !values.isEmpty else {
            throw LexiconError(category: category, phrase: phrase, reason: "unknown or empty slot '{\(name)}'")
        }
        var out: [[UInt8]] = []
        for value in values { out += try expand(value, depth: depth + 1) }
        slotCache[name] = out
        return out
    }

    private mutating func piece(_ text: Substring) -> [UInt8] {
        if let cached = pieceCache[text] { return cached }
        let bytes = normalize(String(text))
        pieceCache[text] = bytes
        return bytes
    }

    private static func join(_ heads: [[UInt8]], _ tails: [[UInt8]]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        out.reserveCapacity(heads.count * tails.count)
        for h in heads { for t in tails { out.append(h + t) } }
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

import Foundation

/// Recognises crisis language in what a person writes: every answer passes
/// it before the flow continues. Deterministic; its word lists come from
/// the locale files (tuned per language), its rules are here. A gate has one
/// layer per locale (the person's and English), each matched with its own
/// lists and matching mode; the most urgent verdict of any layer wins.
///
/// Each text is checked twice:
/// 1. normalised (``TextNormalizer``: case, accents, NFKC, apostrophes);
/// 2. de-obfuscated as well: l33t digits and symbols inside words mapped
///    to letters ("su1c1de", "k1ll mys3lf"), Latin letters spelled out with
///    spaces or dots joined ("s u i c i d e", "k.i.l.l"), and repeated
///    letters squeezed ("diiiie"); the phrases are squeezed the same way.
///
/// Before matching, the benign idioms of every layer ("killing it at work",
/// "to die for", "Suicide Squad") are blanked out. A match directly preceded, within
/// three words, by a negation of the locale ("I would never kill myself",
/// "I'm not suicidal") does not count, nor does one whose clause ends with
/// a negation of the locale's `negations_after` list right after it (German
/// "Er schlägt mich nicht", Japanese 死ぬつもりはない: languages that negate
/// after the verb);
/// any other crisis phrase in the same text still does. Third-person intent ("my friend wants to kill himself")
/// is in the lists on purpose: the person may need the resources to help.
/// The most urgent category found wins (``SafetyCategory`` order).
///
/// A phrase written with ` ... ` ("{abuser} ... {hit_past}") is a proximity
/// rule (``NearRules``): its two sides in that order, in one clause, a few
/// words apart.
public struct SafetyGate: Sendable {
    /// One locale's lists, matched in that locale's mode (a Japanese
    /// substring list never makes English phrases match inside words).
    /// (A class: checking a text reads its layers without copying them.)
    final class Layer: Sendable {
        let plain: PhraseMatcher
        let squeezed: PhraseMatcher
        let benignPlain: PhraseMatcher?
        let benignSqueezed: PhraseMatcher?
        let negation: PhraseMatcher?
        let negationSqueezed: PhraseMatcher?
        /// Negations that follow the phrase they cancel (``SafetyData/negationsAfter``).
        let negationAfter: PhraseMatcher?
        let negationAfterSqueezed: PhraseMatcher?
        let categories: [SafetyCategory]
        /// Each category's rank in ``SafetyCategory`` order (most urgent 0).
        let ranks: [Int]
        /// Proximity rules (`"{abuser} ... {hit}"`), nil when the locale has none.
        let near: NearRules?

        init(plain: PhraseMatcher, squeezed: PhraseMatcher, benignPlain: PhraseMatcher?, benignSqueezed: PhraseMatcher?,
             negation: PhraseMatcher?, negationSqueezed: PhraseMatcher?, negationAfter: PhraseMatcher? = nil,
             negationAfterSqueezed: PhraseMatcher? = nil, categories: [SafetyCategory], near: NearRules?) {
            self.plain = plain
            self.squeezed = squeezed
            self.benignPlain = benignPlain
            self.benignSqueezed = benignSqueezed
            self.negation = negation
            self.negationSqueezed = negationSqueezed
            self.negationAfter = negationAfter
            self.negationAfterSqueezed = negationAfterSqueezed
            self.categories = categories
            self.ranks = categories.map { c in SafetyCategory.allCases.firstIndex(of: c) ?? 0 }
            self.near = near
        }
    }

    let layers: [Layer]

    init(compiledLayers: [Layer]) { layers = compiledLayers }
    /// The longest look-back for a negation (three words, at most this many bytes).
    static let negationWindowBytes = 160

    /// A gate over one locale's data.
    public init(_ data: SafetyData, mode: PhraseMatcher.Mode = .wordBoundary) throws(LexiconError) {
        try self.init(layers: [(data, mode)])
    }

    /// A gate over several locales (say, the person's locale and English),
    /// each matched with its own lists and mode; the most urgent verdict wins.
    public init(layers: [(data: SafetyData, mode: PhraseMatcher.Mode)]) throws(LexiconError) {
        var built: [Layer] = []
        for (data, mode) in layers { built.append(try SafetyGate.layer(data, mode: mode)) }
        self.layers = built
    }

    /// Throws exactly what building a gate from `data` would throw, at a
    /// fraction of the cost (no matcher is built): for checking a locale
    /// file when it is read.
    public static func validate(_ data: SafetyData) throws(LexiconError) {
        let categories = try categories(of: data)
        let (plain, rules) = try NearRules.split(data.phrases)
        try PhraseLexicon(priority: categories.map(\.rawValue), phrases: plain, slots: data.slots).validate()
        try NearRules.validate(rules, slots: data.slots)
        for words in [data.benign, data.negations] where !words.isEmpty {
            try PhraseLexicon(priority: ["x"], phrases: ["x": words]).validate()
        }
        if !data.negationsAfter.isEmpty {
            try PhraseLexicon(priority: ["x"], phrases: ["x": data.negationsAfter], slots: data.slots).validate()
        }
    }

    private static func categories(of data: SafetyData) throws(LexiconError) -> [SafetyCategory] {
        for name in data.phrases.keys where SafetyCategory(rawValue: name) == nil {
            throw LexiconError(category: name, phrase: "", reason: "not a safety category (expected one of "
                + SafetyCategory.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        let plain = try NearRules.split(data.phrases).plain
        return SafetyCategory.allCases.filter { !(plain[$0.rawValue] ?? []).isEmpty }
    }

    static func layer(_ data: SafetyData, mode: PhraseMatcher.Mode) throws(LexiconError) -> Layer {
        let categories = try categories(of: data)
        let (plain, rules) = try NearRules.split(data.phrases)
        let lexicon = PhraseLexicon(priority: categories.map(\.rawValue), phrases: plain, slots: data.slots)
        var squeezedPhrases: [String: [String]] = [:]
        // Phrases go through the same steps as text: normalise, then squeeze
        // ("idées" → "idees" → "ides" on both sides).
        func squeezed(_ phrase: String) -> String { SafetyGate.squeeze(TextNormalizer.string(phrase)) }
        for c in categories {
            squeezedPhrases[c.rawValue] = try lexicon.normalizedPhrases(of: c.rawValue).map {
                SafetyGate.squeeze(String(decoding: $0.bytes, as: UTF8.self))
            }
        }
        func list(_ words: [String], squeeze: Bool) throws(LexiconError) -> PhraseMatcher? {
            words.isEmpty ? nil : try PhraseMatcher(PhraseLexicon(priority: ["x"], phrases: ["x": squeeze ? words.map(squeezed) : words]),
                                                    mode: mode)
        }
        // `negations_after` may use the slots (endings combine: はない + よ).
        func afterList(squeeze: Bool) throws(LexiconError) -> PhraseMatcher? {
            guard !data.negationsAfter.isEmpty else { return nil }
            let after = PhraseLexicon(priority: ["x"], phrases: ["x": data.negationsAfter], slots: data.slots)
            guard squeeze else { return try PhraseMatcher(after, mode: mode) }
            let words = try after.normalizedPhrases(of: "x").map { SafetyGate.squeeze(String(decoding: $0.bytes, as: UTF8.self)) }
            return try PhraseMatcher(PhraseLexicon(priority: ["x"], phrases: ["x": words]), mode: mode)
        }
        return Layer(plain: try PhraseMatcher(lexicon, mode: mode),
                     squeezed: try PhraseMatcher(PhraseLexicon(priority: categories.map(\.rawValue), phrases: squeezedPhrases), mode: mode),
                     benignPlain: try list(data.benign, squeeze: false), benignSqueezed: try list(data.benign, squeeze: true),
                     negation: try list(data.negations, squeeze: false), negationSqueezed: try list(data.negations, squeeze: true),
                     negationAfter: try afterList(squeeze: false), negationAfterSqueezed: try afterList(squeeze: true),
                     categories: categories, near: try NearRules(rules, slots: data.slots, mode: mode))
    }

    public func check(_ text: String) -> SafetyVerdict {
        let normalized = TextNormalizer.bytes(text)
        let deobfuscated = normalized.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezed)
        var best: Int?
        for squeezed in [false, true] {
            var bytes = squeezed ? deobfuscated : normalized
            bytes.withUnsafeMutableBufferPointer { buf in
                // Benign idioms of every layer are blanked out first (spaces
                // keep word boundaries): the person's language knows that
                // "Roméo se suicide à la fin de la pièce" is a play, even
                // where an English phrase would match the same word.
                for layer in layers {
                    guard let benign = squeezed ? layer.benignSqueezed : layer.benignPlain else { continue }
                    for o in benign.occurrences(normalized: UnsafeBufferPointer(buf)) {
                        for i in o.start..<o.end { buf[i] = 32 }
                    }
                }
                let view = UnsafeBufferPointer(buf)
                for layer in layers {
                    let matcher = squeezed ? layer.squeezed : layer.plain
                    let negation = squeezed ? layer.negationSqueezed : layer.negation
                    let negationAfter = squeezed ? layer.negationAfterSqueezed : layer.negationAfter
                    matcher.forEachOccurrence(normalized: view) { start, end, category in
                        let rank = layer.ranks[category]
                        if let best, best <= rank { return }
                        if let negation, SafetyGate.negated(before: start, in: view, by: negation) { return }
                        if let negationAfter, SafetyGate.negated(after: end, in: view, by: negationAfter) { return }
                        best = rank
                    }
                    for category in layer.near?.matches(in: view, squeezed: squeezed, negation: negation, negationAfter: negationAfter) ?? [] {
                        guard let rank = SafetyCategory.allCases.firstIndex(of: category) else { continue }
                        if best.map({ rank < $0 }) ?? true { best = rank }
                    }
                }
            }
        }
        return best.map { .crisis(SafetyCategory.allCases[$0]) } ?? .ok
    }

    /// Whether a negation phrase occurs within the three words before
    /// `start`, in the same clause: the window stops at , . ; : ! ? so that
    /// "I'm not okay, I want to die" is not read as negated. The window is
    /// also at most ``negationWindowBytes`` long, so that a text without
    /// spaces (Japanese, or hostile input) costs linear time, not quadratic.
    static func negated(before start: Int, in t: UnsafeBufferPointer<UInt8>, by negation: PhraseMatcher) -> Bool {
        func clauseEnd(_ b: UInt8) -> Bool { b == 44 || b == 46 || b == 59 || b == 58 || b == 33 || b == 63 }
        let floor = max(0, start - negationWindowBytes)
        var i = start
        words: for _ in 0..<3 {
            while i > floor && t[i - 1] == 32 { i -= 1 }  // spaces before the word
            guard i > floor, !clauseEnd(t[i - 1]) else { break }
            while i > floor && t[i - 1] != 32 {  // the word itself
                if clauseEnd(t[i - 1]) { break words }
                i -= 1
            }
        }
        while i < start && t[i] & 0xC0 == 0x80 { i += 1 }  // a whole character first
        return negation.match(normalized: UnsafeBufferPointer(rebasing: t[i..<start])) != nil
    }

    /// Whether the rest of the clause after `end` is a negation phrase of
    /// `negation` (a `negations_after` list), whole: "Er schlägt mich |
    /// nicht.", "Ich bringe mich | nicht um", 死ぬつもり|はないです. The clause
    /// ends at , . ; : ! ? or the end of the text, and in substring mode
    /// also at a space (Japanese 。 and 、 read as spaces); in word mode the
    /// spaces before the negation are skipped. Only the whole rest counts,
    /// so that "Ich ritze mich nicht mehr so oft" or "Er schlägt mich nicht
    /// nur …" stay alarms. Reads at most ``negationWindowBytes`` bytes, so
    /// the gate stays linear in the text.
    static func negated(after end: Int, in t: UnsafeBufferPointer<UInt8>, by negation: PhraseMatcher) -> Bool {
        let word = negation.mode == .wordBoundary
        var i = end
        if word {
            while i < t.count && t[i] == 32 { i += 1 }
        }
        let limit = min(t.count, i + negationWindowBytes)
        var j = i
        while j < limit {
            let b = t[j]
            if b == 44 || b == 46 || b == 59 || b == 58 || b == 33 || b == 63 || (!word && b == 32) { break }
            j += 1
        }
        guard j < limit || limit == t.count else { return false }  // the clause goes on past the window
        while j > i && t[j - 1] == 32 { j -= 1 }
        guard j > i else { return false }
        let length = j - i
        var found = false
        negation.forEachOccurrence(normalized: UnsafeBufferPointer(rebasing: t[i..<j])) { start, stop, _ in
            if start == 0 && stop == length { found = true }
        }
        return found
    }

    /// Runs of the same ASCII letter collapsed to one ("diiiie" → "die"), and
    /// of Japanese elongation marks ("死にたーーーい" → "死にたーい"); see
    /// ``SafetyText/squeeze(_:)``. For phrases, which go through the same steps as text.
    static func squeeze(_ s: String) -> String {
        let bytes = Array(s.utf8)
        return String(decoding: bytes.withUnsafeBufferPointer(SafetyText.squeeze), as: UTF8.self)
    }

    /// De-obfuscated and squeezed normalised text (``SafetyText``), as a string (for tests).
    static func deobfuscatedSqueezed(_ normalized: String) -> String {
        let bytes = Array(normalized.utf8)
        return String(decoding: bytes.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezed), as: UTF8.self)
    }
}

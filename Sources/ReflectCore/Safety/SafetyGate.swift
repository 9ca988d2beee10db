import Foundation

/// Recognises crisis language in what a person writes: every answer passes
/// it before the flow continues. Deterministic; its word lists come from
/// the locale files (tuned per language), its rules are here. A gate has one
/// layer per locale (the person's and English), each matched with its own
/// lists and matching mode; the most urgent verdict of any layer wins.
///
/// Cost: each reading of a text is one pass per layer of one automaton
/// holding the layer's benign idioms, crisis phrases and proximity terms
/// (``GatePass``); only when a benign idiom occurs is the text blanked and
/// matched again.
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
        /// The plain and the de-obfuscated reading's pass (benign idioms,
        /// crisis phrases and proximity terms in one automaton each).
        let passes: [GatePass]
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

        init(plain: GatePass, squeezed: GatePass, negation: PhraseMatcher?, negationSqueezed: PhraseMatcher?,
             negationAfter: PhraseMatcher?, negationAfterSqueezed: PhraseMatcher?, categories: [SafetyCategory], near: NearRules?) {
            self.passes = [plain, squeezed]
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
        let crisisPlain = try PhraseMatcher.phrases(of: lexicon)
        let crisisSqueezed = try PhraseMatcher.phrases(of: PhraseLexicon(priority: categories.map(\.rawValue), phrases: squeezedPhrases))
        func words(_ words: [String], squeeze: Bool) throws(LexiconError) -> [[UInt8]] {
            words.isEmpty ? [] : try PhraseMatcher.phrases(of: PhraseLexicon(priority: ["x"], phrases: ["x": squeeze ? words.map(squeezed) : words]))
                .map(\.bytes)
        }
        let benignPlain = try words(data.benign, squeeze: false), benignSqueezed = try words(data.benign, squeeze: true)
        let negation = try list(data.negations, squeeze: false), negationSqueezed = try list(data.negations, squeeze: true)
        let after = try afterList(squeeze: false), afterSqueezed = try afterList(squeeze: true)
        let near = try NearRules.compile(rules, slots: data.slots, mode: mode)
        return Layer(plain: GatePass(benign: benignPlain, crisis: crisisPlain, near: near?.plain ?? [], mode: mode),
                     squeezed: GatePass(benign: benignSqueezed, crisis: crisisSqueezed, near: near?.squeezed ?? [], mode: mode),
                     negation: negation, negationSqueezed: negationSqueezed, negationAfter: after, negationAfterSqueezed: afterSqueezed,
                     categories: categories, near: near?.rules)
    }

    public func check(_ text: String) -> SafetyVerdict {
        let normalized = TextNormalizer.bytes(text)
        let deobfuscated = normalized.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezed)
        var best = Int.max
        for variant in 0..<2 {
            let bytes = variant == 0 ? normalized : deobfuscated
            let done = bytes.withUnsafeBufferPointer { match($0, variant: variant, best: &best, blanked: false) }
            if done { continue }
            // A benign idiom occurs: blank out the benign idioms of every
            // layer first (spaces keep word boundaries), then match the
            // rest. The person's language knows that "Roméo se suicide à la
            // fin de la pièce" is a play, even where an English phrase
            // would match the same word.
            var copy = bytes
            copy.withUnsafeMutableBufferPointer { buf in
                for layer in layers {
                    let pass = layer.passes[variant]
                    var spans: [(start: Int, end: Int)] = []
                    pass.matcher.forEachMatch(normalized: UnsafeBufferPointer(buf)) { s, e, g in
                        if pass.benign[g] { spans.append((s, e)) }
                    }
                    for span in spans { for i in span.start..<span.end { buf[i] = 32 } }
                }
                _ = match(UnsafeBufferPointer(buf), variant: variant, best: &best, blanked: true)
            }
        }
        return best == Int.max ? .ok : .crisis(SafetyCategory.allCases[best])
    }

    /// One pass per layer over `t` (variant 0 plain, 1 de-obfuscated):
    /// lowers `best` to the rank of the most urgent crisis phrase that is
    /// not negated, and of the proximity rules that match. Unless
    /// `blanked`, returns false without a verdict when a benign idiom
    /// occurs (the caller blanks them out and matches again).
    private func match(_ t: UnsafeBufferPointer<UInt8>, variant: Int, best: inout Int, blanked: Bool) -> Bool {
        var crisis: [(layer: Int, start: Int, end: Int, category: Int32)] = []
        var near: [(layer: Int, start: Int, end: Int, term: Int)] = []
        var benign = false
        for (l, layer) in layers.enumerated() {
            let pass = layer.passes[variant]
            pass.matcher.forEachMatch(normalized: t) { s, e, g in
                if pass.benign[g] { benign = true }
                let c = pass.crisis[g]
                if c >= 0 { crisis.append((l, s, e, c)) }
                let n = pass.near[g]
                if n >= 0 { near.append((l, s, e, Int(n))) }
            }
        }
        if benign && !blanked { return false }
        for hit in crisis {
            let layer = layers[hit.layer]
            let rank = layer.ranks[Int(hit.category)]
            if best <= rank { continue }
            if let negation = variant == 0 ? layer.negation : layer.negationSqueezed,
               SafetyGate.negated(before: hit.start, in: t, by: negation) { continue }
            if let after = variant == 0 ? layer.negationAfter : layer.negationAfterSqueezed,
               SafetyGate.negated(after: hit.end, in: t, by: after) { continue }
            best = rank
        }
        if near.isEmpty { return true }
        for (l, layer) in layers.enumerated() {
            guard let rules = layer.near else { continue }
            var found = near.filter { $0.layer == l }.map { (start: $0.start, end: $0.end, term: $0.term) }
            if found.isEmpty { continue }
            NearRules.sort(&found)
            let negation = variant == 0 ? layer.negation : layer.negationSqueezed
            let after = variant == 0 ? layer.negationAfter : layer.negationAfterSqueezed
            for category in rules.matches(found, in: t, squeezed: variant == 1, negation: negation, negationAfter: after) {
                guard let rank = SafetyCategory.allCases.firstIndex(of: category) else { continue }
                if rank < best { best = rank }
            }
        }
        return true
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

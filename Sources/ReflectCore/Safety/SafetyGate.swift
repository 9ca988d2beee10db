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
/// matched again. ASCII text (most answers) is prepared in one buffer on
/// the stack and its occurrences collected on the stack: no allocation
/// (``check(_:)``); other text takes ``checkGeneral(_:)``, which gives the
/// same verdict on ASCII text too (`SafetyFastPathTests`).
///
/// Each text is checked twice:
/// 1. normalised (``TextNormalizer``: case, accents, NFKC, apostrophes);
/// 2. de-obfuscated as well: l33t digits and symbols inside words mapped
///    to letters ("su1c1de", "k1ll mys3lf"), Latin letters spelled out with
///    spaces or dots joined ("s u i c i d e", "k.i.l.l"), and repeated
///    letters squeezed ("diiiie"); the phrases are squeezed the same way.
///
/// Before matching, the benign idioms of every layer ("killing it at work",
/// "to die for", "Suicide Squad") are blanked out, except where one of the
/// layer's `benign_unless` phrases overlaps the idiom ("rather die than |
/// go on like this": ``SafetyData/benignUnless``). A match directly preceded, within
/// three words, by a negation of the locale ("I would never kill myself",
/// "I'm not suicidal") does not count, nor does one whose clause ends with
/// a negation of the locale's `negations_after` list right after it (German
/// "Er schlägt mich nicht", Japanese 死ぬつもりはない, Korean 하고 싶지는 않아,
/// spaces included: languages that negate after the verb);
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
        let plain: GatePass
        let squeezed: GatePass
        var passes: [GatePass] { [plain, squeezed] }
        /// Variant 0's pass (plain) or variant 1's (de-obfuscated).
        @inline(__always) func pass(_ variant: Int) -> GatePass { variant == 0 ? plain : squeezed }
        let negation: PhraseMatcher?
        let negationSqueezed: PhraseMatcher?
        /// Negations that follow the phrase they cancel (``SafetyData/negationsAfter``).
        let negationAfter: PhraseMatcher?
        let negationAfterSqueezed: PhraseMatcher?
        /// What a negation after a phrase must cover (``SafetyData/negationsAfterScope``).
        let afterScope: NegationScope
        let categories: [SafetyCategory]
        /// Each category's rank in ``SafetyCategory`` order (most urgent 0).
        let ranks: [Int]
        /// Proximity rules (`"{abuser} ... {hit}"`), nil when the locale has none.
        let near: NearRules?
        /// The `benign_unless` entries that are proximity rules ("rather die
        /// than ... {longer}"), nil when the locale has none.
        let unlessNear: NearRules?

        init(plain: GatePass, squeezed: GatePass, negation: PhraseMatcher?, negationSqueezed: PhraseMatcher?,
             negationAfter: PhraseMatcher?, negationAfterSqueezed: PhraseMatcher?, afterScope: NegationScope,
             categories: [SafetyCategory], near: NearRules?, unlessNear: NearRules? = nil) {
            self.plain = plain
            self.squeezed = squeezed
            self.negation = negation
            self.negationSqueezed = negationSqueezed
            self.negationAfter = negationAfter
            self.negationAfterSqueezed = negationAfterSqueezed
            self.afterScope = afterScope
            self.categories = categories
            self.ranks = categories.map { c in SafetyCategory.allCases.firstIndex(of: c) ?? 0 }
            self.near = near
            self.unlessNear = unlessNear
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
        let unless = try unlessSplit(data.benignUnless)
        for list in [data.benign, unless.plain] where !list.isEmpty {
            try PhraseLexicon(priority: ["x"], phrases: ["x": list], slots: data.slots).validate()
        }
        try NearRules.validate(unless.rules, slots: data.slots)
        for words in [data.negations, data.negationsVoid] where !words.isEmpty {
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

    /// `benign_unless` entries: phrases, and proximity rules ("rather die
    /// than ... {longer}": the idiom's words, then within the window of a
    /// proximity rule, in one clause, what makes it no idiom).
    static func unlessSplit(_ list: [String]) throws(LexiconError) -> (plain: [String], rules: [NearRules.Rule]) {
        let split = try NearRules.split([SafetyCategory.suicide.rawValue: list])
        return (split.plain[SafetyCategory.suicide.rawValue] ?? [], split.rules)
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
        // Benign idioms may use the layer's slots ("cut myself a {portion}",
        // "when i'm gone {away}"): expanded first, then squeezed like phrases.
        let benignExpanded = data.benign.isEmpty ? [] : try PhraseLexicon(priority: ["x"], phrases: ["x": data.benign], slots: data.slots)
            .expandedPhrases(of: "x")
        let benignPlain = try words(benignExpanded, squeeze: false), benignSqueezed = try words(benignExpanded, squeeze: true)
        // `benign_unless`, the idioms carried on past what makes them idioms
        // ("rather die than {go_on}"), likewise.
        let unless = try unlessSplit(data.benignUnless)
        let unlessExpanded = unless.plain.isEmpty ? []
            : try PhraseLexicon(priority: ["x"], phrases: ["x": unless.plain], slots: data.slots).expandedPhrases(of: "x")
        let unlessNear = try NearRules.compile(unless.rules, slots: data.slots, mode: mode)
        let unlessPlain = try words(unlessExpanded, squeeze: false), unlessSqueezed = try words(unlessExpanded, squeeze: true)
        let voidPlain = try words(data.negationsVoid, squeeze: false), voidSqueezed = try words(data.negationsVoid, squeeze: true)
        let negation = try list(data.negations, squeeze: false), negationSqueezed = try list(data.negations, squeeze: true)
        let after = try afterList(squeeze: false), afterSqueezed = try afterList(squeeze: true)
        let near = try NearRules.compile(rules, slots: data.slots, mode: mode)
        return Layer(plain: GatePass(benign: benignPlain, crisis: crisisPlain, near: near?.plain ?? [], void: voidPlain,
                                     unless: unlessPlain, unlessNear: unlessNear?.plain ?? [], mode: mode),
                     squeezed: GatePass(benign: benignSqueezed, crisis: crisisSqueezed, near: near?.squeezed ?? [], void: voidSqueezed,
                                        unless: unlessSqueezed, unlessNear: unlessNear?.squeezed ?? [], mode: mode),
                     negation: negation, negationSqueezed: negationSqueezed, negationAfter: after, negationAfterSqueezed: afterSqueezed,
                     afterScope: data.negationsAfterScope, categories: categories, near: near?.rules, unlessNear: unlessNear?.rules)
    }

    public func check(_ text: String) -> SafetyVerdict {
        var text = text
        if let verdict = text.withUTF8(checkASCII) { return verdict }
        return checkGeneral(text)
    }

    /// The verdict for ASCII text (nil for any other): both readings are
    /// written into one buffer on the stack (normalising ASCII is
    /// lowercasing), so that checking allocates nothing.
    private func checkASCII(_ raw: UnsafeBufferPointer<UInt8>) -> SafetyVerdict? {
        let n = raw.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 &* n &+ 1) { buffer -> SafetyVerdict? in
            guard let base = buffer.baseAddress else { return nil }
            var high: UInt8 = 0
            if let source = raw.baseAddress {
                for i in 0..<n {
                    let b = source[i]
                    high |= b
                    base[i] = b &- 65 < 26 ? b &+ 32 : b
                }
            }
            guard high < 0x80 else { return nil }
            let plain = UnsafeBufferPointer(start: base, count: n)
            let m = SafetyText.deobfuscatedSqueezedASCII(plain, into: base + n)
            return verdict(plain: plain, squeezed: UnsafeBufferPointer(start: base + n, count: m))
        }
    }

    /// The verdict for any text: normalised by ``TextNormalizer``,
    /// de-obfuscated character by character (``SafetyText``). ASCII text
    /// takes ``checkASCII(_:)``, which the tests compare with this.
    func checkGeneral(_ text: String) -> SafetyVerdict {
        let normalized = TextNormalizer.bytes(text)
        let squeezed = normalized.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezedScalars)
        return normalized.withUnsafeBufferPointer { plain in
            squeezed.withUnsafeBufferPointer { verdict(plain: plain, squeezed: $0) }
        }
    }

    /// The most urgent category found in the plain reading `plain` and the
    /// de-obfuscated, squeezed reading `squeezed` of a text.
    ///
    /// The de-obfuscated reading is matched first: a benign idiom it finds
    /// and blanks is blanked in the plain reading too, where the plain
    /// reading does not find it itself ("I cut myself a sliiice of cake":
    /// only the squeezed "slice" is the idiom, and the plain reading would
    /// otherwise see "cut myself" alone). The stretched crisis word stays
    /// found: an idiom hides only the phrases it overlaps.
    func verdict(plain: UnsafeBufferPointer<UInt8>, squeezed: UnsafeBufferPointer<UInt8>) -> SafetyVerdict {
        var best = Int.max
        withUnsafeTemporaryAllocation(of: GateHit.self, capacity: GateHits.stackCapacity) { stack in
            var hits = GateHits(stack)
            var idioms: Idioms? = nil
            if !match(squeezed, variant: 1, best: &best, blanked: false, hits: &hits) {
                idioms = blankedMatch(squeezed, variant: 1, best: &best, hits: &hits, from: nil)
            }
            hits.removeAll()
            if let idioms, idioms.blanked.contains(where: { !$0.isEmpty }) {
                _ = blankedMatch(plain, variant: 0, best: &best, hits: &hits, from: (idioms, squeezed.count))
            } else if !match(plain, variant: 0, best: &best, blanked: false, hits: &hits) {
                _ = blankedMatch(plain, variant: 0, best: &best, hits: &hits, from: nil)
            }
            hits.deallocate()
        }
        return best == Int.max ? .ok : .crisis(SafetyCategory.allCases[best])
    }

    /// The benign idioms of one reading, per layer: how many occurred, and
    /// the spans that were blanked.
    struct Idioms {
        var found: [Int]
        var blanked: [[(start: Int, end: Int)]]
    }

    /// A reading in which a benign idiom occurs (or, for the plain reading,
    /// one the de-obfuscated reading blanked, `from`): blanks out the
    /// benign idioms of every layer (spaces keep word boundaries), then
    /// matches the rest. The person's language knows that "Roméo se suicide
    /// à la fin de la pièce" is a play, even where an English phrase would
    /// match the same word.
    ///
    /// An idiom in the sentence of a phrase that voids negations ("if I
    /// said I didn't want to die I'd be lying") is not blanked: there it is
    /// the negation it spells, not an idiom; nor is one that a
    /// `benign_unless` phrase overlaps ("rather die than | go on like
    /// this"): that is no idiom.
    ///
    /// `from`: the idioms of the de-obfuscated reading, and its length. A
    /// layer that finds fewer idioms in this reading than that one did
    /// takes the spans that one blanked too, at the bytes they come from
    /// (``SafetyText/deobfuscatedSqueezedSources(_:)``, computed only then).
    private func blankedMatch(_ t: UnsafeBufferPointer<UInt8>, variant: Int, best: inout Int, hits: inout GateHits,
                              from other: (idioms: Idioms, length: Int)?) -> Idioms {
        var idioms = Idioms(found: [], blanked: [])
        var sources: [Int32]? = nil
        var copy = Array(t)
        copy.withUnsafeMutableBufferPointer { buf in
            var voids: [(start: Int, end: Int)] = []
            for (l, layer) in layers.enumerated() {
                let pass = layer.pass(variant)
                var spans: [(start: Int, end: Int)] = []
                var found: [(start: Int, end: Int)] = []
                var kept: [(start: Int, end: Int)] = []
                var terms: [(start: Int, end: Int, term: Int)] = []
                pass.matcher.forEachMatch(normalized: UnsafeBufferPointer(buf)) { s, e, g in
                    if pass.benign[g] { spans.append((s, e)) }
                    if pass.void[g] { found.append((s, e)) }
                    if pass.unless[g] { kept.append((s, e)) }
                    if pass.unlessNear[g] >= 0 { terms.append((s, e, Int(pass.unlessNear[g]))) }
                }
                if let rules = layer.unlessNear, !terms.isEmpty {
                    NearRules.sort(&terms)
                    kept += rules.spans(terms, in: t, squeezed: variant == 1)
                }
                idioms.found.append(spans.count)
                if let other, l < other.idioms.found.count, spans.count < other.idioms.found[l], !other.idioms.blanked[l].isEmpty {
                    if sources == nil { sources = SafetyText.deobfuscatedSqueezedSources(t) }
                    if let sources, sources.count == other.length {
                        for span in other.idioms.blanked[l] {
                            let start = Int(sources[span.start])
                            let end = span.end < sources.count ? Int(sources[span.end]) : t.count
                            if start < end { spans.append((start, end)) }
                        }
                    }
                }
                let keep = SafetyGate.Coverage(kept, length: buf.count)
                for v in found where !spans.contains(where: { $0.start < v.end && v.start < $0.end })
                    && !SafetyGate.voidNegated(v.start, v.end, in: t, layer: layer, variant: variant) {
                    voids.append(v)
                }
                var blanked: [(start: Int, end: Int)] = []
                for span in spans where !keep.overlaps(span.start, span.end)
                    && !voids.contains(where: { SafetyGate.sameSentence($0.start, $0.end, span.start, span.end, in: t) }) {
                    for i in span.start..<span.end { buf[i] = 32 }
                    blanked.append(span)
                }
                idioms.blanked.append(blanked)
            }
            hits.removeAll()
            _ = match(UnsafeBufferPointer(buf), variant: variant, best: &best, blanked: true, hits: &hits)
        }
        return idioms
    }

    /// One pass per layer over `t` (variant 0 plain, 1 de-obfuscated):
    /// lowers `best` to the rank of the most urgent crisis phrase that is
    /// not negated, and of the proximity rules that match. Unless
    /// `blanked`, returns false without a verdict as soon as a benign idiom
    /// occurs (the caller blanks them out and matches again). `hits` is
    /// scratch space, empty on entry.
    private func match(_ t: UnsafeBufferPointer<UInt8>, variant: Int, best: inout Int, blanked: Bool, hits: inout GateHits) -> Bool {
        for l in layers.indices {
            if !layers[l].pass(variant).collect(t, layer: l, into: &hits, stopAtBenign: !blanked) { return false }
        }
        if hits.count == 0 { return true }
        // Phrases that void the negations of their sentence ("I'd be
        // lying"), unless negated themselves ("I'm not lying"); rare, so
        // kept on the heap only when one occurs.
        var voids: [(start: Int, end: Int)] = []
        for k in 0..<hits.count {
            let hit = hits[k]
            let layer = layers[Int(hit.layer)]
            guard layer.pass(variant).void[Int(hit.group)] else { continue }
            if !SafetyGate.voidNegated(Int(hit.start), Int(hit.end), in: t, layer: layer, variant: variant) {
                voids.append((Int(hit.start), Int(hit.end)))
            }
        }
        // Crisis phrases, in any order (the most urgent wins); the hits
        // that are proximity terms are kept, as terms, for the rules.
        var terms = 0
        for k in 0..<hits.count {
            let hit = hits[k]
            let layer = layers[Int(hit.layer)]
            let pass = layer.pass(variant)
            let category = pass.crisis[Int(hit.group)]
            let term = pass.near[Int(hit.group)]
            if term >= 0 {
                hits[terms] = GateHit(start: hit.start, end: hit.end, layer: hit.layer, group: term)
                terms &+= 1
            }
            guard category >= 0 else { continue }
            let rank = layer.ranks[Int(category)]
            if best <= rank { continue }
            if SafetyGate.negated(Int(hit.start), Int(hit.end), in: t, layer: layer, variant: variant),
               !voids.contains(where: { SafetyGate.sameSentence($0.start, $0.end, Int(hit.start), Int(hit.end), in: t) }) { continue }
            best = rank
        }
        hits.truncate(to: terms)
        // Proximity rules, layer by layer (the hits are in layer order).
        var from = 0
        while from < terms {
            let l = Int(hits[from].layer)
            var to = from &+ 1
            while to < terms, Int(hits[to].layer) == l { to &+= 1 }
            let layer = layers[l]
            if let rules = layer.near {
                let found = UnsafeMutableBufferPointer(start: hits.base + from, count: to &- from)
                NearRules.sort(found)
                best = rules.bestRank(UnsafeBufferPointer(found), in: t, squeezed: variant == 1,
                                      negation: variant == 0 ? layer.negation : layer.negationSqueezed,
                                      negationAfter: variant == 0 ? layer.negationAfter : layer.negationAfterSqueezed,
                                      afterScope: layer.afterScope, below: best)
            }
            from = to
        }
        return true
    }

    /// Which bytes of a text some span covers (the `benign_unless`
    /// occurrences), so that whether a span overlaps one of them costs
    /// constant time: linear in the text and the spans, however many there
    /// are. Empty (and free) when there are none, as for almost every text.
    struct Coverage {
        /// `prefix[i]`: how many of the first `i` bytes are covered.
        private let prefix: [Int32]

        init(_ spans: [(start: Int, end: Int)], length: Int) {
            guard !spans.isEmpty else {
                prefix = []
                return
            }
            var depth = [Int32](repeating: 0, count: length + 1)
            for s in spans {
                depth[s.start] &+= 1
                depth[s.end] &-= 1
            }
            var prefix = [Int32](repeating: 0, count: length + 1)
            var open: Int32 = 0
            for i in 0..<length {
                open &+= depth[i]
                prefix[i + 1] = prefix[i] &+ (open > 0 ? 1 : 0)
            }
            self.prefix = prefix
        }

        /// Whether a covered byte lies in `start..<end`.
        func overlaps(_ start: Int, _ end: Int) -> Bool {
            !prefix.isEmpty && prefix[end] > prefix[start]
        }
    }

    /// Whether the layer's negations cancel the phrase at `start..<end`:
    /// one before it (``negated(before:in:by:)``) or after it
    /// (``negated(after:in:by:scope:)``).
    @inline(__always)
    static func negated(_ start: Int, _ end: Int, in t: UnsafeBufferPointer<UInt8>, layer: Layer, variant: Int) -> Bool {
        if let negation = variant == 0 ? layer.negation : layer.negationSqueezed,
           negated(before: start, in: t, by: negation) { return true }
        if let after = variant == 0 ? layer.negationAfter : layer.negationAfterSqueezed,
           negated(after: end, in: t, by: after, scope: layer.afterScope) { return true }
        return false
    }

    /// Whether a voiding phrase at `start..<end` is itself negated ("I'm
    /// not lying", "Ich lüge nicht"): then it voids nothing.
    static func voidNegated(_ start: Int, _ end: Int, in t: UnsafeBufferPointer<UInt8>, layer: Layer, variant: Int) -> Bool {
        negated(start, end, in: t, layer: layer, variant: variant)
    }

    /// Whether two spans are in one sentence: nothing between them ends a
    /// sentence (. ! ? or a line break; a comma does not: "if I said I
    /// didn't want to die, I'd be lying"), and they are at most
    /// ``negationWindowBytes`` apart, so the check stays linear.
    static func sameSentence(_ s1: Int, _ e1: Int, _ s2: Int, _ e2: Int, in t: UnsafeBufferPointer<UInt8>) -> Bool {
        let from = min(e1, e2), to = max(s1, s2)
        if to <= from { return true }  // they overlap
        if to - from > negationWindowBytes { return false }
        for i in from..<to {
            let b = t[i]
            if b == 46 || b == 33 || b == 63 || b == 10 { return false }
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
        return SafetyGate.negation(in: t, from: i, to: start, by: negation)
    }

    /// Whether a negation of `negation` occurs in `t[from..<to]`, the text
    /// right before a phrase that begins at `to` (or between a proximity
    /// rule's two terms). In word mode anywhere in it. In substring mode
    /// (Korean, which negates before the verb with 안: 남편이 안 때려요) a
    /// negation counts only as a word of its own (or the start of the
    /// phrase's word: 안때려요) with nothing but spaces between it and the
    /// phrase: a substring 안 is also in 한동안 or 안방, and 안 negates only
    /// the verb right after it (잠도 안 오고 죽고 싶어 is an alarm).
    static func negation(in t: UnsafeBufferPointer<UInt8>, from: Int, to: Int, by negation: PhraseMatcher) -> Bool {
        guard from < to else { return false }
        let slice = UnsafeBufferPointer(rebasing: t[from..<to])
        if negation.mode == .wordBoundary { return negation.match(normalized: slice) != nil }
        var found = false
        negation.forEachOccurrence(normalized: slice) { s, e, _ in
            let start = from + s
            var end = from + e
            guard start == 0 || t[start - 1] == 32 else { return }
            while end < to && t[end] == 32 { end += 1 }
            if end == to { found = true }
        }
        return found
    }

    /// Whether a negation phrase of `negation` (a `negations_after` list)
    /// follows `end` and covers what `scope` asks:
    ///
    /// - ``NegationScope/clause``: the whole rest of the clause, "Er schlägt
    ///   mich | nicht.", "Ich bringe mich | nicht um", 死ぬつもり|はないです.
    ///   The clause ends at , . ; : ! ? or the end of the text, and in
    ///   substring mode also at a space (Japanese 。 and 、 read as spaces);
    ///   in word mode the spaces before the negation are skipped. Only the
    ///   whole rest counts, so that "Ich ritze mich nicht mehr so oft" or
    ///   "Er schlägt mich nicht nur …" stay alarms.
    /// - ``NegationScope/words``: whole words, across spaces: the negation
    ///   begins at `end` or after the spaces right after it, and ends where a
    ///   word ends (a space, , . ; : ! ? or the end of the text), in the same
    ///   clause: 자해하고 싶|지는 않아, 자해| 안 해요. What follows it does
    ///   not matter (Korean ends a sentence with the verb's ending), so the
    ///   list holds only endings that close a sentence.
    ///
    /// Reads at most ``negationWindowBytes`` bytes, so the gate stays linear
    /// in the text.
    static func negated(after end: Int, in t: UnsafeBufferPointer<UInt8>, by negation: PhraseMatcher,
                        scope: NegationScope) -> Bool {
        @inline(__always) func clauseEnd(_ b: UInt8) -> Bool { b == 44 || b == 46 || b == 59 || b == 58 || b == 33 || b == 63 }
        let word = negation.mode == .wordBoundary
        var i = end
        if word || scope == .words {
            while i < t.count && t[i] == 32 { i += 1 }
        }
        let limit = min(t.count, i + negationWindowBytes)
        var j = i
        if scope == .words {
            while j < limit && !clauseEnd(t[j]) { j += 1 }
            guard j > i else { return false }
            var found = false
            negation.forEachMatch(normalized: UnsafeBufferPointer(rebasing: t[i..<j])) { start, stop, _ in
                let e = i + stop
                if start == 0 && (e == t.count || t[e] == 32 || clauseEnd(t[e])) { found = true }
            }
            return found
        }
        while j < limit {
            let b = t[j]
            if clauseEnd(b) || (!word && b == 32) { break }
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

/// Names the cognitive distortion in a thought, with a confidence,
/// deterministically, from a locale's ``DistortionRules``.
///
/// How a thought is scored (docs/distortions.md explains it for authors):
/// 1. Every piece of every rule, negation word, clause-break word and
///    own-words frame is found in one ``PhraseMatcher`` pass (whole words
///    for alphabetic scripts, stems for Japanese and Korean; case, accents
///    and apostrophe variants do not matter).
/// 2. Words inside quotation marks are someone else's and are skipped,
///    unless the whole thought is the quotation or an own-words frame
///    ("i keep thinking") comes before it in the same sentence.
/// 3. A rule matches when its pieces occur in order: a `{slot}` or the next
///    phrase right after the previous piece, a `...` anywhere later in the
///    same sentence. A match preceded by a `negation.before` word within
///    `window` words (characters in substring mode) in the same clause, or
///    followed by a `negation.after` word likewise, does not count.
/// 4. A type's score combines the weights of its matches on separate words:
///    1 − Π(1 − w) (matches sharing words with a stronger one of the same
///    type add nothing). The best score wins; equal scores go to the type
///    whose match starts first (it frames the other: "she thinks I'm
///    ugly"), then to the type earlier in `priority`.
/// 5. confidence = best × (1 − runner-up / 2), where the runner-up score
///    counts only rules sharing no words with the winner's matches. Below
///    `threshold` the answer is `unknown`.
///
/// Cost: one matcher pass plus work per occurrence (no backtracking); no
/// allocation when nothing matches an ASCII thought.
public struct DistortionDetector: Sendable {
    /// One compiled rule.
    struct Rule: Sendable {
        var type: Int
        var strength: DistortionRules.Strength
        var text: String
        var pieces: [Int32]
        /// gaps[k]: piece k may come anywhere later in the sentence (`...`),
        /// instead of right after piece k − 1. gaps[0] is unused.
        var gaps: [Bool]
    }

    /// Everything compiled, behind one reference: copying a detector (it
    /// is a value, and closures capture it) costs one retain.
    private let c: Compiled
    public let threshold: Double
    public let mode: PhraseMatcher.Mode

    /// - Throws: ``LexiconError`` for an unknown type name, a bad slot or
    ///   pattern, an empty phrase, or a threshold outside 0 … 1.
    /// Checks `content` as compiling it would (type names, threshold,
    /// window, slots, patterns, empty phrases) without building the
    /// matcher: for loading a locale file, whose detector is built later.
    public static func validate(_ content: DistortionRules) throws(LexiconError) {
        _ = try Front(content)
    }

    public init(_ content: DistortionRules, mode: PhraseMatcher.Mode = .wordBoundary) throws(LexiconError) {
        let front = try Front(content)
        threshold = content.threshold
        self.mode = mode
        let (types, rules, compiler, window) = (front.types, front.rules, front.compiler, content.negation.window)
        let (negateBefore, negateAfter, clauseBreak, ownWords) = (front.negateBefore, front.negateAfter, front.clauseBreak, front.ownWords)
        var steps = [[(rule: Int32, step: Int32)]](repeating: [], count: compiler.pieceCount)
        for (r, rule) in rules.enumerated() {
            for (k, p) in rule.pieces.enumerated() { steps[Int(p)].append((Int32(r), Int32(k))) }
        }
        let stepStart: [Int32] = [0] + steps.reduce(into: [Int32]()) { acc, s in acc.append((acc.last ?? 0) + Int32(s.count)) }
        let stepRule = steps.flatMap { $0.map(\.rule) }
        let stepIndex = steps.flatMap { $0.map(\.step) }
        let ruleType = rules.map { Int32($0.type) }
        let ruleWeight = rules.map(\.strength.weight)
        let ruleLength = rules.map { Int32($0.pieces.count) }
        var offsets: [Int32] = []
        var offset: Int32 = 0
        for rule in rules {
            offsets.append(offset)
            offset += Int32(rule.gaps.count)
        }
        let ruleGaps = offsets
        let gaps = rules.flatMap(\.gaps)
        // One matcher category per distinct set of pieces sharing a phrase.
        var groupOf: [[Int32]: Int] = [:]
        var groups: [[Int32]] = []
        var phrases: [String: [String]] = [:]
        var names: [String] = []
        for (bytes, pieces) in compiler.terms.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let key = pieces.sorted()
            let g: Int
            if let known = groupOf[key] { g = known } else {
                g = groups.count
                groupOf[key] = g
                groups.append(key)
                names.append("g\(g)")
            }
            phrases[names[g], default: []].append(String(decoding: bytes, as: UTF8.self))
        }
        let groupStart: [Int32] = [0] + groups.reduce(into: [Int32]()) { acc, g in acc.append((acc.last ?? 0) + Int32(g.count)) }
        let groupPieces = groups.flatMap { $0 }
        let matcher = try PhraseMatcher(PhraseLexicon(priority: names, phrases: phrases), mode: mode)
        c = Compiled(matcher: matcher, groupStart: groupStart, groupPieces: groupPieces, stepStart: stepStart, stepRule: stepRule,
                     stepIndex: stepIndex, ruleType: ruleType, ruleWeight: ruleWeight, ruleLength: ruleLength, ruleGaps: ruleGaps,
                     gaps: gaps, rules: rules, types: types, negateBefore: negateBefore, negateAfter: negateAfter,
                     clauseBreak: clauseBreak, ownWords: ownWords, window: window)
    }

    /// The first pass's form: every phrase a strong rule.
    public init(_ lexicon: PhraseLexicon, mode: PhraseMatcher.Mode = .wordBoundary) throws(LexiconError) {
        try self.init(DistortionRules(priority: lexicon.priority, phrases: lexicon.phrases, slots: lexicon.slots), mode: mode)
    }

    /// The type only (`unknown` below the threshold).
    public func detect(_ thought: String) -> DistortionType { detection(thought).type }

    /// The type and its confidence.
    public func detection(_ thought: String) -> DistortionDetection {
        var trace: Trace? = nil
        return evaluate(thought, trace: &trace)
    }

    /// What matched, what was cancelled and why the winner won.
    public func explain(_ thought: String) -> DistortionExplanation {
        var trace: Trace? = Trace()
        let detection = evaluate(thought, trace: &trace)
        let t = trace ?? Trace()
        return DistortionExplanation(matches: t.matches, scores: t.scores, detection: detection,
                                     threshold: threshold, priority: c.types)
    }

    // MARK: - Evaluation

    struct Trace {
        var matches: [DistortionExplanation.Match] = []
        var scores: [DistortionExplanation.Score] = []
    }

    /// One piece found in the text, with where it stands.
    private struct Occurrence {
        var start: Int32
        var end: Int32
        var piece: Int32
        var sentence: Int32 = 0
        var clause: Int32 = 0
        /// Words (characters in substring mode) before start / up to end.
        var unitStart: Int32 = 0
        var unitEnd: Int32 = 0
        var quoted = false
    }

    private struct Partial {
        var first: Int32
        var end: Int32
        var sentence: Int32
        /// Bytes of the pieces matched so far (c.gaps excluded).
        var covered: Int32
    }

    private func evaluate(_ thought: String, trace: inout Trace?) -> DistortionDetection {
        var text = thought
        let ascii: DistortionDetection? = text.withUTF8 { raw in
            guard raw.count <= 4096, !raw.contains(where: { $0 >= 0x80 }) else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(raw.count, 1)) { buf in
                for i in 0..<raw.count {
                    let b = raw[i]
                    buf[i] = (b >= 65 && b <= 90) ? b + 32 : b
                }
                return evaluate(normalized: UnsafeBufferPointer(rebasing: buf[0..<raw.count]), trace: &trace)
            }
        }
        if let ascii { return ascii }
        let bytes = DistortionText.bytes(thought)
        return bytes.withUnsafeBufferPointer { evaluate(normalized: $0, trace: &trace) }
    }

    private func evaluate(normalized t: UnsafeBufferPointer<UInt8>, trace: inout Trace?) -> DistortionDetection {
        var occ: [Occurrence] = []
        c.matcher.forEachOccurrence(normalized: t) { s, e, g in
            for j in Int(c.groupStart[g])..<Int(c.groupStart[g + 1]) {
                if occ.isEmpty { occ.reserveCapacity(32) }
                occ.append(Occurrence(start: Int32(s), end: Int32(e), piece: c.groupPieces[j]))
            }
        }
        if occ.isEmpty { return .none }
        locate(&occ, in: t)
        maskQuotes(&occ, in: t)
        if trace != nil {
            for o in occ where o.quoted {
                for j in Int(c.stepStart[Int(o.piece)])..<Int(c.stepStart[Int(o.piece) + 1]) where c.stepIndex[j] == 0 {
                    let rule = c.rules[Int(c.stepRule[j])]
                    let text = String(decoding: UnsafeBufferPointer(rebasing: t[Int(o.start)..<Int(o.end)]), as: UTF8.self)
                    trace?.matches.append(.init(type: c.types[rule.type], strength: rule.strength, rule: rule.text, text: text, status: .quoted))
                }
            }
        }

        // Rule chains, in text order. Partial chains are few; a linear list
        // keyed by (rule, next step) is cheaper than hashing, and bounded by
        // the number of rule steps.
        var partials: [(key: Int32, partial: Partial)] = []
        var complete: [(rule: Int, first: Int, last: Int, covered: Int32)] = []
        for i in occ.indices where !occ[i].quoted {
            let o = occ[i]
            let p = Int(o.piece)
            for j in Int(c.stepStart[p])..<Int(c.stepStart[p + 1]) {
                let r = Int(c.stepRule[j]), k = Int(c.stepIndex[j])
                var first = i
                var covered = o.end - o.start
                if k > 0 {
                    let key = Int32(r << 4 | k)
                    guard let at = partials.firstIndex(where: { $0.key == key }) else { continue }
                    let part = partials[at].partial
                    guard part.end <= o.start else { continue }
                    if c.gaps[Int(c.ruleGaps[r]) + k] {
                        guard part.sentence == o.sentence else { continue }
                    } else {
                        var b = Int(part.end)
                        while b < Int(o.start), t[b] == 32 { b += 1 }
                        guard b == Int(o.start) else { continue }
                    }
                    first = Int(part.first)
                    covered += part.covered
                }
                if k + 1 == Int(c.ruleLength[r]) {
                    if complete.isEmpty { complete.reserveCapacity(8) }
                    complete.append((r, first, i, covered))
                } else {
                    let key = Int32(r << 4 | (k + 1))
                    let new = Partial(first: Int32(first), end: o.end, sentence: o.sentence, covered: covered)
                    if let at = partials.firstIndex(where: { $0.key == key }) {
                        // Right after: keep the longest reach; anywhere later:
                        // keep the earliest end in the current sentence.
                        let old = partials[at].partial
                        let replace = c.gaps[Int(c.ruleGaps[r]) + k + 1]
                            ? (old.sentence != new.sentence || new.end < old.end) : new.end > old.end
                        if replace { partials[at].partial = new }
                    } else {
                        if partials.isEmpty { partials.reserveCapacity(16) }
                        partials.append((key, new))
                    }
                }
            }
        }
        if complete.isEmpty { return .none }

        // Negation, then scores per type.
        var negators = Negators()
        for (i, o) in occ.enumerated() where !o.quoted {
            if o.piece == c.negateBefore { negators.before.append((o.end, i)) }
            if o.piece == c.negateAfter { negators.after.append((o.start, i)) }
        }
        if negators.before.count > 1 { negators.before.sort { $0.end < $1.end } }
        var counted: [Match] = []
        counted.reserveCapacity(complete.count)
        for (r, first, last, covered) in complete {
            let a = occ[first], b = occ[last]
            let negator = negation(before: a, after: b, in: occ, negators)
            if trace != nil {
                let text = String(decoding: UnsafeBufferPointer(rebasing: t[Int(a.start)..<Int(b.end)]), as: UTF8.self)
                let status: DistortionExplanation.Match.Status = negator.map {
                    .negated(by: String(decoding: UnsafeBufferPointer(rebasing: t[Int(occ[$0].start)..<Int(occ[$0].end)]), as: UTF8.self))
                } ?? .counted
                trace?.matches.append(.init(type: c.types[c.rules[r].type], strength: c.rules[r].strength, rule: c.rules[r].text, text: text, status: status))
            }
            if negator == nil { counted.append(Match(rule: r, start: a.start, end: b.end, covered: covered)) }
        }
        // Evidence per type: its matches on separate words, strongest (then
        // longest) first; a match sharing words with a stronger one of the
        // same type adds nothing ("I'm a bad person" is one label, not two).
        counted.sort { x, y in
            let wx = c.ruleWeight[x.rule], wy = c.ruleWeight[y.rule]
            if wx != wy { return wx > wy }
            if x.covered != y.covered { return x.covered > y.covered }
            if x.start != y.start { return x.start < y.start }
            return x.rule < y.rule
        }
        // At most 64 per type: more cannot change a score rounded to 1e-6
        // (0.7^64 < 1e-9), and it keeps this linear on hostile input.
        var tally = [Tally](repeating: Tally(), count: c.types.count)
        var kept: [Match] = []
        kept.reserveCapacity(counted.count)
        for m in counted where tally[Int(c.ruleType[m.rule])].count < 64 {
            let t = Int(c.ruleType[m.rule])
            if kept.contains(where: { Int(c.ruleType[$0.rule]) == t && $0.overlaps(m) }) { continue }
            kept.append(m)
            tally[t].miss *= 1 - c.ruleWeight[m.rule]
            tally[t].count += 1
        }
        // Where a type's reading starts: its earliest counted match, kept or
        // not (a frame such as "everyone … laughs at me" starts there even
        // when a longer match inside it is the one that scores).
        for m in counted { tally[Int(c.ruleType[m.rule])].first = min(tally[Int(c.ruleType[m.rule])].first, m.start) }
        // The best score wins; equal scores go to the type whose match comes
        // first (it frames the rest: "she thinks I'm ugly", "because I'm a
        // bad father"), then to priority.
        func better(_ a: Int, _ b: Int) -> Bool {
            if tally[a].miss != tally[b].miss { return tally[a].miss < tally[b].miss }
            if tally[a].first != tally[b].first { return tally[a].first < tally[b].first }
            return a < b
        }
        var best = -1
        for c in c.types.indices where tally[c].count > 0 && (best < 0 || better(c, best)) { best = c }
        guard best >= 0 else { return .none }
        // The runner-up: other c.types' matches that share no words with any
        // of the winner's ("she thinks I'm an idiot" is mind reading; its
        // "I'm an idiot" does not compete).
        for m in kept where Int(c.ruleType[m.rule]) != best {
            if counted.contains(where: { Int(c.ruleType[$0.rule]) == best && $0.overlaps(m) }) { continue }
            tally[Int(c.ruleType[m.rule])].rival *= 1 - c.ruleWeight[m.rule]
        }
        var rival = 1.0
        for c in c.types.indices where c != best { rival = min(rival, tally[c].rival) }
        if trace != nil {
            trace?.scores = c.types.indices.filter { tally[$0].count > 0 }
                .sorted(by: better)
                .map { .init(type: c.types[$0], score: DistortionDetector.rounded(1 - tally[$0].miss), rules: tally[$0].count,
                             competing: DistortionDetector.rounded(1 - tally[$0].rival), start: Int(tally[$0].first)) }
        }
        let top = 1 - tally[best].miss
        let confidence = DistortionDetector.rounded(top * (1 - (1 - rival) / 2))
        return DistortionDetection(type: confidence >= threshold ? c.types[best] : .unknown, confidence: confidence, candidate: c.types[best])
    }

    /// One type's evidence in one thought.
    private struct Tally {
        /// Π(1 − w) over its kept matches (score = 1 − miss).
        var miss = 1.0
        /// The same over its matches apart from the winner's words.
        var rival = 1.0
        var count = 0
        var first = Int32.max
    }

    /// A rule's match that counts (not negated, not quoted).
    private struct Match {
        var rule: Int
        var start: Int32
        var end: Int32
        var covered: Int32

        func overlaps(_ o: Match) -> Bool { start < o.end && o.start < end }
    }

    /// Rounds to 1e-6, so that equal rule sets give equal figures on any
    /// machine and thresholds compare as written.
    static func rounded(_ x: Double) -> Double { (x * 1_000_000).rounded() / 1_000_000 }

    /// The occurrences of negation words, for ``negation(before:after:)``:
    /// `before` words by end, `after` words by start.
    private struct Negators {
        var before: [(end: Int32, index: Int)] = []
        var after: [(start: Int32, index: Int)] = []
    }

    /// The index of the occurrence of a negation word that cancels the
    /// match from `a` to `b`, if any. Only the nearest word on each side can
    /// (clauses and units only grow along the text), found by bisection.
    private func negation(before a: Occurrence, after b: Occurrence, in occ: [Occurrence], _ negators: Negators) -> Int? {
        // The last `before` word ending at or before a.start.
        var lo = 0, hi = negators.before.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if negators.before[mid].end <= a.start { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 {
            let i = negators.before[lo - 1].index
            if occ[i].clause == a.clause, a.unitStart - occ[i].unitEnd <= Int32(c.window) { return i }
        }
        // The first `after` word starting at or after b.end.
        lo = 0; hi = negators.after.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if negators.after[mid].start < b.end { lo = mid + 1 } else { hi = mid }
        }
        if lo < negators.after.count {
            let i = negators.after[lo].index
            if occ[i].clause == b.clause, occ[i].unitStart - b.unitEnd <= Int32(c.window) { return i }
        }
        return nil
    }

    /// Fills sentence, clause and unit positions (one forward pass; the
    /// occurrences are in order of start).
    private func locate(_ occ: inout [Occurrence], in t: UnsafeBufferPointer<UInt8>) {
        var pos = 0, sentence: Int32 = 0, clause: Int32 = 0, units: Int32 = 0
        func isUnitStart(_ i: Int) -> Bool {
            switch mode {
            case .substring: return t[i] & 0xC0 != 0x80 && t[i] != 32
            case .wordBoundary:
                let word = TextNormalizer.isWordByte(t[i]) || t[i] == 39
                return word && (i == 0 || !(TextNormalizer.isWordByte(t[i - 1]) || t[i - 1] == 39))
            }
        }
        var breakEnds: [Int32] = []
        var lastStart: Int32 = -1, lastEnd: Int32 = -1, lastInside: Int32 = 0
        for i in occ.indices {
            let s = Int(occ[i].start)
            while pos < s {
                let b = t[pos]
                if DistortionText.endsSentence(b) { sentence += 1 }
                if DistortionText.endsClause(b) { clause += 1 }
                if isUnitStart(pos) { units += 1 }
                pos += 1
            }
            // Pieces sharing a phrase share its span: count its units once.
            if occ[i].start != lastStart || occ[i].end != lastEnd {
                lastInside = 0
                for j in s..<Int(occ[i].end) where isUnitStart(j) { lastInside += 1 }
                lastStart = occ[i].start
                lastEnd = occ[i].end
            }
            let inside = lastInside
            occ[i].sentence = sentence
            occ[i].clause = clause
            occ[i].unitStart = units
            occ[i].unitEnd = units + inside
            if occ[i].piece == c.clauseBreak { breakEnds.append(occ[i].end) }
        }
        // A clause-break word ends its clause where the word ends.
        if !breakEnds.isEmpty {
            breakEnds.sort()
            var k = 0
            for i in occ.indices {
                while k < breakEnds.count, breakEnds[k] <= occ[i].start { k += 1 }
                occ[i].clause += Int32(k)
            }
        }
    }

    /// Marks occurrences inside someone else's quotation: one sweep over
    /// the quotations (in order of opening) and the occurrences.
    private func maskQuotes(_ occ: inout [Occurrence], in t: UnsafeBufferPointer<UInt8>) {
        guard t.contains(where: { $0 == 34 || $0 == DistortionText.open }) else { return }
        let firstWord = t.firstIndex(where: TextNormalizer.isWordByte) ?? t.count
        let lastWord = t.lastIndex(where: TextNormalizer.isWordByte) ?? -1
        var masked: [(open: Int, close: Int)] = []
        var pos = 0, sentence: Int32 = 0, k = 0, ownSentence: Int32 = -1
        for q in DistortionText.quotes(t) {
            while pos < q.open {
                if DistortionText.endsSentence(t[pos]) { sentence += 1 }
                pos += 1
            }
            while k < occ.count, occ[k].start < Int32(q.open) {
                if occ[k].piece == c.ownWords, occ[k].end <= Int32(q.open) { ownSentence = occ[k].sentence }
                k += 1
            }
            // The whole thought in quotation marks is the person's own; so is
            // a quotation after "i keep thinking" in the same sentence.
            let whole = firstWord > q.open && lastWord < q.close
            if whole || ownSentence == sentence { continue }
            if let last = masked.last, q.open <= last.close {
                masked[masked.count - 1].close = max(last.close, q.close)
            } else {
                masked.append(q)
            }
        }
        var m = 0
        for i in occ.indices {
            let s = Int(occ[i].start)
            while m < masked.count, masked[m].close < s { m += 1 }
            if m < masked.count, masked[m].open < s, s < masked[m].close { occ[i].quoted = true }
        }
    }
}


/// A compiled detector's tables (immutable).
private final class Compiled: Sendable {
    let matcher: PhraseMatcher
    let groupStart: [Int32]
    let groupPieces: [Int32]
    let stepStart: [Int32]
    let stepRule: [Int32]
    let stepIndex: [Int32]
    let ruleType: [Int32]
    let ruleWeight: [Double]
    let ruleLength: [Int32]
    let ruleGaps: [Int32]
    let gaps: [Bool]
    let rules: [DistortionDetector.Rule]
    let types: [DistortionType]
    let negateBefore: Int32
    let negateAfter: Int32
    let clauseBreak: Int32
    let ownWords: Int32
    let window: Int

    init(matcher: PhraseMatcher, groupStart: [Int32], groupPieces: [Int32], stepStart: [Int32], stepRule: [Int32], stepIndex: [Int32], ruleType: [Int32], ruleWeight: [Double], ruleLength: [Int32], ruleGaps: [Int32], gaps: [Bool], rules: [DistortionDetector.Rule], types: [DistortionType], negateBefore: Int32, negateAfter: Int32, clauseBreak: Int32, ownWords: Int32, window: Int) {
        self.matcher = matcher
        self.groupStart = groupStart
        self.groupPieces = groupPieces
        self.stepStart = stepStart
        self.stepRule = stepRule
        self.stepIndex = stepIndex
        self.ruleType = ruleType
        self.ruleWeight = ruleWeight
        self.ruleLength = ruleLength
        self.ruleGaps = ruleGaps
        self.gaps = gaps
        self.rules = rules
        self.types = types
        self.negateBefore = negateBefore
        self.negateAfter = negateAfter
        self.clauseBreak = clauseBreak
        self.ownWords = ownWords
        self.window = window
    }
}


/// The checked, piece-compiled form of a rule set: what a detector is built
/// from, and all that validating a locale file needs.
private struct Front {
    var types: [DistortionType] = []
    var rules: [DistortionDetector.Rule] = []
    var compiler: PieceCompiler
    var negateBefore: Int32, negateAfter: Int32, clauseBreak: Int32, ownWords: Int32

    init(_ content: DistortionRules) throws(LexiconError) {
        for name in content.priority {
            guard let t = DistortionType(rawValue: name), t != .unknown else {
                throw LexiconError(category: name, phrase: "", reason: "not a distortion type (expected one of "
                    + DistortionType.allCases.filter { $0 != .unknown }.map(\.rawValue).joined(separator: ", ") + ")")
            }
            types.append(t)
        }
        for name in content.cues.keys where !content.priority.contains(name) {
            throw LexiconError(category: name, phrase: "", reason: "has rules but is not in priority")
        }
        guard content.threshold >= 0, content.threshold <= 1 else {
            throw LexiconError(category: "threshold", phrase: "\(content.threshold)", reason: "must be between 0 and 1")
        }
        guard content.negation.window >= 0, content.negation.window <= 50 else {
            throw LexiconError(category: "negation", phrase: "window: \(content.negation.window)", reason: "must be between 0 and 50")
        }
        compiler = PieceCompiler(slots: content.slots)
        negateBefore = try compiler.list(content.negation.before, named: "negation.before")
        negateAfter = try compiler.list(content.negation.after, named: "negation.after")
        clauseBreak = try compiler.list(content.clauseBreaks, named: "clause_breaks")
        ownWords = try compiler.list(content.ownWords, named: "own_words")
        for (t, name) in content.priority.enumerated() {
            let cues = content.cues[name] ?? .init()
            for strength in DistortionRules.Strength.allCases {
                for text in cues[strength] {
                    let (pieces, gaps) = try compiler.pattern(text, category: name)
                    rules.append(DistortionDetector.Rule(type: t, strength: strength, text: text, pieces: pieces, gaps: gaps))
                }
            }
        }
    }
}

/// Turns rules into pieces: each distinct phrase chunk or `{slot}` is one
/// piece, with its expanded, normalised phrases.
private struct PieceCompiler {
    let slots: [String: [String]]
    /// Normalised phrase → pieces listing it.
    var terms: [[UInt8]: Set<Int32>] = [:]
    var pieceCount = 0
    private var known: [String: Int32] = [:]

    init(slots: [String: [String]]) { self.slots = slots }

    /// A pattern's parts around `...` or `…`.
    static func segments(_ text: String) -> [Substring] {
        // Most rules have no gap: skip the search.
        if !text.utf8.contains(UInt8(ascii: ".")) && !text.unicodeScalars.contains("…") { return [text[...]] }
        var out: [Substring] = []
        var rest = text[...]
        while true {
            let dots = rest.firstRange(of: "...")
            let ellipsis = rest.firstIndex(of: "…")
            if let d = dots, ellipsis.map({ d.lowerBound < $0 }) ?? true {
                out.append(rest[..<d.lowerBound]); rest = rest[d.upperBound...]
            } else if let e = ellipsis {
                out.append(rest[..<e]); rest = rest[rest.index(after: e)...]
            } else {
                out.append(rest); return out
            }
        }
    }

    /// A list of its own (negation words, clause breaks); -1 when empty.
    mutating func list(_ words: [String], named name: String) throws(LexiconError) -> Int32 {
        guard !words.isEmpty else { return -1 }
        let id = Int32(pieceCount)
        pieceCount += 1
        try add(PhraseLexicon(priority: [name], phrases: [name: words], slots: slots), category: name, to: id)
        return id
    }

    /// A rule's pieces and gaps.
    mutating func pattern(_ text: String, category: String) throws(LexiconError) -> ([Int32], [Bool]) {
        var pieces: [Int32] = [], gaps: [Bool] = []
        let segments = PieceCompiler.segments(text)
        for (n, segment) in segments.enumerated() {
            var chunk: [Substring] = []
            var firstInSegment = true
            func flush() throws(LexiconError) {
                guard !chunk.isEmpty else { return }
                try append(chunk.joined(separator: " "), slot: nil)
                chunk.removeAll()
            }
            func append(_ piece: String, slot: String?) throws(LexiconError) {
                let key = slot.map { "{\($0)}" } ?? piece
                let id: Int32
                if let k = known[key] { id = k } else {
                    id = Int32(pieceCount)
                    pieceCount += 1
                    known[key] = id
                    let lexicon = slot.map { PhraseLexicon(priority: ["piece"], phrases: ["piece": slots[$0] ?? []], slots: slots) }
                        ?? PhraseLexicon(priority: ["piece"], phrases: ["piece": [piece]], slots: slots)
                    if let slot, (slots[slot] ?? []).isEmpty {
                        throw LexiconError(category: category, phrase: text, reason: "unknown or empty slot '{\(slot)}'")
                    }
                    try add(lexicon, category: category, rule: text, to: id)
                }
                pieces.append(id)
                gaps.append(n > 0 && firstInSegment)
                firstInSegment = false
            }
            for token in segment.split(separator: " ", omittingEmptySubsequences: true) {
                if token.hasPrefix("{"), token.hasSuffix("}"), token.dropFirst().dropLast().allSatisfy({ $0 != "{" && $0 != "}" }) {
                    try flush()
                    try append("", slot: String(token.dropFirst().dropLast()))
                } else {
                    chunk.append(token)
                }
            }
            try flush()
            if firstInSegment {
                throw LexiconError(category: category, phrase: text, reason: "empty piece around '...'")
            }
        }
        if pieces.count > 8 {
            throw LexiconError(category: category, phrase: text, reason: "more than 8 pieces")
        }
        return (pieces, gaps)
    }

    private mutating func add(_ lexicon: PhraseLexicon, category: String, rule: String? = nil, to id: Int32) throws(LexiconError) {
        do {
            for (bytes, phrase) in try lexicon.normalizedPhrases(of: lexicon.priority[0]) {
                let trimmed = try PhraseMatcher.trimmed(bytes, category: category, phrase: phrase)
                terms[Array(trimmed), default: []].insert(id)
            }
        } catch {
            throw LexiconError(category: category, phrase: rule ?? error.phrase, reason: error.reason)
        }
    }
}

// MARK: - Compiled form

extension DistortionDetector {
    /// Bumped whenever the layout below or anything that decides what a
    /// compiled detector contains (normalisation, expansion) changes.
    public static let compiledFormat: UInt32 = 1

    /// The detector as bytes, read back by ``init(reading:)``: for keeping
    /// a compiled detector on disk instead of expanding the rules at every start.
    public func write(to w: inout CompiledWriter) {
        w.u32(DistortionDetector.compiledFormat)
        w.double(threshold)
        w.bool(mode == .substring)
        c.matcher.write(to: &w.bytes)
        for list in [c.groupStart, c.groupPieces, c.stepStart, c.stepRule, c.stepIndex, c.ruleType, c.ruleLength, c.ruleGaps] {
            w.int32s(list)
        }
        w.u32(UInt32(c.ruleWeight.count))
        for x in c.ruleWeight { w.double(x) }
        w.u32(UInt32(c.gaps.count))
        for g in c.gaps { w.bool(g) }
        w.u32(UInt32(c.rules.count))
        for rule in c.rules {
            w.int(rule.type)
            w.string(rule.strength.rawValue)
            w.string(rule.text)
            w.int32s(rule.pieces)
            w.u32(UInt32(rule.gaps.count))
            for g in rule.gaps { w.bool(g) }
        }
        w.strings(c.types.map(\.rawValue))
        for x in [c.negateBefore, c.negateAfter, c.clauseBreak, c.ownWords] { w.u32(UInt32(bitPattern: x)) }
        w.int(c.window)
    }

    /// A detector read from ``write(to:)``'s bytes; nil unless they are a
    /// complete detector of this format whose every index is in range (a
    /// damaged file can neither crash nor hang detection).
    public init?(reading r: inout CompiledReader) {
        guard r.u32() == DistortionDetector.compiledFormat, let threshold = r.double(), let substring = r.bool() else { return nil }
        var at = r.offset
        guard let matcher = PhraseMatcher(reading: r.bytes, at: &at) else { return nil }
        r.offset = at
        var lists: [[Int32]] = []
        for _ in 0..<8 {
            guard let l = r.int32s() else { return nil }
            lists.append(l)
        }
        let (groupStart, groupPieces, stepStart, stepRule, stepIndex, ruleType, ruleLength, ruleGaps)
            = (lists[0], lists[1], lists[2], lists[3], lists[4], lists[5], lists[6], lists[7])
        guard let nw = r.count(minimumSize: 8) else { return nil }
        var weights: [Double] = []
        for _ in 0..<nw {
            guard let x = r.double() else { return nil }
            weights.append(x)
        }
        guard let ng = r.count() else { return nil }
        var gaps: [Bool] = []
        for _ in 0..<ng {
            guard let g = r.bool() else { return nil }
            gaps.append(g)
        }
        guard let nr = r.count(minimumSize: 20) else { return nil }
        var rules: [Rule] = []
        for _ in 0..<nr {
            guard let type = r.int(), let s = r.string(), let strength = DistortionRules.Strength(rawValue: s), let text = r.string(),
                  let pieces = r.int32s(), let k = r.count() else { return nil }
            var g: [Bool] = []
            for _ in 0..<k {
                guard let x = r.bool() else { return nil }
                g.append(x)
            }
            rules.append(Rule(type: type, strength: strength, text: text, pieces: pieces, gaps: g))
        }
        guard let names = r.strings(), let nb = r.u32(), let na = r.u32(), let cb = r.u32(), let ow = r.u32(), let window = r.int()
        else { return nil }
        var types: [DistortionType] = []
        for n in names {
            guard let t = DistortionType(rawValue: n) else { return nil }
            types.append(t)
        }
        // Every index the evaluation follows must be in range.
        let groups = matcher.categories.count
        let pieces = stepStart.count - 1
        let ruleCount = rules.count
        func ascending(_ starts: [Int32], end: Int) -> Bool {
            guard let first = starts.first, first == 0, starts.last.map({ Int($0) == end }) ?? false else { return false }
            return zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 }
        }
        guard groupStart.count == groups + 1, ascending(groupStart, end: groupPieces.count), pieces >= 0,
              groupPieces.allSatisfy({ $0 >= 0 && Int($0) < pieces }), ascending(stepStart, end: stepRule.count),
              stepIndex.count == stepRule.count, stepRule.allSatisfy({ $0 >= 0 && Int($0) < ruleCount }),
              ruleType.count == ruleCount, ruleLength.count == ruleCount, ruleGaps.count == ruleCount, weights.count == ruleCount,
              ruleType.allSatisfy({ $0 >= 0 && Int($0) < types.count }),
              rules.allSatisfy({ $0.type >= 0 && $0.type < types.count && $0.pieces.count <= 8 && $0.gaps.count == $0.pieces.count
                  && $0.pieces.allSatisfy { p in p >= 0 && Int(p) < pieces } }),
              zip(ruleLength, rules).allSatisfy({ Int($0) == $1.pieces.count }),
              zip(ruleGaps, rules).allSatisfy({ $0 >= 0 && Int($0) + $1.gaps.count <= gaps.count }),
              zip(stepIndex, stepRule).allSatisfy({ $0 >= 0 && Int($0) < rules[Int($1)].pieces.count }),
              [nb, na, cb, ow].allSatisfy({ Int32(bitPattern: $0) >= -1 && Int(Int32(bitPattern: $0)) < pieces }),
              (0...50).contains(window), threshold >= 0, threshold <= 1
        else { return nil }
        self.threshold = threshold
        self.mode = substring ? .substring : .wordBoundary
        c = Compiled(matcher: matcher, groupStart: groupStart, groupPieces: groupPieces, stepStart: stepStart, stepRule: stepRule,
                     stepIndex: stepIndex, ruleType: ruleType, ruleWeight: weights, ruleLength: ruleLength, ruleGaps: ruleGaps,
                     gaps: gaps, rules: rules, types: types, negateBefore: Int32(bitPattern: nb), negateAfter: Int32(bitPattern: na),
                     clauseBreak: Int32(bitPattern: cb), ownWords: Int32(bitPattern: ow), window: window)
    }
}

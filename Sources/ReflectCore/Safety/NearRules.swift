import Foundation

/// Proximity rules of the safety gate. A crisis phrase written
/// `"{abuser} ... {hit_past}"` (the separator is ` ... `, spaces included)
/// flags its category when a left term is followed by a right term in the
/// same clause, with at most ``maxWords`` words between them (``maxCharacters``
/// characters in substring mode, for Japanese and Korean). This is how
/// "Mein Mann hat mich gestern wieder geschlagen", "夫にまた殴られた" or
/// "my dad gets drunk and beats us" are written without listing every word
/// that may come between.
///
/// - Order matters: "I hit my husband" does not match `{partner} ... hits`.
/// - The window stops at `, . ; : ! ?`, like the negation window.
/// - A negation of the locale within three words before the left term, or
///   anywhere between the two terms ("my husband never hits me"), or one of
///   its `negations_after` right after the right term ("Mein Mann schlägt
///   mich nicht"), cancels the match.
///
/// Cost: no pass of its own (the terms are found by the gate's one pass
/// per layer and variant, ``GatePass``), then constant work per occurrence; the window
/// check reads at most the bytes between the two terms of a pair, and stops
/// once the window is exceeded. Linear in the text.
struct NearRules: Sendable {
    static let separator = " ... "
    static let maxWords = 6
    static let maxCharacters = 12

    /// One rule: its category and its two sides (slots unexpanded).
    struct Rule: Sendable, Equatable {
        let category: SafetyCategory
        let left: String
        let right: String
    }

    /// For each variant (plain, squeezed), each distinct term's sides:
    /// `rule * 2 + side`. The terms themselves are found by the gate's
    /// pass (``GatePass``), term i reported as near term i.
    let plainMembers: [[Int32]]
    let squeezedMembers: [[Int32]]
    /// Each rule's category.
    let categories: [SafetyCategory]
    let mode: PhraseMatcher.Mode
    /// The members flattened (``bestRank(_:in:squeezed:negation:negationAfter:afterScope:below:)``
    /// reads them without touching nested arrays), and each rule's
    /// category as a rank in ``SafetyCategory`` order.
    private let plainOffsets: [Int32], plainCodes: [Int32]
    private let squeezedOffsets: [Int32], squeezedCodes: [Int32]
    private let ranks: [Int]

    /// The phrases of `phrases` that are proximity rules, and the rest.
    static func split(_ phrases: [String: [String]]) throws(LexiconError) -> (plain: [String: [String]], rules: [Rule]) {
        var plain: [String: [String]] = [:]
        var rules: [Rule] = []
        for category in SafetyCategory.allCases {
            for phrase in phrases[category.rawValue] ?? [] {
                guard phrase.contains(separator) else {
                    plain[category.rawValue, default: []].append(phrase)
                    continue
                }
                let sides = phrase.components(separatedBy: separator)
                guard sides.count == 2, sides.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                    throw LexiconError(category: category.rawValue, phrase: phrase,
                                       reason: "a proximity rule has exactly two sides around \" ... \"")
                }
                rules.append(Rule(category: category, left: sides[0], right: sides[1]))
            }
        }
        return (plain, rules)
    }

    /// Throws what building the rules would throw (unknown slots, empty terms).
    static func validate(_ rules: [Rule], slots: [String: [String]]) throws(LexiconError) {
        for rule in rules {
            try PhraseLexicon(priority: [rule.category.rawValue], phrases: [rule.category.rawValue: [rule.left, rule.right]], slots: slots)
                .validate()
        }
    }

    /// The rules, and for each variant the terms to find, as matched
    /// (normalised, trimmed, distinct) with their term index; nil when
    /// there are no rules.
    static func compile(_ rules: [Rule], slots: [String: [String]], mode: PhraseMatcher.Mode) throws(LexiconError)
        -> (rules: NearRules, plain: [(bytes: [UInt8], category: Int)], squeezed: [(bytes: [UInt8], category: Int)])? {
        guard !rules.isEmpty else { return nil }
        func compile(_ transform: ([UInt8]) -> [UInt8]) throws(LexiconError) -> (members: [[Int32]], terms: [(bytes: [UInt8], category: Int)]) {
            var index: [[UInt8]: Int] = [:]
            var terms: [[UInt8]] = []
            var members: [[Int32]] = []
            for (r, rule) in rules.enumerated() {
                for (side, text) in [rule.left, rule.right].enumerated() {
                    let name = rule.category.rawValue
                    for (bytes, phrase) in try PhraseLexicon(priority: [name], phrases: [name: [text]], slots: slots).normalizedPhrases(of: name) {
                        let term = transform(Array(try PhraseMatcher.trimmed(bytes, category: name, phrase: phrase)))
                        let i: Int
                        if let known = index[term] {
                            i = known
                        } else {
                            i = terms.count
                            index[term] = i
                            terms.append(term)
                            members.append([])
                        }
                        let code = Int32(r * 2 + side)
                        if !members[i].contains(code) { members[i].append(code) }
                    }
                }
            }
            // Each term as its own category, matched as a phrase of its own
            // (normalised again), as a matcher over these terms would.
            let names = terms.indices.map(String.init)
            var phrases: [String: [String]] = [:]
            for (i, term) in terms.enumerated() { phrases[names[i]] = [String(decoding: term, as: UTF8.self)] }
            return (members, try PhraseMatcher.phrases(of: PhraseLexicon(priority: names, phrases: phrases)))
        }
        let plain = try compile { $0 }
        let squeezed = try compile { Array(SafetyGate.squeeze(String(decoding: $0, as: UTF8.self)).utf8) }
        let near = NearRules(plainMembers: plain.members, squeezedMembers: squeezed.members, categories: rules.map(\.category), mode: mode)
        return (near, plain.terms, squeezed.terms)
    }

    private init(plainMembers: [[Int32]], squeezedMembers: [[Int32]], categories: [SafetyCategory], mode: PhraseMatcher.Mode) {
        self.plainMembers = plainMembers
        self.squeezedMembers = squeezedMembers
        self.categories = categories
        self.mode = mode
        (plainOffsets, plainCodes) = NearRules.flattened(plainMembers)
        (squeezedOffsets, squeezedCodes) = NearRules.flattened(squeezedMembers)
        ranks = categories.map { c in SafetyCategory.allCases.firstIndex(of: c) ?? 0 }
    }

    /// Term i's codes as `codes[offsets[i] ..< offsets[i + 1]]`.
    private static func flattened(_ members: [[Int32]]) -> (offsets: [Int32], codes: [Int32]) {
        var offsets: [Int32] = [0], codes: [Int32] = []
        for m in members {
            codes.append(contentsOf: m)
            offsets.append(Int32(codes.count))
        }
        return (offsets, codes)
    }

    /// Appends the rules (see ``SafetyGate/compiled()``).
    func write(to out: inout [UInt8]) {
        CompiledBytes.append(mode == .wordBoundary ? 0 : 1, to: &out)
        CompiledBytes.append(UInt32(categories.count), to: &out)
        for c in categories { CompiledBytes.append(c.rawValue, to: &out) }
        for members in [plainMembers, squeezedMembers] {
            CompiledBytes.append(UInt32(members.count), to: &out)
            for m in members {
                CompiledBytes.append(UInt32(m.count), to: &out)
                for code in m { CompiledBytes.append(UInt32(bitPattern: code), to: &out) }
            }
        }
    }

    /// Reads what ``write(to:)`` wrote; nil unless every rule index is in range.
    init?(reading b: UnsafeRawBufferPointer, at offset: inout Int) {
        guard let m = CompiledBytes.uint32(b, &offset), m <= 1, let n = CompiledBytes.uint32(b, &offset), n < 1 << 20 else { return nil }
        var categories: [SafetyCategory] = []
        for _ in 0..<n {
            guard let name = CompiledBytes.string(b, &offset), let c = SafetyCategory(rawValue: name) else { return nil }
            categories.append(c)
        }
        var both: [[[Int32]]] = []
        for _ in 0..<2 {
            guard let count = CompiledBytes.uint32(b, &offset), Int(count) <= (b.count - offset) / 4 else { return nil }
            var members: [[Int32]] = []
            for _ in 0..<count {
                guard let k = CompiledBytes.uint32(b, &offset), k <= 2 * n else { return nil }
                var codes: [Int32] = []
                for _ in 0..<k {
                    guard let code = CompiledBytes.uint32(b, &offset), code < 2 * n else { return nil }
                    codes.append(Int32(code))
                }
                members.append(codes)
            }
            both.append(members)
        }
        self.init(plainMembers: both[0], squeezedMembers: both[1], categories: categories, mode: m == 0 ? .wordBoundary : .substring)
    }

    /// Puts term occurrences in the order a matcher over the terms alone
    /// reports them (by start; at the same start a one-byte term first,
    /// then by term index), which decides which left term a right term pairs with.
    static func sort(_ found: inout [(start: Int, end: Int, term: Int)]) {
        func rank(_ o: (start: Int, end: Int, term: Int)) -> Int { o.end - o.start == 1 ? -1 : o.term }
        found.sort { $0.start != $1.start ? $0.start < $1.start : rank($0) < rank($1) }
    }

    /// ``sort(_:)`` for hits whose ``GateHit/group`` is the term index.
    /// Hits with the same start and rank are the same term at the same
    /// place, so any correct sort gives the same sequence.
    static func sort(_ found: UnsafeMutableBufferPointer<GateHit>) {
        @inline(__always) func before(_ a: GateHit, _ b: GateHit) -> Bool {
            if a.start != b.start { return a.start < b.start }
            let ra = a.end &- a.start == 1 ? -1 : a.group, rb = b.end &- b.start == 1 ? -1 : b.group
            return ra < rb
        }
        if found.count > 16 {
            var all = found
            all.sort(by: before)
            return
        }
        // Few hits, found in order of their end: insertion sort.
        var i = 1
        while i < found.count {
            let x = found[i]
            var j = i
            while j > 0, before(x, found[j &- 1]) {
                found[j] = found[j &- 1]
                j &-= 1
            }
            found[j] = x
            i &+= 1
        }
    }

    /// The most urgent category, as a rank in ``SafetyCategory`` order,
    /// of the rules that match normalised text `t`, when more urgent than
    /// `best`; else `best`. `occurrences` are the term occurrences (each
    /// ``GateHit/group`` a term index of the squeezed terms when `squeezed`)
    /// in ``sort(_:)`` order. No allocation beyond one slot per rule, on the stack.
    func bestRank(_ occurrences: UnsafeBufferPointer<GateHit>, in t: UnsafeBufferPointer<UInt8>, squeezed useSqueezed: Bool,
                  negation: PhraseMatcher?, negationAfter: PhraseMatcher?, afterScope: NegationScope,
                  below best: Int) -> Int {
        if occurrences.isEmpty || categories.isEmpty { return best }
        let offsets = useSqueezed ? squeezedOffsets : plainOffsets
        let codes = useSqueezed ? squeezedCodes : plainCodes
        var best = best
        withUnsafeTemporaryAllocation(of: (start: Int32, end: Int32).self, capacity: categories.count) { left in
            left.initialize(repeating: (-1, -1))
            for o in occurrences {
                let term = Int(o.group)
                for k in Int(offsets[term])..<Int(offsets[term &+ 1]) {
                    let code = codes[k]
                    let r = Int(code >> 1)
                    if code & 1 == 0 {
                        left[r] = (o.start, o.end)
                        continue
                    }
                    let a = left[r]
                    guard a.start >= 0, a.end <= o.start, ranks[r] < best,
                          window(t, from: Int(a.end), to: Int(o.start)) else { continue }
                    if let negation {
                        if SafetyGate.negated(before: Int(a.start), in: t, by: negation) { continue }
                        if SafetyGate.negation(in: t, from: Int(a.end), to: Int(o.start), by: negation) { continue }
                    }
                    if let negationAfter, SafetyGate.negated(after: Int(o.end), in: t, by: negationAfter, scope: afterScope) { continue }
                    best = ranks[r]
                }
            }
        }
        return best
    }

    /// The spans, from a left term's start to a right term's end, where a
    /// rule matches `t` (negations are not looked at): the exceptions to a
    /// benign idiom written as proximity rules (`benign_unless: ["rather
    /// die than ... {longer}"]`, ``SafetyData/benignUnless``). `occurrences`
    /// as for ``bestRank(_:in:squeezed:negation:negationAfter:afterScope:below:)``.
    func spans(_ occurrences: [(start: Int, end: Int, term: Int)], in t: UnsafeBufferPointer<UInt8>,
               squeezed useSqueezed: Bool) -> [(start: Int, end: Int)] {
        let members = useSqueezed ? squeezedMembers : plainMembers
        var left = [(start: Int, end: Int)?](repeating: nil, count: categories.count)
        var out: [(start: Int, end: Int)] = []
        for o in occurrences {
            for code in members[o.term] {
                let r = Int(code >> 1)
                if code & 1 == 0 {
                    left[r] = (o.start, o.end)
                    continue
                }
                guard let a = left[r], a.end <= o.start, window(t, from: a.end, to: o.start) else { continue }
                out.append((a.start, o.end))
            }
        }
        return out
    }

    /// Whether the gap between two terms is short enough and in one clause.
    func window(_ t: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        var words = 0, characters = 0
        var inWord = false
        for i in from..<to {
            let b = t[i]
            if b == 44 || b == 46 || b == 59 || b == 58 || b == 33 || b == 63 { return false }
            if mode == .substring {
                if b & 0xC0 != 0x80 { characters += 1 }
                if characters > NearRules.maxCharacters { return false }
            } else {
                if b == 32 {
                    inWord = false
                } else if !inWord {
                    inWord = true
                    words += 1
                    if words > NearRules.maxWords { return false }
                }
            }
        }
        return true
    }
}

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
/// Cost: one more pass of a ``PhraseMatcher`` over the text (all rules of a
/// layer share one matcher), then constant work per occurrence; the window
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

    /// A matcher over every distinct term, and for each of its categories
    /// (one per distinct term) the sides it stands for: `rule * 2 + side`.
    private struct Compiled: Sendable {
        let matcher: PhraseMatcher
        let members: [[Int32]]
    }

    private let plain: Compiled
    private let squeezed: Compiled
    private let categories: [SafetyCategory]
    private let mode: PhraseMatcher.Mode

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

    /// Nil when there are no rules.
    init?(_ rules: [Rule], slots: [String: [String]], mode: PhraseMatcher.Mode) throws(LexiconError) {
        guard !rules.isEmpty else { return nil }
        func compile(_ transform: ([UInt8]) -> [UInt8]) throws(LexiconError) -> Compiled {
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
            let names = terms.indices.map(String.init)
            var phrases: [String: [String]] = [:]
            for (i, term) in terms.enumerated() { phrases[names[i]] = [String(decoding: term, as: UTF8.self)] }
            return Compiled(matcher: try PhraseMatcher(PhraseLexicon(priority: names, phrases: phrases), mode: mode), members: members)
        }
        plain = try compile { $0 }
        squeezed = try compile { Array(SafetyGate.squeeze(String(decoding: $0, as: UTF8.self)).utf8) }
        categories = rules.map(\.category)
        self.mode = mode
    }

    private init(plain: Compiled, squeezed: Compiled, categories: [SafetyCategory], mode: PhraseMatcher.Mode) {
        self.plain = plain
        self.squeezed = squeezed
        self.categories = categories
        self.mode = mode
    }

    /// Appends the compiled rules (see ``SafetyGate/compiled()``).
    func write(to out: inout [UInt8]) {
        CompiledBytes.append(mode == .wordBoundary ? 0 : 1, to: &out)
        CompiledBytes.append(UInt32(categories.count), to: &out)
        for c in categories { CompiledBytes.append(c.rawValue, to: &out) }
        for compiled in [plain, squeezed] {
            compiled.matcher.write(to: &out)
            CompiledBytes.append(UInt32(compiled.members.count), to: &out)
            for m in compiled.members {
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
        var both: [Compiled] = []
        for _ in 0..<2 {
            guard let matcher = PhraseMatcher(reading: b, at: &offset), let count = CompiledBytes.uint32(b, &offset),
                  Int(count) == matcher.categories.count else { return nil }
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
            both.append(Compiled(matcher: matcher, members: members))
        }
        self.init(plain: both[0], squeezed: both[1], categories: categories, mode: m == 0 ? .wordBoundary : .substring)
    }

    /// The categories of the rules that match normalised text `t` (the
    /// squeezed variant's terms when `squeezed`), each at most once.
    func matches(in t: UnsafeBufferPointer<UInt8>, squeezed useSqueezed: Bool, negation: PhraseMatcher?,
                 negationAfter: PhraseMatcher? = nil) -> [SafetyCategory] {
        let compiled = useSqueezed ? squeezed : plain
        let occurrences = compiled.matcher.occurrences(normalized: t)
        if occurrences.isEmpty { return [] }
        var left = [(start: Int, end: Int)?](repeating: nil, count: categories.count)
        var found: [SafetyCategory] = []
        for o in occurrences {
            for code in compiled.members[o.category] {
                let r = Int(code >> 1)
                if code & 1 == 0 {
                    left[r] = (o.start, o.end)
                    continue
                }
                guard let a = left[r], a.end <= o.start, !found.contains(categories[r]), window(t, from: a.end, to: o.start) else { continue }
                if let negation {
                    if SafetyGate.negated(before: a.start, in: t, by: negation) { continue }
                    if negation.match(normalized: UnsafeBufferPointer(rebasing: t[a.end..<o.start])) != nil { continue }
                }
                if let negationAfter, SafetyGate.negated(after: o.end, in: t, by: negationAfter) { continue }
                found.append(categories[r])
            }
        }
        return found
    }

    /// Whether the gap between two terms is short enough and in one clause.
    private func window(_ t: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
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

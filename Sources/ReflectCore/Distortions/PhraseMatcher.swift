import Foundation

/// A compiled, priority-ordered phrase matcher: the hot loop behind the
/// distortion detector, the safety gate and any other list matching.
///
/// Rule (`.wordBoundary`, alphabetic scripts): a phrase matches where its
/// normalised bytes occur in the normalised text and the byte before it and
/// the byte after it, if any, are not word bytes (see ``TextNormalizer``).
/// On ASCII text this is exactly the C anchors' `word` rule. One refinement
/// for elision: a phrase ending in an apostrophe (French "personne n'")
/// needs no boundary after it. And one for mixed scripts: a CJK, kana or
/// Hangul character next to an ASCII phrase is a boundary ("マジでI want to
/// dieって"). `.substring` (Japanese, Korean) drops both boundary conditions,
/// except around Latin letters and digits inside its phrases ("OD" does not
/// match inside "good"). The result is the highest-priority category with
/// any match.
///
/// Cost: one pass of a byte-level Aho–Corasick automaton over the text,
/// whatever the number of phrases: each byte is one transition (amortised;
/// failure links are followed at most as often as bytes were read), and
/// the boundary rules are checked only where a phrase ends. No allocation
/// per text for ``match(normalized:)``; ``forEachOccurrence(normalized:_:)``
/// allocates only when something matches (to report in order of start).
public struct PhraseMatcher: Sendable {
    public enum Mode: String, Sendable, Codable { case wordBoundary = "word", substring }

    public let mode: Mode
    public let categories: [String]
    private let automaton: PhraseAutomaton

    /// How many distinct phrases the matcher holds (after slot expansion).
    public var phraseCount: Int { automaton.phrases }
    /// How many automaton states (trie nodes) it holds.
    public var stateCount: Int { automaton.states }

    public init(_ lexicon: PhraseLexicon, mode: Mode) throws(LexiconError) {
        let list = try PhraseMatcher.phrases(of: lexicon)
        self.mode = mode
        self.categories = lexicon.priority
        self.automaton = PhraseAutomaton(phrases: list.map(\.bytes), category: list.map { Int32($0.category) })
    }

    /// The distinct phrases a matcher over `lexicon` holds, as matched
    /// (normalised, trimmed), each with its category index: the first
    /// category listing a phrase wins, as in priority order.
    static func phrases(of lexicon: PhraseLexicon) throws(LexiconError) -> [(bytes: [UInt8], category: Int)] {
        var out: [(bytes: [UInt8], category: Int)] = []
        var seen = Set<[UInt8]>()
        for (c, name) in lexicon.priority.enumerated() {
            for (normalized, phrase) in try lexicon.normalizedPhrases(of: name) {
                let b = Array(try PhraseMatcher.trimmed(normalized, category: name, phrase: phrase))
                guard seen.insert(b).inserted else { continue }
                out.append((b, c))
            }
        }
        return out
    }

    /// A matcher over distinct, non-empty `phrases` (already normalised),
    /// phrase i in category `category[i]` of `categories`.
    init(phrases: [[UInt8]], category: [Int32], categories: [String], mode: Mode) {
        self.mode = mode
        self.categories = categories
        self.automaton = PhraseAutomaton(phrases: phrases, category: category)
    }

    private init(mode: Mode, categories: [String], automaton: PhraseAutomaton) {
        self.mode = mode
        self.categories = categories
        self.automaton = automaton
    }

    /// A phrase's normalised bytes without leading and trailing spaces
    /// (non-ASCII punctuation such as "¡" or "“" becomes a space, and a match
    /// never starts on a space); an error if nothing is left.
    static func trimmed(_ normalized: [UInt8], category: String, phrase: String) throws(LexiconError) -> ArraySlice<UInt8> {
        var b = normalized[...]
        while b.first == 32 { b.removeFirst() }
        while b.last == 32 { b.removeLast() }
        guard !b.isEmpty else {
            throw LexiconError(category: category, phrase: phrase, reason: "empty phrase (nothing but spaces or symbols)")
        }
        return b
    }

    // MARK: - Matching

    /// Every occurrence of every phrase in already-normalised bytes:
    /// (start, end, category index), in text order. For the safety gate,
    /// which needs to look around each match (negation, benign idioms).
    public func occurrences(normalized t: UnsafeBufferPointer<UInt8>) -> [(start: Int, end: Int, category: Int)] {
        var out: [(start: Int, end: Int, category: Int)] = []
        forEachOccurrence(normalized: t) { out.append((start: $0, end: $1, category: $2)) }
        return out
    }

    /// Calls `body(start, end, category index)` for every occurrence of every
    /// phrase in already-normalised bytes, in order of `start`; several
    /// phrases starting at the same byte are reported shortest-first for a
    /// one-byte phrase, then in the order the lexicon lists them (priority,
    /// then list order).
    public func forEachOccurrence(normalized t: UnsafeBufferPointer<UInt8>, _ body: (Int, Int, Int) -> Void) {
        var found: [(start: Int32, end: Int32, phrase: Int32)] = []
        var sorted = true
        scan(t) { start, end, phrase in
            if found.isEmpty { found.reserveCapacity(16) } else if sorted, let last = found.last {
                sorted = last.start < start || (last.start == start && automaton.rank(last.phrase) < automaton.rank(phrase))
            }
            found.append((Int32(start), Int32(end), phrase))
            return false
        }
        if !sorted {
            let a = automaton
            found.sort { $0.start != $1.start ? $0.start < $1.start : a.rank($0.phrase) < a.rank($1.phrase) }
        }
        let category = automaton.category
        for f in found { body(Int(f.start), Int(f.end), Int(category[Int(f.phrase)])) }
    }

    /// Calls `body(start, end, category index)` for every occurrence of
    /// every phrase, in order of `end` (no sorting, no allocation): for
    /// callers whose result does not depend on the order.
    @inline(__always)
    func forEachMatch(normalized t: UnsafeBufferPointer<UInt8>, _ body: (Int, Int, Int) -> Void) {
        let category = automaton.category
        scan(t) { start, end, phrase in
            body(start, end, Int(category[Int(phrase)]))
            return false
        }
    }

    /// ``forEachMatch(normalized:_:)`` that stops as soon as `body` returns true.
    @inline(__always)
    func forEachMatchUntil(normalized t: UnsafeBufferPointer<UInt8>, _ body: (Int, Int, Int) -> Bool) {
        let category = automaton.category
        scan(t) { start, end, phrase in body(start, end, Int(category[Int(phrase)])) }
    }

    /// The index in ``categories`` of the best match in `text`, or nil.
    public func match(_ text: String) -> Int? {
        var text = text
        let ascii: Int?? = text.withUTF8 { raw -> Int?? in
            guard raw.count <= 4096, !raw.contains(where: { $0 >= 0x80 }) else { return .none }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(raw.count, 1)) { buf in
                for i in 0..<raw.count {
                    let b = raw[i]
                    buf[i] = (b >= 65 && b <= 90) ? b + 32 : b
                }
                return .some(match(normalized: UnsafeBufferPointer(rebasing: buf[0..<raw.count])))
            }
        }
        if let result = ascii { return result }
        let normalized = TextNormalizer.bytes(text)
        return normalized.withUnsafeBufferPointer { match(normalized: $0) }
    }

    /// Matches already-normalised bytes: the best (lowest) category index.
    public func match(normalized t: UnsafeBufferPointer<UInt8>) -> Int? {
        var best = Int32.max
        let category = automaton.category
        scan(t) { _, _, phrase in
            let c = category[Int(phrase)]
            if c < best { best = c }
            return best == 0
        }
        return best == Int32.max ? nil : Int(best)
    }

    /// Runs the automaton over `t` and calls `visit(start, end, phrase)` for
    /// each phrase occurrence that satisfies the boundary rules, in order of
    /// `end`; stops early when `visit` returns true.
    @inline(__always)
    private func scan(_ t: UnsafeBufferPointer<UInt8>, _ visit: (Int, Int, Int32) -> Bool) {
        let a = automaton
        let n = t.count
        guard n > 0, a.states > 1 else { return }
        let rows = a.rows, dense = a.dense, first = a.firstChild, fail = a.fail, label = a.label, flags = a.flags
        let output = a.output, link = a.outputLink, length = a.length, openEnd = a.openEnd
        var s = 0
        var i = 0
        while i < n {
            let b = t[i]
            i += 1
            // Transition: the child labelled b, else the failure link's.
            while true {
                let r = Int(dense[s])
                if r >= 0 { s = Int(rows[r &* 256 &+ Int(b)]); break }
                var c = Int(first[s])
                let e = Int(first[s + 1])
                var next = -1
                while c < e {
                    let l = label[c]
                    if l == b { next = c; break }
                    if l > b { break }
                    c += 1
                }
                if next >= 0 { s = next; break }
                s = Int(fail[s])
            }
            let f = flags[s]
            if f == 0 { continue }
            let after = boundaryAfter(t, i)
            if !after && f & PhraseAutomaton.chainOpenEnd == 0 { continue }
            var o = output[s] >= 0 ? s : Int(link[s])
            while o >= 0 {
                let p = output[o]
                let start = i - Int(length[Int(p)])
                if start >= 0, after || openEnd[Int(p)] != 0, isStart(t, start) {
                    if visit(start, i, p) { return }
                }
                o = Int(link[o])
            }
        }
    }

    /// Whether a match may begin at `i`.
    @inline(__always)
    private func isStart(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let c = t[i]
        switch mode {
        case .wordBoundary:
            // The byte before a match must not be a word byte (no phrase
            // starts with a space); a CJK character before ASCII is a boundary.
            return c != 32 && (i == 0 || !TextNormalizer.isWordByte(t[i - 1]) || (c < 0x80 && PhraseMatcher.endsWide(t, i)))
        case .substring:
            // A UTF-8 sequence start; Latin letters and digits still need a
            // Latin word boundary ("OD" is not in "good").
            return c & 0xC0 != 0x80 && !(PhraseMatcher.isASCIIAlnum(c) && i > 0 && PhraseMatcher.isASCIIAlnum(t[i - 1]))
        }
    }

    @inline(__always)
    private func boundaryAfter(_ t: UnsafeBufferPointer<UInt8>, _ end: Int) -> Bool {
        if end >= t.count { return true }
        if mode == .substring { return !(PhraseMatcher.isASCIIAlnum(t[end - 1]) && PhraseMatcher.isASCIIAlnum(t[end])) }
        return !TextNormalizer.isWordByte(t[end]) || (t[end] >= 0xE3 && t[end] <= 0xED && t[end - 1] < 0x80)
    }

    @inline(__always)
    static func isASCIIAlnum(_ b: UInt8) -> Bool { (b >= 97 && b <= 122) || (b >= 48 && b <= 57) }

    /// Whether the character ending just before `i` is CJK, kana or Hangul
    /// (UTF-8 lead byte E3–ED: U+3000–U+DFFF).
    @inline(__always)
    static func endsWide(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var j = i - 1
        while j > 0, t[j] & 0xC0 == 0x80, i - j < 4 { j -= 1 }
        return j < i - 1 && t[j] >= 0xE3 && t[j] <= 0xED
    }
}

// MARK: - Compiled form

extension PhraseMatcher {
    /// Appends the compiled matcher to `out` (see ``init(reading:at:)``):
    /// for caching compiled word lists on disk.
    public func write(to out: inout [UInt8]) {
        CompiledBytes.append(UInt32(mode == .wordBoundary ? 0 : 1), to: &out)
        CompiledBytes.append(UInt32(categories.count), to: &out)
        for name in categories { CompiledBytes.append(name, to: &out) }
        automaton.write(to: &out)
    }

    /// Reads a matcher written by ``write(to:)`` at `offset` and advances
    /// it; nil when the bytes are truncated or not a consistent automaton
    /// (every index in range, failure and output links pointing to earlier
    /// states, so a damaged file can neither crash nor hang a scan).
    public init?(reading bytes: UnsafeRawBufferPointer, at offset: inout Int) {
        guard let m = CompiledBytes.uint32(bytes, &offset), m <= 1,
              let count = CompiledBytes.uint32(bytes, &offset), count < 1 << 20 else { return nil }
        var names: [String] = []
        for _ in 0..<count {
            guard let name = CompiledBytes.string(bytes, &offset) else { return nil }
            names.append(name)
        }
        guard let automaton = PhraseAutomaton(reading: bytes, at: &offset, categories: names.count) else { return nil }
        self.init(mode: m == 0 ? .wordBoundary : .substring, categories: names, automaton: automaton)
    }
}

/// Little-endian fields for compiled data.
enum CompiledBytes {
    static func append(_ v: UInt32, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    static func append(_ s: String, to out: inout [UInt8]) {
        append(UInt32(s.utf8.count), to: &out)
        out.append(contentsOf: s.utf8)
    }

    static func uint32(_ b: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= b.count else { return nil }
        let v = b.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return UInt32(littleEndian: v)
    }

    static func string(_ b: UnsafeRawBufferPointer, _ offset: inout Int) -> String? {
        guard let n = uint32(b, &offset), offset + Int(n) <= b.count else { return nil }
        let s = String(decoding: UnsafeRawBufferPointer(rebasing: b[offset..<offset + Int(n)]), as: UTF8.self)
        offset += Int(n)
        return s
    }
}

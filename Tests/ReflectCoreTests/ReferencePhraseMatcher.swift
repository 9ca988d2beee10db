import Foundation
@testable import ReflectCore

/// The phrase matcher as it was before the Aho–Corasick automaton (issue 20),
/// kept in the tests only as the reference the automaton must agree with.
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
/// Cost: one pass over the text; at each candidate start only the phrases
/// sharing its first two bytes (ASCII) or its first character (other
/// scripts) are compared. No allocation per text on ASCII input.
struct ReferencePhraseMatcher: Sendable {
    typealias Mode = PhraseMatcher.Mode

    public let mode: Mode
    public let categories: [String]
    /// All phrase bytes, concatenated; phrase i is bytes[start[i] ..< start[i] + length[i]].
    private let bytes: [UInt8]
    private let start: [Int32]
    private let length: [Int32]
    private let category: [Int32]
    /// Phrases whose last byte is an apostrophe (no boundary needed after).
    private let openEnd: [Bool]
    /// ASCII-led phrases by their first two bytes: CSR offsets into `order`.
    private let offsets: [Int32]
    private let order: [Int32]
    /// Phrases led by a non-ASCII character, by that character (low 16 bits
    /// of its scalar); empty when there are none.
    private let wideOffsets: [Int32]
    private let wideOrder: [Int32]
    /// One-byte phrases, by byte (rare: "a" would be one).
    private let single: [Int32]

    public init(_ lexicon: PhraseLexicon, mode: Mode) throws(LexiconError) {
        self.mode = mode
        categories = lexicon.priority
        var bytes: [UInt8] = [], start: [Int32] = [], length: [Int32] = [], category: [Int32] = [], openEnd: [Bool] = []
        var seen = Set<[UInt8]>()
        for (c, name) in lexicon.priority.enumerated() {
            for (normalized, phrase) in try lexicon.normalizedPhrases(of: name) {
                let b = try PhraseMatcher.trimmed(normalized, category: name, phrase: phrase)
                let bytes_ = Array(b)
                // The first category listing a phrase wins, as in priority order.
                guard seen.insert(bytes_).inserted else { continue }
                start.append(Int32(bytes.count))
                length.append(Int32(bytes_.count))
                category.append(Int32(c))
                openEnd.append(bytes_.last == UInt8(ascii: "'"))
                bytes += bytes_
            }
        }
        var counts = [Int32](repeating: 0, count: 65537)
        var wideCounts = [Int32](repeating: 0, count: 65537)
        var single = [Int32](repeating: Int32.max, count: 256)
        var keys = [Int](repeating: -1, count: start.count)
        var wide = [Bool](repeating: false, count: start.count)
        bytes.withUnsafeBufferPointer { all in
            for i in start.indices {
                let phrase = UnsafeBufferPointer(rebasing: all[Int(start[i])..<Int(start[i] + length[i])])
                if phrase[0] < 0x80 {
                    if phrase.count == 1 {
                        single[Int(phrase[0])] = min(single[Int(phrase[0])], category[i])
                    } else {
                        keys[i] = ReferencePhraseMatcher.asciiKey(phrase, 0)
                        counts[keys[i] + 1] += 1
                    }
                } else if let k = ReferencePhraseMatcher.wideKey(phrase, 0) {
                    keys[i] = k
                    wide[i] = true
                    wideCounts[k + 1] += 1
                }
            }
        }
        func layout(_ counts: inout [Int32], wide want: Bool) -> [Int32] {
            for k in 0..<65536 { counts[k + 1] += counts[k] }
            var fill = [Int32](repeating: 0, count: 65536)
            var order = [Int32](repeating: 0, count: Int(counts[65536]))
            for i in start.indices where keys[i] >= 0 && wide[i] == want {
                order[Int(counts[keys[i]] + fill[keys[i]])] = Int32(i)
                fill[keys[i]] += 1
            }
            return order
        }
        self.order = layout(&counts, wide: false)
        let wideOrder = layout(&wideCounts, wide: true)
        self.wideOrder = wideOrder
        self.wideOffsets = wideOrder.isEmpty ? [] : wideCounts
        self.bytes = bytes
        self.start = start
        self.length = length
        self.category = category
        self.openEnd = openEnd
        self.offsets = counts
        self.single = single
    }

    @inline(__always)
    static func asciiKey(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int { Int(t[i]) << 8 | Int(t[i + 1]) }

    /// The scalar (low 16 bits) of the UTF-8 character at `i`, or nil if the
    /// bytes there are not a complete sequence start.
    @inline(__always)
    static func wideKey(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        let b0 = t[i]
        let n: Int, initial: UInt32
        switch b0 {
        case 0xC0...0xDF: n = 2; initial = UInt32(b0 & 0x1F)
        case 0xE0...0xEF: n = 3; initial = UInt32(b0 & 0x0F)
        case 0xF0...0xF7: n = 4; initial = UInt32(b0 & 0x07)
        default: return nil
        }
        guard i + n <= t.count else { return nil }
        var scalar = initial
        for k in 1..<n { scalar = scalar << 6 | UInt32(t[i + k] & 0x3F) }
        return Int(scalar & 0xFFFF)
    }

    /// Every occurrence of every phrase in already-normalised bytes:
    /// (start, end, category index), in text order. For the safety gate,
    /// which needs to look around each match (negation, benign idioms).
    public func occurrences(normalized t: UnsafeBufferPointer<UInt8>) -> [(start: Int, end: Int, category: Int)] {
        var out: [(start: Int, end: Int, category: Int)] = []
        forEachOccurrence(normalized: t) { out.append((start: $0, end: $1, category: $2)) }
        return out
    }

    /// Calls `body(start, end, category index)` for every occurrence of every
    /// phrase in already-normalised bytes, in order of `start` (several
    /// phrases may start at the same byte; each is reported). No allocation:
    /// for callers that keep only what they need (the distortion detector).
    public func forEachOccurrence(normalized t: UnsafeBufferPointer<UInt8>, _ body: (Int, Int, Int) -> Void) {
        let n = t.count
        bytes.withUnsafeBufferPointer { kw in
            func collect(_ order: [Int32], _ from: Int, _ to: Int, at i: Int) {
                for j in from..<to {
                    let k = Int(order[j])
                    let len = Int(length[k])
                    guard i + len <= n, openEnd[k] || boundaryAfter(t, i + len) else { continue }
                    let s = Int(start[k])
                    var m = 0
                    while m < len, kw[s + m] == t[i + m] { m += 1 }
                    if m == len { body(i, i + len, Int(category[k])) }
                }
            }
            var i = 0
            while i < n {
                let c = t[i]
                let atStart = mode == .substring
                    ? c & 0xC0 != 0x80 && !(ReferencePhraseMatcher.isASCIIAlnum(c) && i > 0 && ReferencePhraseMatcher.isASCIIAlnum(t[i - 1]))
                    : c != 32 && (i == 0 || !TextNormalizer.isWordByte(t[i - 1]) || (c < 0x80 && ReferencePhraseMatcher.endsWide(t, i)))
                if atStart {
                    if c < 0x80 {
                        if single[Int(c)] != Int32.max, boundaryAfter(t, i + 1) { body(i, i + 1, Int(single[Int(c)])) }
                        if i + 1 < n {
                            let key = ReferencePhraseMatcher.asciiKey(t, i)
                            collect(order, Int(offsets[key]), Int(offsets[key + 1]), at: i)
                        }
                    } else if !wideOffsets.isEmpty, let key = ReferencePhraseMatcher.wideKey(t, i) {
                        collect(wideOrder, Int(wideOffsets[key]), Int(wideOffsets[key + 1]), at: i)
                    }
                }
                i += 1
            }
        }
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

    /// Matches already-normalised bytes.
    public func match(normalized t: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = t.count
        var best = Int32.max
        bytes.withUnsafeBufferPointer { kw in
            // Compares candidates order[from ..< to] against the text at i,
            // skipping the first `skip` bytes the index already guarantees.
            func scan(_ order: UnsafeBufferPointer<Int32>, _ from: Int, _ to: Int, at i: Int, skip: Int) -> Bool {
                var j = from
                while j < to {
                    let k = Int(order[j])
                    j += 1
                    let cat = category[k]
                    guard cat < best else { continue }
                    let len = Int(length[k])
                    guard i + len <= n, openEnd[k] || boundaryAfter(t, i + len) else { continue }
                    let s = Int(start[k])
                    var m = skip
                    while m < len, kw[s + m] == t[i + m] { m += 1 }
                    if m == len {
                        best = cat
                        if best == 0 { return true }
                    }
                }
                return false
            }
            offsets.withUnsafeBufferPointer { off in
                order.withUnsafeBufferPointer { ord in
                    wideOffsets.withUnsafeBufferPointer { woff in
                        wideOrder.withUnsafeBufferPointer { word in
                            var i = 0
                            while i < n {
                                let c = t[i]
                                let atStart: Bool
                                switch mode {
                                case .wordBoundary:
                                    // The byte before a match must not be a word byte
                                    // (no phrase starts with a space).
                                    atStart = c != 32 && (i == 0 || !TextNormalizer.isWordByte(t[i - 1])
                                        || (c < 0x80 && ReferencePhraseMatcher.endsWide(t, i)))
                                case .substring:
                                    // A UTF-8 sequence start; Latin letters and digits still
                                    // need a Latin word boundary ("OD" is not in "good").
                                    atStart = c & 0xC0 != 0x80 && !(ReferencePhraseMatcher.isASCIIAlnum(c) && i > 0 && ReferencePhraseMatcher.isASCIIAlnum(t[i - 1]))
                                }
                                if atStart {
                                    if c < 0x80 {
                                        if single[Int(c)] < best, boundaryAfter(t, i + 1) { best = single[Int(c)] }
                                        if i + 1 < n {
                                            let key = ReferencePhraseMatcher.asciiKey(t, i)
                                            if scan(ord, Int(off[key]), Int(off[key + 1]), at: i, skip: 2) { return }
                                        }
                                    } else if !woff.isEmpty, let key = ReferencePhraseMatcher.wideKey(t, i) {
                                        if scan(word, Int(woff[key]), Int(woff[key + 1]), at: i, skip: 0) { return }
                                    }
                                }
                                i += 1
                            }
                        }
                    }
                }
            }
        }
        return best == Int32.max ? nil : Int(best)
    }

    @inline(__always)
    private func boundaryAfter(_ t: UnsafeBufferPointer<UInt8>, _ end: Int) -> Bool {
        if end >= t.count { return true }
        if mode == .substring { return !(ReferencePhraseMatcher.isASCIIAlnum(t[end - 1]) && ReferencePhraseMatcher.isASCIIAlnum(t[end])) }
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

import Foundation

/// A compiled, priority-ordered phrase matcher: the hot loop behind the
/// distortion detector (and any other list matching).
///
/// Rule (`.wordBoundary`, alphabetic scripts): a phrase matches where its
/// normalised bytes occur in the normalised text and the byte before it and
/// the byte after it, if any, are not word bytes (see ``TextNormalizer``).
/// On ASCII text this is exactly the C anchors' `word` rule. `.substring`
/// (Japanese, Korean) drops the boundary condition. The result is the
/// highest-priority category with any match.
///
/// Cost: one pass over the text; at each word start (or each character
/// start, for substrings) only the phrases sharing its first two bytes are
/// compared. No allocation per text on ASCII input.
public struct PhraseMatcher: Sendable {
    public enum Mode: String, Sendable, Codable { case wordBoundary = "word", substring }

    public let mode: Mode
    public let categories: [String]
    /// All phrase bytes, concatenated; phrase i is bytes[start[i] ..< start[i] + length[i]].
    private let bytes: [UInt8]
    private let start: [Int32]
    private let length: [Int32]
    private let category: [Int32]
    /// Phrases by the key of their first two bytes: CSR offsets into `order`.
    private let offsets: [Int32]
    private let order: [Int32]
    /// One-byte phrases, by byte (rare: "a" would be one).
    private let single: [Int32]

    public init(_ lexicon: PhraseLexicon, mode: Mode) throws(LexiconError) {
        self.mode = mode
        categories = lexicon.priority
        var bytes: [UInt8] = [], start: [Int32] = [], length: [Int32] = [], category: [Int32] = []
        var seen = Set<[UInt8]>()
        for (c, name) in lexicon.priority.enumerated() {
            for phrase in try lexicon.expandedPhrases(of: name) {
                let b = TextNormalizer.bytes(phrase.trimmingCharacters(in: .whitespaces))
                guard !b.isEmpty else { throw LexiconError(category: name, phrase: phrase, reason: "empty phrase") }
                // The first category listing a phrase wins, as in priority order.
                guard seen.insert(b).inserted else { continue }
                start.append(Int32(bytes.count))
                length.append(Int32(b.count))
                category.append(Int32(c))
                bytes += b
            }
        }
        var counts = [Int32](repeating: 0, count: 65537)
        var single = [Int32](repeating: Int32.max, count: 256)
        for i in start.indices {
            let s = Int(start[i])
            if length[i] == 1 {
                single[Int(bytes[s])] = min(single[Int(bytes[s])], category[i])
            } else {
                counts[Int(bytes[s]) << 8 | Int(bytes[s + 1]) + 1] += 1
            }
        }
        for k in 0..<65536 { counts[k + 1] += counts[k] }
        var fill = [Int32](repeating: 0, count: 65536)
        var order = [Int32](repeating: 0, count: Int(counts[65536]))
        for i in start.indices where length[i] > 1 {
            let s = Int(start[i])
            let key = Int(bytes[s]) << 8 | Int(bytes[s + 1])
            order[Int(counts[key] + fill[key])] = Int32(i)
            fill[key] += 1
        }
        self.bytes = bytes
        self.start = start
        self.length = length
        self.category = category
        self.offsets = counts
        self.order = order
        self.single = single
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
            offsets.withUnsafeBufferPointer { off in
                order.withUnsafeBufferPointer { ord in
                    var i = 0
                    while i < n {
                        let c = t[i]
                        let atStart: Bool
                        switch mode {
                        case .wordBoundary:
                            // The byte before a match must not be a word byte
                            // (no phrase starts with a space).
                            atStart = c != 32 && (i == 0 || !TextNormalizer.isWordByte(t[i - 1]))
                        case .substring:
                            atStart = c & 0xC0 != 0x80 // a UTF-8 sequence start
                        }
                        if atStart {
                            if single[Int(c)] < best, boundaryAfter(t, i + 1) { best = single[Int(c)] }
                            if i + 1 < n {
                                let key = Int(c) << 8 | Int(t[i + 1])
                                var j = Int(off[key])
                                let end = Int(off[key + 1])
                                while j < end {
                                    let k = Int(ord[j])
                                    j += 1
                                    let cat = category[k]
                                    guard cat < best else { continue }
                                    let len = Int(length[k])
                                    guard i + len <= n, boundaryAfter(t, i + len) else { continue }
                                    let s = Int(start[k])
                                    var same = true
                                    var m = 2
                                    while m < len {
                                        if kw[s + m] != t[i + m] { same = false; break }
                                        m += 1
                                    }
                                    if same {
                                        best = cat
                                        if best == 0 { return }
                                    }
                                }
                            }
                        }
                        i += 1
                    }
                }
            }
        }
        return best == Int32.max ? nil : Int(best)
    }

    @inline(__always)
    private func boundaryAfter(_ t: UnsafeBufferPointer<UInt8>, _ end: Int) -> Bool {
        mode == .substring || end >= t.count || !TextNormalizer.isWordByte(t[end])
    }
}

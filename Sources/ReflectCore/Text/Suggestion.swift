/// "Did you mean …?": the candidate closest to what was typed, when it is
/// close enough to be a typo (edit distance at most a third of the length,
/// and at most 3), else nil.
public enum Suggestion {
    public static func nearest(to typed: String, among candidates: [String]) -> String? {
        let t = Array(typed.lowercased())
        guard !t.isEmpty else { return nil }
        let limit = min(3, max(1, t.count / 3))
        var best: (String, Int)?
        for c in candidates {
            let d = distance(t, Array(c.lowercased()), limit: limit)
            // Equally near candidates: the first in code-point order, so the
            // suggestion does not depend on the order they came in (often a
            // dictionary's, which differs from run to run).
            if d <= limit, best.map({ d < $0.1 || (d == $0.1 && c < $0.0) }) ?? true { best = (c, d) }
        }
        return best?.0
    }

    /// Levenshtein distance with adjacent transpositions; stops early above `limit`.
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], prev2[j - 2] + 1) }
            }
            if row.min() ?? 0 > limit { return limit + 1 }
            prev2 = prev
            prev = row
        }
        return prev[b.count]
    }
}

/// Results a run has already computed for texts (a safety verdict, whether
/// an answer is a non-answer), so that an answer quoted into later prompts
/// is not examined again.
///
/// A run sees a handful of texts, mostly answers of a few dozen bytes:
/// comparing them is cheaper than hashing them, so the memo is a short list
/// searched by equality, and only texts of the same UTF-8 length are
/// compared. Bounded: cleared when it holds ``capacity`` texts (a result is
/// then computed again, never wrong).
///
/// Contract: `compute` gives equal results for equal strings (the gate and
/// the probe normalise texts, NFKC included); a text canonically equal to
/// a remembered one but of another length is computed, not looked up.
struct TextMemo<Value> {
    static var capacity: Int { 64 }
    private var lengths: [Int] = []
    private var texts: [String] = []
    private var values: [Value] = []

    /// Room for a run's usual texts from the start (no regrowing while it runs).
    init() {
        lengths.reserveCapacity(8)
        texts.reserveCapacity(8)
        values.reserveCapacity(8)
    }

    /// The remembered result for `text`, else `compute(text)` (remembered).
    mutating func value(for text: String, _ compute: (String) -> Value) -> Value {
        let length = text.utf8.count
        for i in lengths.indices where lengths[i] == length && texts[i] == text { return values[i] }
        let value = compute(text)
        if texts.count >= Self.capacity {
            lengths.removeAll(keepingCapacity: true)
            texts.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
        lengths.append(length)
        texts.append(text)
        values.append(value)
        return value
    }
}

/// Results a run has already computed for texts (a safety verdict, whether
/// an answer is a non-answer), so that an answer quoted into later prompts
/// is not examined again.
///
/// A run sees a handful of texts, mostly answers of a few dozen bytes:
/// comparing them is cheaper than hashing them, so the memo is a short list
/// searched by equality. Bounded: cleared when it holds ``capacity`` texts
/// (a result is then computed again, never wrong).
struct TextMemo<Value> {
    static var capacity: Int { 64 }
    private var texts: [String] = []
    private var values: [Value] = []

    /// The remembered result for `text`, else `compute(text)` (remembered).
    mutating func value(for text: String, _ compute: (String) -> Value) -> Value {
        if let i = texts.firstIndex(of: text) { return values[i] }
        let value = compute(text)
        if texts.count >= Self.capacity {
            texts.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
        texts.append(text)
        values.append(value)
        return value
    }
}

/// One occurrence found by a gate pass (``GatePass``): where it is, in
/// which layer, and its phrase group (or, once proximity terms are
/// gathered, its term index).
struct GateHit {
    var start: Int32
    var end: Int32
    var layer: Int32
    var group: Int32
}

/// The occurrences of one reading of a text, kept in a buffer the caller
/// provides (on the stack): a text with few hits, which is nearly every
/// text, allocates nothing. Grows onto the heap when the buffer is full;
/// the owner calls ``deallocate()`` when done (a non-copyable value, so
/// that no copy can free or grow the same storage twice).
struct GateHits: ~Copyable {
    /// Hits held in the caller's buffer before growing onto the heap.
    static let stackCapacity = 32

    private(set) var base: UnsafeMutablePointer<GateHit>
    private(set) var count = 0
    private var capacity: Int
    private var owned = false

    init(_ buffer: UnsafeMutableBufferPointer<GateHit>) {
        // A buffer of capacity 0 has no address: start on the heap then.
        if let address = buffer.baseAddress, buffer.count > 0 {
            base = address
            capacity = buffer.count
        } else {
            base = .allocate(capacity: 8)
            capacity = 8
            owned = true
        }
    }

    @inline(__always)
    mutating func append(_ hit: GateHit) {
        if count == capacity { grow() }
        base[count] = hit
        count &+= 1
    }

    /// Keeps the storage.
    mutating func removeAll() { count = 0 }

    /// Keeps the first `n` hits.
    mutating func truncate(to n: Int) { count = min(count, max(0, n)) }

    subscript(i: Int) -> GateHit {
        get { base[i] }
        set { base[i] = newValue }
    }

    private mutating func grow() {
        let larger = max(8, capacity * 2)
        let bigger = UnsafeMutablePointer<GateHit>.allocate(capacity: larger)
        bigger.initialize(from: base, count: count)
        if owned { base.deallocate() }
        base = bigger
        capacity = larger
        owned = true
    }

    /// Frees what ``append(_:)`` allocated (nothing while the caller's
    /// buffer sufficed); the hits are gone.
    mutating func deallocate() {
        if owned { base.deallocate() }
        owned = false
        count = 0
        capacity = 0
    }
}

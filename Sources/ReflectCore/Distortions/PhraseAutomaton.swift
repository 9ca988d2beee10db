/// The Aho–Corasick automaton behind ``PhraseMatcher``: a byte trie of the
/// phrases with failure links and output links, in two flat, immutable
/// allocations (so a scan touches no reference counts and the whole thing
/// can be written to and read from a cache file as is).
///
/// States are numbered by depth (root 0), so a state's children are one
/// contiguous run `firstChild[s] ..< firstChild[s + 1]`, sorted by byte, and
/// every failure link and output link points to a smaller number (which
/// is what makes a scan terminate, and what ``init(reading:at:categories:)``
/// checks on data from disk).
final class PhraseAutomaton: @unchecked Sendable {
    /// Bit of ``flags``: the state or a state on its failure chain ends a phrase.
    static let chainOutput: UInt8 = 1
    /// Bit of ``flags``: one of those phrases ends in an apostrophe.
    static let chainOpenEnd: UInt8 = 2

    let states: Int
    let phrases: Int
    /// Full transition rows (256 entries, failure links already followed)
    /// for the root and the shallowest states with at least
    /// ``rowMinimumChildren`` children: row r of
    /// ``rows`` belongs to the state whose ``dense`` entry is r.
    let rowCount: Int
    private let rowTable: UnsafeMutablePointer<Int32>
    /// Per state, its row in ``rows``, or -1 (children and failure link).
    private let denseTable: UnsafeMutablePointer<Int32>
    /// At most this many rows (1 KB each).
    static let maxRows = 1024
    /// A state gets a row when it has at least this many children.
    static let rowMinimumChildren = 4
    /// rootNext[256], firstChild[states + 1], fail[states], output[states],
    /// outputLink[states], length[phrases], category[phrases].
    private let ints: UnsafeMutablePointer<Int32>
    /// label[states], flags[states], openEnd[phrases].
    private let small: UnsafeMutablePointer<UInt8>

    var rootNext: UnsafeMutablePointer<Int32> { ints }
    var firstChild: UnsafeMutablePointer<Int32> { ints + 256 }
    var fail: UnsafeMutablePointer<Int32> { ints + 257 + states }
    /// The phrase ending exactly at a state, or -1.
    var output: UnsafeMutablePointer<Int32> { ints + 257 + 2 * states }
    /// The nearest state on the failure chain that ends a phrase, or -1.
    var outputLink: UnsafeMutablePointer<Int32> { ints + 257 + 3 * states }
    var length: UnsafeMutablePointer<Int32> { ints + 257 + 4 * states }
    var category: UnsafeMutablePointer<Int32> { ints + 257 + 4 * states + phrases }
    /// The byte on the edge into a state.
    var label: UnsafeMutablePointer<UInt8> { small }
    var flags: UnsafeMutablePointer<UInt8> { small + states }
    /// 1 when a phrase needs no word boundary after it (it ends in an
    /// apostrophe and is longer than one byte).
    var openEnd: UnsafeMutablePointer<UInt8> { small + 2 * states }

    private static func intCount(states: Int, phrases: Int) -> Int { 257 + 4 * states + 2 * phrases }
    private static func smallCount(states: Int, phrases: Int) -> Int { 2 * states + phrases }

    var rows: UnsafeMutablePointer<Int32> { rowTable }
    var dense: UnsafeMutablePointer<Int32> { denseTable }

    private init(states: Int, phrases: Int, rows: Int) {
        self.states = states
        self.phrases = phrases
        self.rowCount = rows
        ints = .allocate(capacity: PhraseAutomaton.intCount(states: states, phrases: phrases))
        small = .allocate(capacity: max(1, PhraseAutomaton.smallCount(states: states, phrases: phrases)))
        rowTable = .allocate(capacity: max(1, rows * 256))
        denseTable = .allocate(capacity: max(1, states))
    }

    deinit {
        ints.deallocate()
        small.deallocate()
        rowTable.deallocate()
        denseTable.deallocate()
    }

    /// Order of phrases reported at the same start: a one-byte phrase
    /// first, then by index (priority, then list order).
    @inline(__always)
    func rank(_ phrase: Int32) -> Int32 { length[Int(phrase)] == 1 ? -1 : phrase }

    /// Compiles distinct, non-empty `phrases` (normalised bytes), phrase i
    /// in category `category[i]`.
    convenience init(phrases: [[UInt8]], category: [Int32]) {
        // 1. The trie, built in sorted order: each phrase shares the path of
        //    the previous one up to their common prefix, so nodes are
        //    created in pre-order with every node's children in byte order.
        let sorted = phrases.indices.sorted { phrases[$0].lexicographicallyPrecedes(phrases[$1]) }
        var parent: [Int32] = [0], label: [UInt8] = [0], depth: [Int32] = [0], out: [Int32] = [-1]
        var path: [Int32] = [0]
        var previous: [UInt8] = []
        for p in sorted {
            let w = phrases[p]
            var l = 0
            while l < w.count, l < previous.count, w[l] == previous[l] { l += 1 }
            path.removeSubrange((l + 1)..<path.count)
            for d in l..<w.count {
                let node = Int32(parent.count)
                parent.append(path[d])
                label.append(w[d])
                depth.append(Int32(d + 1))
                out.append(-1)
                path.append(node)
            }
            out[Int(path[w.count])] = Int32(p)
            previous = w
        }
        // 2. Renumber by depth (stable): pre-order within a depth keeps
        //    siblings together, in the order of their parents.
        let n = parent.count
        let maxDepth = Int(depth.max() ?? 0)
        var next = [Int](repeating: 0, count: maxDepth + 2)
        for d in depth { next[Int(d) + 1] += 1 }
        for d in 0...maxDepth { next[d + 1] += next[d] }
        var renumbered = [Int32](repeating: 0, count: n)
        for v in 0..<n {
            renumbered[v] = Int32(next[Int(depth[v])])
            next[Int(depth[v])] += 1
        }
        var newParent = [Int32](repeating: 0, count: n)
        for v in 0..<n { newParent[Int(renumbered[v])] = renumbered[Int(parent[v])] }
        // Children ranges: states 1..<n grouped by parent, parents ascending.
        var childCount = [Int32](repeating: 0, count: n)
        for s in 1..<max(n, 1) { childCount[Int(newParent[s])] += 1 }
        // Full rows for the root and the states with many children, the
        // shallowest first (states are numbered by depth): a scan spends
        // most of its bytes near the root, and phrases added deep in the
        // trie (a long list's tails) cannot take the rows of the states
        // every text passes through, so a text's cost does not grow with
        // the list.
        let busy = (1..<max(n, 1)).filter { childCount[$0] >= PhraseAutomaton.rowMinimumChildren }
            .prefix(PhraseAutomaton.maxRows - 1)
        self.init(states: n, phrases: phrases.count, rows: 1 + busy.count)
        for v in 0..<n {
            let s = Int(renumbered[v])
            self.label[s] = label[v]
            output[s] = out[v]
        }
        firstChild[0] = 1
        for s in 0..<n { firstChild[s + 1] = firstChild[s] + childCount[s] }
        for b in 0..<256 { rootNext[b] = 0 }
        for c in Int(firstChild[0])..<Int(firstChild[1]) { rootNext[Int(self.label[c])] = Int32(c) }
        for (p, w) in phrases.enumerated() {
            length[p] = Int32(w.count)
            self.category[p] = category[p]
            openEnd[p] = w.count > 1 && w.last == UInt8(ascii: "'") ? 1 : 0
        }
        // 3. Failure and output links, in state order (= by depth).
        if n > 0 {
            fail[0] = 0
            outputLink[0] = -1
            flags[0] = 0
        }
        for s in 1..<max(n, 1) {
            let p = Int(newParent[s]), b = self.label[s]
            var f = 0
            if p != 0 {
                var g = Int(fail[p])
                while true {
                    if let c = child(g, b) { f = c; break }
                    if g == 0 { break }
                    g = Int(fail[g])
                }
            }
            fail[s] = Int32(f)
            outputLink[s] = output[f] >= 0 ? Int32(f) : outputLink[f]
            var flag = flags[f]
            if output[s] >= 0 {
                flag |= PhraseAutomaton.chainOutput
                if openEnd[Int(output[s])] != 0 { flag |= PhraseAutomaton.chainOpenEnd }
            }
            flags[s] = flag
        }
        // 4. Rows: the transition on every byte, failure links followed.
        for s in 0..<n { dense[s] = -1 }
        for (r, s) in ([0] + Array(busy)).enumerated() {
            dense[s] = Int32(r)
            for b in 0..<256 {
                var g = s
                var target = 0
                while true {
                    if let c = child(g, UInt8(b)) { target = c; break }
                    if g == 0 { break }
                    g = Int(fail[g])
                }
                rows[r * 256 + b] = Int32(target)
            }
        }
    }

    /// The child of `s` labelled `b`, if any.
    private func child(_ s: Int, _ b: UInt8) -> Int? {
        if s == 0 {
            let c = Int(rootNext[Int(b)])
            return c == 0 ? nil : c
        }
        for c in Int(firstChild[s])..<Int(firstChild[s + 1]) where label[c] == b { return c }
        return nil
    }

    // MARK: - Compiled form

    func write(to out: inout [UInt8]) {
        CompiledBytes.append(UInt32(states), to: &out)
        CompiledBytes.append(UInt32(phrases), to: &out)
        CompiledBytes.append(UInt32(rowCount), to: &out)
        let ic = PhraseAutomaton.intCount(states: states, phrases: phrases)
        for i in 0..<ic { CompiledBytes.append(UInt32(bitPattern: ints[i]), to: &out) }
        for i in 0..<rowCount * 256 { CompiledBytes.append(UInt32(bitPattern: rows[i]), to: &out) }
        for i in 0..<states { CompiledBytes.append(UInt32(bitPattern: dense[i]), to: &out) }
        out.append(contentsOf: UnsafeBufferPointer(start: small, count: PhraseAutomaton.smallCount(states: states, phrases: phrases)))
    }

    /// Reads what ``write(to:)`` wrote; nil unless every index is in range
    /// and every link points backwards. (`checked: false` skips that check:
    /// only for the tests that compare the check with its reference.)
    convenience init?(reading b: UnsafeRawBufferPointer, at offset: inout Int, categories: Int, checked: Bool = true) {
        guard let s32 = CompiledBytes.uint32(b, &offset), let p32 = CompiledBytes.uint32(b, &offset),
              let r32 = CompiledBytes.uint32(b, &offset),
              s32 >= 1, s32 < 1 << 28, p32 < 1 << 28, r32 >= 1, r32 <= PhraseAutomaton.maxRows else { return nil }
        let states = Int(s32), phrases = Int(p32), rowCount = Int(r32)
        let ic = PhraseAutomaton.intCount(states: states, phrases: phrases)
        let sc = PhraseAutomaton.smallCount(states: states, phrases: phrases)
        guard offset + (ic + rowCount * 256 + states) * 4 + sc <= b.count else { return nil }
        self.init(states: states, phrases: phrases, rows: rowCount)
        func load(_ to: UnsafeMutablePointer<Int32>, _ count: Int) {
            #if _endian(little)
            if count > 0, let base = b.baseAddress {
                UnsafeMutableRawPointer(to).copyMemory(from: base + offset, byteCount: count * 4)
            }
            #else
            for i in 0..<count { to[i] = Int32(littleEndian: b.loadUnaligned(fromByteOffset: offset + i * 4, as: Int32.self)) }
            #endif
            offset += count * 4
        }
        load(ints, ic)
        load(rowTable, rowCount * 256)
        load(denseTable, states)
        if sc > 0, let base = b.baseAddress { UnsafeMutableRawPointer(small).copyMemory(from: base + offset, byteCount: sc) }
        offset += sc
        guard !checked || isConsistent(categories: categories) else { return nil }
    }

    /// Every index in range and every link backwards (what a scan needs to
    /// stay in bounds and to end), checked without a branch per entry: each
    /// check folds "x is in 0..<bound" into the top bit of `bad` (see
    /// ``outside(_:_:)``), so the loops over the rows and the states are
    /// straight-line code the compiler vectorises. `PhraseAutomatonTests`
    /// compares it with the plain comparisons on damaged automata.
    func isConsistent(categories: Int) -> Bool {
        guard states < 1 << 28, phrases < 1 << 28, categories < 1 << 28, rowCount <= PhraseAutomaton.maxRows else { return false }
        let S = UInt32(states), P = UInt32(phrases), R = UInt32(rowCount), C = UInt32(categories)
        var bad: UInt32 = 0
        for c in 0..<256 { bad |= PhraseAutomaton.outside(rootNext[c], S) }
        let rows = rowTable
        for i in 0..<rowCount &* 256 { bad |= PhraseAutomaton.outside(rows[i], S) }
        let dense = denseTable
        for s in 0..<states { bad |= PhraseAutomaton.outside(dense[s] &+ 1, R &+ 1) }
        let first = firstChild
        bad |= PhraseAutomaton.outside(first[0] &- 1, S)
        for s in 0..<states {
            // Children ranges ascending and within the states.
            bad |= PhraseAutomaton.outside(first[s &+ 1], S &+ 1) | UInt32(bitPattern: first[s &+ 1] &- first[s])
        }
        let fail = self.fail, output = self.output, link = outputLink
        for s in 1..<max(states, 1) {
            // Failure links to an earlier state, output links to an earlier
            // state or -1, outputs to a phrase or -1.
            let bound = UInt32(truncatingIfNeeded: s)
            bad |= PhraseAutomaton.outside(fail[s], bound) | PhraseAutomaton.outside(link[s] &+ 1, bound &+ 1)
                | PhraseAutomaton.outside(output[s] &+ 1, P &+ 1)
        }
        bad |= PhraseAutomaton.outside(link[0] &+ 1, 1) | PhraseAutomaton.outside(output[0] &+ 1, P &+ 1)
        guard dense[0] == 0, bad & 1 << 31 == 0 else { return false }
        // An output link names a state that ends a phrase (a scan reads its
        // phrase's length): only now that every link is known to be in range.
        for s in 0..<states where link[s] >= 0 { bad |= UInt32(bitPattern: output[Int(link[s])]) }
        let length = self.length, category = self.category
        for p in 0..<phrases {
            bad |= UInt32(bitPattern: length[p]) | UInt32(bitPattern: length[p] &- 1) | PhraseAutomaton.outside(category[p], C)
        }
        return bad & 1 << 31 == 0
    }

    /// Top bit set exactly when `x` is outside `0..<bound` (for `bound` in
    /// 1...2^31): as 32-bit values, `x` below `bound` leaves both terms under
    /// 2^31; `x` at or above `bound` sets the top bit of `x` itself (from
    /// 2^31, negative numbers included) or of `bound - 1 - x` (which wraps).
    @inline(__always)
    static func outside(_ x: Int32, _ bound: UInt32) -> UInt32 {
        let u = UInt32(bitPattern: x)
        return u | (bound &- 1 &- u)
    }

    /// ``isConsistent(categories:)`` as plain comparisons, one by one: the
    /// reference the tests compare it with.
    func isConsistentReference(categories: Int) -> Bool {
        for c in 0..<256 where rootNext[c] < 0 || Int(rootNext[c]) >= states { return false }
        for i in 0..<rowCount * 256 where rows[i] < 0 || Int(rows[i]) >= states { return false }
        guard dense[0] == 0 else { return false }
        for s in 0..<states where dense[s] < -1 || Int(dense[s]) >= rowCount { return false }
        guard firstChild[0] >= 1 else { return false }
        for s in 0..<states {
            let a = firstChild[s], z = firstChild[s + 1]
            guard a <= z, Int(z) <= states else { return false }
            if s > 0 { guard fail[s] >= 0, Int(fail[s]) < s else { return false } }
            guard outputLink[s] >= -1, Int(outputLink[s]) < s, output[s] >= -1, Int(output[s]) < phrases else { return false }
            if outputLink[s] >= 0, output[Int(outputLink[s])] < 0 { return false }
        }
        for p in 0..<phrases where length[p] < 1 || category[p] < 0 || Int(category[p]) >= categories { return false }
        return true
    }
}

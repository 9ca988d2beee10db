/// One layer's lists for one reading of a text (plain, or de-obfuscated
/// and squeezed), in one automaton: the benign idioms, the crisis phrases,
/// the proximity terms, the phrases that void a negation
/// (``SafetyData/negationsVoid``) and those that keep an idiom from being
/// blanked (``SafetyData/benignUnless``, phrases and the terms of its
/// proximity rules). A phrase may be in several lists; the
/// matcher's category of a phrase is the combination of what it is in each
/// list, so one pass over the text finds every occurrence of each list,
/// exactly as a matcher over that list alone would.
/// (A class: a text's check reads it without copying its arrays.)
final class GatePass: Sendable {
    let matcher: PhraseMatcher
    /// Per matcher category: whether its phrases are benign idioms.
    let benign: [Bool]
    /// Per matcher category: whether its phrases void the negations of
    /// their sentence ("I'd be lying").
    let void: [Bool]
    /// Per matcher category: whether its phrases keep the benign idioms
    /// they overlap from being blanked (``SafetyData/benignUnless``).
    let unless: [Bool]
    /// Per matcher category: the crisis category index in the layer, or -1.
    let crisis: [Int32]
    /// Per matcher category: the proximity term index, or -1.
    let near: [Int32]
    /// Per matcher category: the term index of a `benign_unless` proximity
    /// rule ("rather die than ... {longer}"), or -1.
    let unlessNear: [Int32]

    private struct Tags: Hashable {
        var benign = false
        var void = false
        var unless = false
        var crisis: Int32 = -1
        var near: Int32 = -1
        var unlessNear: Int32 = -1
    }

    /// `benign`, `crisis` and `near` as matched (normalised, trimmed, each
    /// list without duplicates), with their crisis category or term index.
    init(benign: [[UInt8]], crisis: [(bytes: [UInt8], category: Int)], near: [(bytes: [UInt8], category: Int)],
         void: [[UInt8]] = [], unless: [[UInt8]] = [], unlessNear: [(bytes: [UInt8], category: Int)] = [],
         mode: PhraseMatcher.Mode) {
        var tags: [[UInt8]: Tags] = [:]
        var order: [[UInt8]] = []
        func entry(_ b: [UInt8], _ set: (inout Tags) -> Void) {
            if tags[b] == nil {
                tags[b] = Tags()
                order.append(b)
            }
            set(&tags[b, default: Tags()])
        }
        for b in benign { entry(b) { $0.benign = true } }
        for (b, c) in crisis { entry(b) { $0.crisis = Int32(c) } }
        for (b, t) in near { entry(b) { $0.near = Int32(t) } }
        for b in void { entry(b) { $0.void = true } }
        for b in unless { entry(b) { $0.unless = true } }
        for (b, t) in unlessNear { entry(b) { $0.unlessNear = Int32(t) } }
        var group: [Tags: Int32] = [:]
        var groups: [Tags] = []
        var category: [Int32] = []
        for b in order {
            let t = tags[b] ?? Tags()
            if let g = group[t] {
                category.append(g)
            } else {
                group[t] = Int32(groups.count)
                category.append(Int32(groups.count))
                groups.append(t)
            }
        }
        matcher = PhraseMatcher(phrases: order, category: category, categories: groups.indices.map(String.init), mode: mode)
        self.benign = groups.map(\.benign)
        self.void = groups.map(\.void)
        self.unless = groups.map(\.unless)
        self.crisis = groups.map(\.crisis)
        self.near = groups.map(\.near)
        self.unlessNear = groups.map(\.unlessNear)
    }

    /// Appends each occurrence in `t` of a crisis phrase, proximity term or
    /// voiding phrase to `hits`, as layer `layer`. When `stopAtBenign`, stops as soon as a
    /// benign idiom occurs and returns false (`hits` is then incomplete).
    @inline(__always)
    func collect(_ t: UnsafeBufferPointer<UInt8>, layer: Int, into hits: inout GateHits, stopAtBenign: Bool) -> Bool {
        var clear = true
        benign.withUnsafeBufferPointer { benign in
          void.withUnsafeBufferPointer { void in
            crisis.withUnsafeBufferPointer { crisis in
                near.withUnsafeBufferPointer { near in
                    matcher.forEachMatchUntil(normalized: t) { s, e, g in
                        if stopAtBenign && benign[g] {
                            clear = false
                            return true
                        }
                        if crisis[g] >= 0 || near[g] >= 0 || void[g] {
                            hits.append(GateHit(start: Int32(s), end: Int32(e),
                                                layer: Int32(layer), group: Int32(g)))
                        }
                        return false
                    }
                }
            }
          }
        }
        return clear
    }

    private init(matcher: PhraseMatcher, benign: [Bool], void: [Bool], unless: [Bool], crisis: [Int32], near: [Int32],
                 unlessNear: [Int32]) {
        self.matcher = matcher
        self.benign = benign
        self.void = void
        self.unless = unless
        self.crisis = crisis
        self.near = near
        self.unlessNear = unlessNear
    }

    func write(to out: inout [UInt8]) {
        matcher.write(to: &out)
        for g in matcher.categories.indices {
            CompiledBytes.append(UInt32((benign[g] ? 1 : 0) | (void[g] ? 2 : 0) | (unless[g] ? 4 : 0)), to: &out)
            CompiledBytes.append(UInt32(bitPattern: crisis[g]), to: &out)
            CompiledBytes.append(UInt32(bitPattern: near[g]), to: &out)
            CompiledBytes.append(UInt32(bitPattern: unlessNear[g]), to: &out)
        }
    }

    /// Reads what ``write(to:)`` wrote; nil unless every crisis index is
    /// below `categories`, every term index below `terms` and every
    /// exception term index below `unlessTerms`.
    convenience init?(reading b: UnsafeRawBufferPointer, at offset: inout Int, categories: Int, terms: Int, unlessTerms: Int) {
        guard let matcher = PhraseMatcher(reading: b, at: &offset) else { return nil }
        var benign: [Bool] = [], void: [Bool] = [], unless: [Bool] = [], crisis: [Int32] = [], near: [Int32] = []
        var unlessNear: [Int32] = []
        for _ in matcher.categories.indices {
            guard let flags = CompiledBytes.uint32(b, &offset), flags <= 7,
                  let c = CompiledBytes.uint32(b, &offset).map({ Int32(bitPattern: $0) }), c >= -1, Int(c) < categories,
                  let t = CompiledBytes.uint32(b, &offset).map({ Int32(bitPattern: $0) }), t >= -1, Int(t) < terms,
                  let u = CompiledBytes.uint32(b, &offset).map({ Int32(bitPattern: $0) }), u >= -1, Int(u) < unlessTerms
            else { return nil }
            benign.append(flags & 1 != 0)
            void.append(flags & 2 != 0)
            unless.append(flags & 4 != 0)
            crisis.append(c)
            near.append(t)
            unlessNear.append(u)
        }
        self.init(matcher: matcher, benign: benign, void: void, unless: unless, crisis: crisis, near: near, unlessNear: unlessNear)
    }
}

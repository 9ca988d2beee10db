@testable import ReflectCore

/// The safety gate's verdict as it was computed before the single-buffer
/// rewrite of issue 20 (two arrays per text, hits collected in arrays, the
/// de-obfuscated reading built scalar by scalar): kept in the tests only as
/// the reference the fast path must agree with, verdict for verdict.
extension SafetyGate {
    func referenceCheck(_ text: String) -> SafetyVerdict {
        let normalized = TextNormalizer.bytes(text)
        let deobfuscated = normalized.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezedScalars)
        var best = Int.max
        for variant in 0..<2 {
            let bytes = variant == 0 ? normalized : deobfuscated
            let done = bytes.withUnsafeBufferPointer { referenceMatch($0, variant: variant, best: &best, blanked: false) }
            if done { continue }
            var copy = bytes
            copy.withUnsafeMutableBufferPointer { buf in
                for layer in layers {
                    let pass = layer.passes[variant]
                    var spans: [(start: Int, end: Int)] = []
                    pass.matcher.forEachMatch(normalized: UnsafeBufferPointer(buf)) { s, e, g in
                        if pass.benign[g] { spans.append((s, e)) }
                    }
                    for span in spans { for i in span.start..<span.end { buf[i] = 32 } }
                }
                _ = referenceMatch(UnsafeBufferPointer(buf), variant: variant, best: &best, blanked: true)
            }
        }
        return best == Int.max ? .ok : .crisis(SafetyCategory.allCases[best])
    }

    private func referenceMatch(_ t: UnsafeBufferPointer<UInt8>, variant: Int, best: inout Int, blanked: Bool) -> Bool {
        var crisis: [(layer: Int, start: Int, end: Int, category: Int32)] = []
        var near: [(layer: Int, start: Int, end: Int, term: Int)] = []
        var benign = false
        for (l, layer) in layers.enumerated() {
            let pass = layer.passes[variant]
            pass.matcher.forEachMatch(normalized: t) { s, e, g in
                if pass.benign[g] { benign = true }
                let c = pass.crisis[g]
                if c >= 0 { crisis.append((l, s, e, c)) }
                let n = pass.near[g]
                if n >= 0 { near.append((l, s, e, Int(n))) }
            }
        }
        if benign && !blanked { return false }
        for hit in crisis {
            let layer = layers[hit.layer]
            let rank = layer.ranks[Int(hit.category)]
            if best <= rank { continue }
            if let negation = variant == 0 ? layer.negation : layer.negationSqueezed,
               SafetyGate.negated(before: hit.start, in: t, by: negation) { continue }
            if let after = variant == 0 ? layer.negationAfter : layer.negationAfterSqueezed,
               SafetyGate.negated(after: hit.end, in: t, by: after, scope: layer.afterScope) { continue }
            best = rank
        }
        if near.isEmpty { return true }
        for (l, layer) in layers.enumerated() {
            guard let rules = layer.near else { continue }
            var found = near.filter { $0.layer == l }.map { (start: $0.start, end: $0.end, term: $0.term) }
            if found.isEmpty { continue }
            NearRules.sort(&found)
            let negation = variant == 0 ? layer.negation : layer.negationSqueezed
            let after = variant == 0 ? layer.negationAfter : layer.negationAfterSqueezed
            for category in rules.referenceMatches(found, in: t, squeezed: variant == 1, negation: negation, negationAfter: after,
                                                      afterScope: layer.afterScope) {
                guard let rank = SafetyCategory.allCases.firstIndex(of: category) else { continue }
                if rank < best { best = rank }
            }
        }
        return true
    }
}

extension NearRules {
    /// The proximity rules' matching as it was before issue 20's rewrite
    /// (arrays of occurrences and categories).
    func referenceMatches(_ occurrences: [(start: Int, end: Int, term: Int)], in t: UnsafeBufferPointer<UInt8>, squeezed useSqueezed: Bool,
                          negation: PhraseMatcher?, negationAfter: PhraseMatcher? = nil,
                          afterScope: NegationScope = .clause) -> [SafetyCategory] {
        let members = useSqueezed ? squeezedMembers : plainMembers
        if occurrences.isEmpty { return [] }
        var left = [(start: Int, end: Int)?](repeating: nil, count: categories.count)
        var found: [SafetyCategory] = []
        for o in occurrences {
            for code in members[o.term] {
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
                if let negationAfter, SafetyGate.negated(after: o.end, in: t, by: negationAfter, scope: afterScope) { continue }
                found.append(categories[r])
            }
        }
        return found
    }
}

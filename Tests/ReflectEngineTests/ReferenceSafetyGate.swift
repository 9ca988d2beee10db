@testable import ReflectCore

/// The safety gate's verdict as it was computed before the single-buffer
/// rewrite of issue 20 (two arrays per text, hits collected in arrays, the
/// de-obfuscated reading built scalar by scalar): kept in the tests only as
/// the reference the fast path must agree with, verdict for verdict. It
/// follows the rules added since (negations voided by their sentence,
/// Korean's short negation, idioms kept by `benign_unless`, idioms of the
/// de-obfuscated reading blanked in the plain one) in the same plain arrays.
extension SafetyGate {
    func referenceCheck(_ text: String) -> SafetyVerdict {
        let normalized = TextNormalizer.bytes(text)
        let deobfuscated = normalized.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezedScalars)
        var best = Int.max
        // The de-obfuscated reading first; the idioms it blanks (per layer,
        // and how many it found) are blanked in the plain reading too where
        // that finds fewer ("a sliiice of cake").
        var squeezedFound: [Int] = [], squeezedBlanked: [[(start: Int, end: Int)]] = []
        for variant in [1, 0] {
            let bytes = variant == 0 ? normalized : deobfuscated
            let mapped = variant == 0 && squeezedBlanked.contains { !$0.isEmpty }
            if !mapped {
                let done = bytes.withUnsafeBufferPointer { referenceMatch($0, variant: variant, best: &best, blanked: false) }
                if done { continue }
            }
            var copy = bytes
            let original = bytes
            copy.withUnsafeMutableBufferPointer { buf in
                original.withUnsafeBufferPointer { t in
                    var voids: [(start: Int, end: Int)] = []
                    for (l, layer) in layers.enumerated() {
                        let pass = layer.passes[variant]
                        var spans: [(start: Int, end: Int)] = []
                        var found: [(start: Int, end: Int)] = []
                        var kept: [(start: Int, end: Int)] = []
                        var terms: [(start: Int, end: Int, term: Int)] = []
                        pass.matcher.forEachMatch(normalized: UnsafeBufferPointer(buf)) { s, e, g in
                            if pass.benign[g] { spans.append((s, e)) }
                            if pass.void[g] { found.append((s, e)) }
                            if pass.unless[g] { kept.append((s, e)) }
                            if pass.unlessNear[g] >= 0 { terms.append((s, e, Int(pass.unlessNear[g]))) }
                        }
                        // An exception written as a proximity rule keeps what its two terms span.
                        if let rules = layer.unlessNear, !terms.isEmpty {
                            NearRules.sort(&terms)
                            kept += rules.spans(terms, in: t, squeezed: variant == 1)
                        }
                        if variant == 1 { squeezedFound.append(spans.count) }
                        if mapped, spans.count < squeezedFound[l] {
                            let sources = SafetyText.deobfuscatedSqueezedSources(t)
                            for span in squeezedBlanked[l] {
                                let start = Int(sources[span.start])
                                let end = span.end < sources.count ? Int(sources[span.end]) : t.count
                                if start < end { spans.append((start, end)) }
                            }
                        }
                        for v in found {
                            let blanked = spans.contains { $0.start < v.end && v.start < $0.end }
                            if !blanked && !referenceNegated(v.start, v.end, in: t, layer: layer, variant: variant) { voids.append(v) }
                        }
                        // An idiom a `benign_unless` phrase overlaps is kept (compared pair by pair).
                        var blankedHere: [(start: Int, end: Int)] = []
                        for span in spans where !kept.contains(where: { $0.start < span.end && span.start < $0.end })
                            && !voids.contains(where: { referenceSameSentence($0, span, in: t) }) {
                            for i in span.start..<span.end { buf[i] = 32 }
                            blankedHere.append(span)
                        }
                        if variant == 1 { squeezedBlanked.append(blankedHere) }
                    }
                }
                _ = referenceMatch(UnsafeBufferPointer(buf), variant: variant, best: &best, blanked: true)
            }
        }
        return best == Int.max ? .ok : .crisis(SafetyCategory.allCases[best])
    }

    private func referenceMatch(_ t: UnsafeBufferPointer<UInt8>, variant: Int, best: inout Int, blanked: Bool) -> Bool {
        var crisis: [(layer: Int, start: Int, end: Int, category: Int32)] = []
        var near: [(layer: Int, start: Int, end: Int, term: Int)] = []
        var voids: [(layer: Int, start: Int, end: Int)] = []
        var benign = false
        for (l, layer) in layers.enumerated() {
            let pass = layer.passes[variant]
            pass.matcher.forEachMatch(normalized: t) { s, e, g in
                if pass.benign[g] { benign = true }
                let c = pass.crisis[g]
                if c >= 0 { crisis.append((l, s, e, c)) }
                let n = pass.near[g]
                if n >= 0 { near.append((l, s, e, Int(n))) }
                if pass.void[g] { voids.append((l, s, e)) }
            }
        }
        if benign && !blanked { return false }
        let valid = voids.filter { !referenceNegated($0.start, $0.end, in: t, layer: layers[$0.layer], variant: variant) }
        for hit in crisis {
            let layer = layers[hit.layer]
            let rank = layer.ranks[Int(hit.category)]
            if best <= rank { continue }
            if referenceNegated(hit.start, hit.end, in: t, layer: layer, variant: variant),
               !valid.contains(where: { referenceSameSentence(($0.start, $0.end), (hit.start, hit.end), in: t) }) { continue }
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

    private func referenceNegated(_ start: Int, _ end: Int, in t: UnsafeBufferPointer<UInt8>, layer: Layer, variant: Int) -> Bool {
        if let negation = variant == 0 ? layer.negation : layer.negationSqueezed,
           SafetyGate.negated(before: start, in: t, by: negation) { return true }
        if let after = variant == 0 ? layer.negationAfter : layer.negationAfterSqueezed,
           SafetyGate.negated(after: end, in: t, by: after, scope: layer.afterScope) { return true }
        return false
    }

    /// One sentence: nothing between the two spans is . ! ? or a line
    /// break, and they are at most the negation window apart.
    private func referenceSameSentence(_ a: (start: Int, end: Int), _ b: (start: Int, end: Int), in t: UnsafeBufferPointer<UInt8>) -> Bool {
        let from = min(a.end, b.end), to = max(a.start, b.start)
        if to <= from { return true }
        if to - from > SafetyGate.negationWindowBytes { return false }
        return !t[from..<to].contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: "?") || $0 == 10 }
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
                    if SafetyGate.negation(in: t, from: a.end, to: o.start, by: negation) { continue }
                }
                if let negationAfter, SafetyGate.negated(after: o.end, in: t, by: negationAfter, scope: afterScope) { continue }
                found.append(categories[r])
            }
        }
        return found
    }
}

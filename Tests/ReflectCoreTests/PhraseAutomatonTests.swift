import Testing
@testable import ReflectCore

/// A deterministic generator for the differential tests.
private struct Rng {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}

/// Pieces texts and phrases are made of: ASCII words that prefix one
/// another, spaces, punctuation, an apostrophe, accented Latin, CJK, Hangul.
private let pieces = ["a", "ab", "b", "ba", "i", "'", " ", " ", " ", ",", "n'", "é", "死", "に", "자", "x1", "_", "qu'", "aa"]

private func randomText(_ rng: inout Rng, pieces count: Int) -> String {
    (0..<count).map { _ in pieces[rng.next(pieces.count)] }.joined()
}

private func randomLexicon(_ rng: inout Rng, categories: Int, phrases: Int) -> PhraseLexicon {
    var lists: [String: [String]] = [:]
    let names = (0..<categories).map { "c\($0)" }
    for _ in 0..<phrases {
        var p = randomText(&rng, pieces: 1 + rng.next(4))
        if p.allSatisfy({ $0 == " " || $0 == "," }) { p = "ab" }
        lists[names[rng.next(categories)], default: []].append(p)
    }
    return PhraseLexicon(priority: names, phrases: lists)
}

@Suite("PhraseMatcher: the automaton agrees with the phrase-by-phrase matcher")
struct PhraseAutomatonTests {
    @Test("every occurrence, in the same order, and the same best category, on random lists and texts", arguments: [PhraseMatcher.Mode.wordBoundary, .substring])
    func agreesWithReference(mode: PhraseMatcher.Mode) throws {
        var rng = Rng(state: mode == .wordBoundary ? 7 : 11)
        for round in 0..<300 {
            let lexicon = randomLexicon(&rng, categories: 1 + rng.next(4), phrases: 1 + rng.next(40))
            guard let reference = try? ReferencePhraseMatcher(lexicon, mode: mode) else { continue }
            let matcher = try PhraseMatcher(lexicon, mode: mode)
            for _ in 0..<20 {
                let text = randomText(&rng, pieces: rng.next(30))
                let t = TextNormalizer.bytes(text)
                let (want, got) = t.withUnsafeBufferPointer { buf in
                    (reference.occurrences(normalized: buf).map { [$0.start, $0.end, $0.category] },
                     matcher.occurrences(normalized: buf).map { [$0.start, $0.end, $0.category] })
                }
                #expect(got == want, "round \(round), text \(text.debugDescription), lexicon \(lexicon.phrases)")
                #expect(matcher.match(text) == reference.match(text), "round \(round), text \(text.debugDescription)")
            }
        }
    }

    @Test("a phrase that is a suffix of another is found inside it (output links), at word boundaries only")
    func suffixPhrases() throws {
        let m = try PhraseMatcher(PhraseLexicon(priority: ["long", "short"], phrases: ["long": ["want to die"], "short": ["to die", "die"]]),
                                  mode: .wordBoundary)
        let found = Array("i want to die".utf8).withUnsafeBufferPointer { m.occurrences(normalized: $0) }
        #expect(found.map { [$0.start, $0.end, $0.category] } == [[2, 13, 0], [7, 13, 1], [10, 13, 1]])
        #expect(m.match("i want to diet") == nil)
        #expect(m.match("studio") == nil)
    }

    @Test("the cost of a scan does not depend on how many phrases share a prefix")
    func manyPhrasesOneAutomaton() throws {
        let phrases = (0..<5000).map { "my thing number \($0)" }
        let m = try PhraseMatcher(PhraseLexicon(priority: ["x"], phrases: ["x": phrases]), mode: .wordBoundary)
        #expect(m.phraseCount == 5000)
        #expect(m.match("this is my thing number 4321 today") == 0)
        #expect(m.match("this is my thing number 43210 today") == nil)
    }

    @Test("more states with many children than there are full rows: the shallowest get them, and every occurrence is still found")
    func moreBusyStatesThanRows() throws {
        // 1,500 states with four children each, at depth 4–7, beside a few
        // shallow ones: more than `maxRows` candidates for a row.
        var phrases: [String] = ["a b", "a c", "a d", "a e", "ab", "ac", "ad", "ae"]
        for i in 0..<1500 { for tail in ["a", "b", "c", "d"] { phrases.append("w\(i) \(tail)") } }
        let lexicon = PhraseLexicon(priority: ["x"], phrases: ["x": phrases])
        let matcher = try PhraseMatcher(lexicon, mode: .wordBoundary)
        let reference = try ReferencePhraseMatcher(lexicon, mode: .wordBoundary)
        #expect(matcher.stateCount > PhraseAutomaton.maxRows)
        var rng = Rng(state: 17)
        let words = ["a", "b", "c", "d", "e", "ab", "ac", "w1", "w12", "w999", "w1499", "w1500", "x", " ", ","]
        for _ in 0..<300 {
            let text = (0..<rng.next(20)).map { _ in words[rng.next(words.count)] }.joined(separator: rng.next(3) == 0 ? "" : " ")
            let t = TextNormalizer.bytes(text)
            let (want, got) = t.withUnsafeBufferPointer { buf in
                (reference.occurrences(normalized: buf).map { [$0.start, $0.end, $0.category] },
                 matcher.occurrences(normalized: buf).map { [$0.start, $0.end, $0.category] })
            }
            #expect(got == want, "\(text.debugDescription)")
        }
    }

    @Test("a compiled matcher read back from bytes matches exactly as the original")
    func roundTrip() throws {
        var rng = Rng(state: 3)
        for mode in [PhraseMatcher.Mode.wordBoundary, .substring] {
            let lexicon = randomLexicon(&rng, categories: 3, phrases: 60)
            let matcher = try PhraseMatcher(lexicon, mode: mode)
            var bytes: [UInt8] = [9, 9]
            matcher.write(to: &bytes)
            var offset = 2
            let read = bytes.withUnsafeBytes { PhraseMatcher(reading: $0, at: &offset) }
            let copy = try #require(read)
            #expect(offset == bytes.count)
            #expect(copy.mode == mode && copy.categories == matcher.categories)
            for _ in 0..<200 {
                let text = randomText(&rng, pieces: rng.next(30))
                let t = TextNormalizer.bytes(text)
                t.withUnsafeBufferPointer { buf in
                    #expect(copy.occurrences(normalized: buf).map { [$0.start, $0.end, $0.category] }
                        == matcher.occurrences(normalized: buf).map { [$0.start, $0.end, $0.category] })
                }
            }
        }
    }

    @Test("truncated or damaged compiled bytes are refused or still scan safely (no crash, no hang)")
    func damagedBytes() throws {
        let matcher = try PhraseMatcher(PhraseLexicon(priority: ["a", "b"], phrases: ["a": ["kill myself", "want to die"], "b": ["die", "n'"]]),
                                        mode: .wordBoundary)
        var bytes: [UInt8] = []
        matcher.write(to: &bytes)
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            var offset = 0
            let read = Array(bytes[..<cut]).withUnsafeBytes { PhraseMatcher(reading: $0, at: &offset) }
            #expect(read == nil, "a file cut at \(cut) of \(bytes.count) bytes was accepted")
        }
        var rng = Rng(state: 5)
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0..<(1 + rng.next(3)) { damaged[rng.next(damaged.count)] = UInt8(rng.next(256)) }
            var offset = 0
            guard let m = damaged.withUnsafeBytes({ PhraseMatcher(reading: $0, at: &offset) }) else { continue }
            _ = m.match("i want to die, i'd kill myself n'importe")
        }
    }
}

@Suite("PhraseAutomaton: the branch-free consistency check agrees with plain comparisons")
struct PhraseAutomatonConsistencyTests {
    @Test("damaged automata (indices at and around every bound, links forward, lengths and categories out of range): same answer")
    func damagedAutomata() throws {
        var rng = Rng(state: 11)
        var refused = 0, accepted = 0
        for round in 0..<40 {
            let lexicon = randomLexicon(&rng, categories: 3, phrases: 20 + rng.next(200))
            let phrases = try PhraseMatcher.phrases(of: lexicon)
            let automaton = PhraseAutomaton(phrases: phrases.map(\.bytes), category: phrases.map { Int32($0.category) })
            var bytes: [UInt8] = []
            automaton.write(to: &bytes)
            var offset = 0
            let intact = try #require(bytes.withUnsafeBytes { PhraseAutomaton(reading: $0, at: &offset, categories: 3, checked: false) })
            #expect(intact.isConsistent(categories: 3) && intact.isConsistentReference(categories: 3))
            #expect(!intact.isConsistent(categories: 0) && !intact.isConsistentReference(categories: 0))
            let states = Int32(automaton.states)
            // Every 32-bit field after the three counts, set to a value at or near a bound.
            let fields = (bytes.count - 12 - automaton.states * 2 - automaton.phrases) / 4
            for _ in 0..<400 {
                var damaged = bytes
                for _ in 0..<(1 + rng.next(2)) {
                    let field = 3 + rng.next(fields)
                    let near: [Int32] = [-2, -1, 0, 1, states - 1, states, states + 1, Int32(rng.next(Int(states))), .max, .min,
                                         Int32(automaton.phrases), 3, Int32(1 + round)]
                    let v = UInt32(bitPattern: near[rng.next(near.count)])
                    for k in 0..<4 { damaged[field * 4 + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
                }
                var at = 0
                guard let read = damaged.withUnsafeBytes({ PhraseAutomaton(reading: $0, at: &at, categories: 3, checked: false) }) else { continue }
                let fast = read.isConsistent(categories: 3), reference = read.isConsistentReference(categories: 3)
                #expect(fast == reference, "round \(round)")
                if reference { accepted += 1 } else { refused += 1 }
            }
        }
        #expect(refused > 5000 && accepted > 500, "\(refused) refused, \(accepted) accepted")
    }
}

@Suite("Safety text preparation on scalars agrees with the Character-by-Character version")
struct SafetyTextTests {
    static let pieces = ["s", "u", "i", "c", "d", "e", " ", " ", "1", "3", "0", "!", "@", "$", "|", ".", "-", "*", "_", "k", "l",
                         "ii", "eee", "é", "ü", "死", "に", "た", "ー", "〜", "~", "자", "살", "하", "고", ",", "'", "7", "ab", "x"]

    @Test("random texts: de-obfuscated and squeezed the same")
    func agrees() {
        var rng = Rng(state: 13)
        for _ in 0..<20000 {
            let text = (0..<rng.next(24)).map { _ in Self.pieces[rng.next(Self.pieces.count)] }.joined()
            let normalized = TextNormalizer.string(text)
            let want = ReferenceSafetyText.squeeze(ReferenceSafetyText.deobfuscate(normalized))
            #expect(SafetyGate.deobfuscatedSqueezed(normalized) == want, "\(text.debugDescription)")
            #expect(SafetyGate.squeeze(normalized) == ReferenceSafetyText.squeeze(normalized), "\(text.debugDescription)")
        }
    }

    @Test("the documented cases")
    func examples() {
        for (text, want) in [("su1c1de", "suicide"), ("k1ll mys3lf", "kil myself"), ("s u i c i d e", "suicide"), ("k.i.l.l", "kil"),
                             ("diiiie!", "die!"), ("d!e", "die"), ("자 살 거 있으면", "자 살 거 있으면"), ("자 살 하 고 싶 어", "자살하고싶어"),
                             ("死にたーーーい", "死にたーい")] {
            #expect(SafetyGate.deobfuscatedSqueezed(TextNormalizer.string(text)) == want, "\(text)")
        }
    }
}

import Foundation
import Testing
@testable import ReflectCore
@testable import ReflectEngine

/// A deterministic generator for the differential tests.
fileprivate struct SafetyRng {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
}

/// Issue 20: the gate's fast path (ASCII text in one stack buffer, hits
/// on the stack, the de-obfuscated reading written byte by byte) must give
/// exactly the verdict of the general path (``SafetyGate/checkGeneral(_:)``)
/// and of the code it replaced (``SafetyGate/referenceCheck(_:)``), on the
/// repository's lists and on random texts built to reach every rule:
/// phrases of the lists, l33t, spelling out, repeated letters, negations
/// before and after, benign idioms, proximity terms, other scripts.
@Suite("Safety gate fast path agrees with the general path", .hangGuard)
struct SafetyFastPathTests {
    static let locales = ["en", "de", "es", "fr", "ja", "ko", "pt-BR"]

    /// Every fixture text of every locale (tuned and held out).
    static let fixtureTexts: [String] = {
        var out: [String] = []
        let dir = repositoryRoot.appendingPathComponent("Tests/Fixtures/safety")
        var files = locales.map { "\($0).tsv" } + locales.map { "heldout/\($0).tsv" }
        files.append(contentsOf: ((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("generated").path)) ?? [])
            .filter { $0.hasSuffix(".tsv") }.map { "generated/\($0)" })
        for file in files {
            guard let text = try? String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                if let cell = line.split(separator: "\t").first, !cell.isEmpty { out.append(String(cell)) }
            }
        }
        return out
    }()

    static let leet: [Character: Character] = ["o": "0", "i": "1", "e": "3", "a": "4", "s": "5", "t": "7", "b": "8", "l": "|"]
    static let symbols: [Character: Character] = ["a": "@", "s": "$", "i": "!"]
    static let noise = ["never ", "not ", "i'm not ", "i would never ", " nicht", " no", " not really", ", but ", ". ", "!", "?",
                        " killing it at work", " to die for", " my husband", " hits me", " and ", " ", "  ", "-", ".", "_", "*",
                        "~", "'", "0", "1", "3", "4", "5", "7", "8", "@", "$", "|", "!", "A", "I", "X", "é", "ü", "死", "ー", "자", "\t"]

    /// A random variation of `text`: obfuscated, spelled out, stretched,
    /// cased, cut or joined with noise.
    fileprivate static func mutate(_ text: String, _ rng: inout SafetyRng) -> String {
        var s = Array(text)
        switch rng.next(9) {
        case 0: s = s.map { c in rng.chance(50) ? (leet[c.lowercased().first ?? c] ?? c) : c }
        case 1: s = s.map { c in rng.chance(50) ? (symbols[c.lowercased().first ?? c] ?? c) : c }
        case 2:
            let separator = [" ", ".", "-", "_", "*", "·", "  "][rng.next(7)]
            let i = rng.next(s.count + 1), j = min(s.count, i + 1 + rng.next(12))
            s = Array(s[..<i]) + Array(s[i..<j].map(String.init).joined(separator: separator)) + Array(s[j...])
        case 3: s = s.flatMap { c in Array(repeating: c, count: rng.chance(15) ? 2 + rng.next(4) : 1) }
        case 4: s = s.flatMap { c in rng.chance(50) ? Array(c.uppercased()) : [c] }
        case 5: for _ in 0..<(1 + rng.next(5)) { s.insert(contentsOf: noise[rng.next(noise.count)], at: rng.next(s.count + 1)) }
        case 6: for _ in 0..<(1 + rng.next(3)) where !s.isEmpty { s.remove(at: rng.next(s.count)) }
        case 7: s += Array(noise[rng.next(noise.count)]) + Array(fixtureTexts[rng.next(fixtureTexts.count)])
        default: s = Array(noise[rng.next(noise.count)]) + s + Array(noise[rng.next(noise.count)])
        }
        return String(s)
    }

    /// ASCII only (what the fast path takes): non-ASCII characters dropped.
    static func ascii(_ text: String) -> String { String(text.unicodeScalars.filter(\.isASCII).map(Character.init)) }

    @Test("the fixture texts and thousands of variations of them: fast path, general path and the replaced code agree, in every locale",
          arguments: locales)
    func fixtureVariations(tag: String) throws {
        let gate = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: tag).safety
        var rng = SafetyRng(state: UInt64(tag.utf8.reduce(7) { $0 &* 31 &+ Int($1) }))
        var flagged = 0, asciiTexts = 0
        for (n, text) in SafetyFastPathTests.fixtureTexts.enumerated() where n % 2 == 0 || tag == "en" {
            var variants = [text, SafetyFastPathTests.ascii(text)]
            for _ in 0..<3 {
                var m = text
                for _ in 0..<(1 + rng.next(3)) { m = SafetyFastPathTests.mutate(m, &rng) }
                variants += [m, SafetyFastPathTests.ascii(m)]
            }
            for v in variants {
                let fast = gate.check(v)
                #expect(fast == gate.checkGeneral(v), "\(tag): \(v.debugDescription)")
                #expect(fast == gate.referenceCheck(v), "\(tag): \(v.debugDescription)")
                if fast != .ok { flagged += 1 }
                if v.utf8.allSatisfy({ $0 < 0x80 }) { asciiTexts += 1 }
            }
        }
        // The variations reach both verdicts and the fast path.
        #expect(flagged > 500 && asciiTexts > 2000, "\(tag): \(flagged) flagged, \(asciiTexts) ASCII texts")
    }

    @Test("random ASCII soup (every printable byte, tabs, runs of spaces and repeats): the same verdict on every path")
    func asciiSoup() throws {
        let gate = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: "en").safety
        var rng = SafetyRng(state: 20)
        let words = ["kill", "myself", "die", "want", "to", "i", "my", "dad", "hits", "me", "never", "not", "suicide", "cut", "pills",
                     "overdose", "end", "it", "all", "s", "u", "c", "d", "e", "k", "l"]
        for _ in 0..<20000 {
            var s = ""
            for _ in 0..<rng.next(16) {
                if rng.chance(60) {
                    s += words[rng.next(words.count)]
                } else {
                    s.unicodeScalars.append(Unicode.Scalar(UInt8(rng.chance(10) ? 9 : 32 + rng.next(95))))
                }
                if rng.chance(50) { s += " " }
            }
            let fast = gate.check(s)
            #expect(fast == gate.checkGeneral(s), "\(s.debugDescription)")
            #expect(fast == gate.referenceCheck(s), "\(s.debugDescription)")
        }
    }

    @Test("the ASCII de-obfuscation written byte by byte equals the scalar-level one on random ASCII text")
    func asciiDeobfuscation() {
        var rng = SafetyRng(state: 21)
        let pieces = ["s", "u", "i", "c", "d", "e", "k", "l", "a", "x", " ", " ", "  ", "1", "3", "0", "4", "5", "7", "8", "!", "@", "$",
                      "|", ".", "-", "*", "_", "~", "ii", "eee", "ll", ",", "'", "A", "Z", "\t", "9", "?"]
        for _ in 0..<50000 {
            let text = (0..<rng.next(30)).map { _ in pieces[rng.next(pieces.count)] }.joined()
            let bytes = Array(text.utf8)
            let general = bytes.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezedScalars)
            let fast = bytes.withUnsafeBufferPointer { t in
                [UInt8](unsafeUninitializedCapacity: max(1, t.count)) { buf, count in
                    guard let base = buf.baseAddress else { count = 0; return }
                    count = SafetyText.deobfuscatedSqueezedASCII(t, into: base)
                }
            }
            #expect(fast == general, "\(text.debugDescription)")
        }
    }

    @Test("where each byte of the de-obfuscated reading comes from: one offset per byte, never decreasing, the byte itself or the l33t character it stands for, a space before a word pointing at the word")
    func deobfuscationSources() {
        var rng = SafetyRng(state: 23)
        let pieces = ["s", "u", "i", "c", "d", "e", "k", "l", "a", " ", "  ", "1", "3", "0", "4", "!", "@", "$", "|", ".", "-", "*",
                      "ii", "eee", "ll", ",", "é", "ü", "死", "ー", "ーー", "자", "살", "e\u{301}", "sliiice", "d i e"]
        for _ in 0..<20000 {
            let text = (0..<rng.next(24)).map { _ in pieces[rng.next(pieces.count)] }.joined()
            let bytes = TextNormalizer.bytes(text)
            let out = bytes.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezedScalars)
            let sources = bytes.withUnsafeBufferPointer(SafetyText.deobfuscatedSqueezedSources)
            #expect(sources.count == out.count, "\(text.debugDescription)")
            guard sources.count == out.count else { continue }
            for k in out.indices {
                let source = Int(sources[k])
                #expect(source >= 0 && source < bytes.count && (k == 0 || sources[k - 1] <= sources[k]), "\(text.debugDescription)")
                guard source >= 0 && source < bytes.count else { break }
                if out[k] == 32 {
                    #expect(bytes[source] != 32, "\(text.debugDescription): a space points at a word")
                } else {
                    #expect(out[k] == bytes[source] || Array("0134578@$!|".utf8).contains(bytes[source]), "\(text.debugDescription) at \(k)")
                }
            }
        }
    }

    @Test("two layers (word and substring mode), slots, benign idioms kept or not by benign_unless (phrases and proximity rules), stretched idioms, negations before and after and voided, proximity rules: random texts")
    func syntheticLayers() throws {
        let english = SafetyData(
            phrases: ["suicide": ["want to die", "kill myself", "{who} ... wants to die", "rather die"], "self_harm": ["cut myself", "cutting"],
                      "crisis": ["no way out", "can't go on"], "abuse": ["{who} ... {hit}", "hits me"],
                      "substance_abuse": ["{drug} ... to cope", "overdose"]],
            slots: ["longer": ["any longer", "anymore"], "who": ["my dad", "my husband", "he"], "hit": ["hits me", "hit me", "beats"], "drug": ["pills", "weed"]],
            benign: ["killing it at work", "to die for", "dying to", "cutting edge", "not lying", "rather die than"],
            benignUnless: ["rather die than go on", "rather die than {who}", "rather die than ... {longer}"],
            negations: ["never", "not", "don't"], negationsAfter: ["not", "no more"], negationsVoid: ["be lying", "a lie"])
        let japanese = SafetyData(phrases: ["suicide": ["死にたい", "自殺", "死んだほうがまし"], "abuse": ["夫 ... 殴られ"]],
                                  benign: ["死ぬほど", "嘘じゃない", "くらいなら死んだほうがまし"], benignUnless: ["生きるくらいなら死んだほうがまし"], negations: ["ない", "安"], negationsAfter: ["はない", "ない"],
                                  negationsVoid: ["嘘"])
        let gate = try SafetyGate(layers: [(japanese, .substring), (english, .wordBoundary)])
        let pieces = ["want", "to", "die", "kill", "myself", "cut", "cutting", "edge", "no", "way", "out", "can't", "go", "on", "my", "dad",
                      "husband", "he", "hits", "hit", "me", "beats", "pills", "weed", "cope", "overdose", "killing", "it", "at", "work",
                      "for", "dying", "never", "not", "don't", "more", "死にたい", "自殺", "夫", "殴られ", "死ぬほど", "ない", "はない",
                      "k1ll", "d!e", "w4nt", "s u i c i d e", "d-i-e", "diiie", ",", ".", "!", " ", "  ", "é", "ー", "WANT", "Die",
                      "be", "lying", "a", "lie", "l1e", "嘘", "じゃない", "安", "\n",
                      "rather", "than", "生きる", "くらいなら", "死んだほうがまし", "any", "longer", "anymore", "sliiice", "dyyying"]
        var rng = SafetyRng(state: 22)
        var flagged = 0
        for _ in 0..<20000 {
            var s = ""
            for _ in 0..<rng.next(14) { s += pieces[rng.next(pieces.count)] + (rng.chance(85) ? " " : "") }
            let fast = gate.check(s)
            #expect(fast == gate.checkGeneral(s), "\(s.debugDescription)")
            #expect(fast == gate.referenceCheck(s), "\(s.debugDescription)")
            if fast != .ok { flagged += 1 }
        }
        #expect(flagged > 2000, "\(flagged) flagged")
    }

    @Test("a text with more hits than the stack holds (the hit buffer grows) gets the same verdict")
    func manyHits() throws {
        let gate = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: "en").safety
        for text in [String(repeating: "my dad hits me and ", count: 200), String(repeating: "i will never kill myself, ", count: 100)
                     + "i want to die", String(repeating: "d i e ", count: 300), String(repeating: "k1ll ", count: 500)] {
            #expect(gate.check(text) == gate.referenceCheck(text))
            #expect(gate.check(text) == gate.checkGeneral(text))
        }
    }
}

import Foundation
import LuaHost
import ReflectCore
import Testing
@testable import ReflectEngine

/// The engine step's fast paths against the general forms they replace, on
/// many random inputs: the key test, the per-language template cache (and
/// rendering through it), and the generation request's digest fed in parts.
@Suite("Engine step fast paths", .hangGuard)
struct StepFastPathTests {
    private struct Draw {
        var x: UInt64
        mutating func callAsFunction(_ n: Int) -> Int {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return Int(x % UInt64(n))
        }
    }

    /// `looksLikeKey` as it was first written: a switch over the bytes.
    private static func looksLikeKeyReference(_ s: String) -> Bool {
        var dot = false
        var last: UInt8 = 0
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): break
            case UInt8(ascii: "."): dot = true
            default: return false
            }
            last = b
        }
        return dot && last != UInt8(ascii: ".")
    }

    @Test("looksLikeKey agrees with the byte switch on random texts and every key of the locales")
    func keyTest() throws {
        let pieces = ["a", "z", "0", "9", "_", "-", ".", "..", "A", "Z", " ", "é", "/", ":", "`", "{", "@", "[", "\u{7F}", "\0",
                      "reflection", "negative", "q1", ",", "+", "~", "^", "—"]
        var draw = Draw(x: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<50_000 {
            var s = ""
            for _ in 0..<draw(8) { s += pieces[draw(pieces.count)] }
            #expect(FlowAPI.looksLikeKey(s) == Self.looksLikeKeyReference(s), "\(s.debugDescription)")
        }
        // Every byte value alone and around a dot.
        for b in 0...255 {
            let bytes: [[UInt8]] = [[UInt8(b)], [UInt8(b), 0x2E, 0x61], [0x61, 0x2E, UInt8(b)]]
            for bs in bytes {
                let s = String(decoding: bs, as: UTF8.self)
                #expect(FlowAPI.looksLikeKey(s) == Self.looksLikeKeyReference(s))
            }
        }
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        for key in try library.language(for: "en").localizer.chain.flatMap({ $0.strings.keys }) {
            #expect(FlowAPI.looksLikeKey(key) == Self.looksLikeKeyReference(key))
        }
    }

    /// `StepID.isValid` as it was first written.
    private static func stepIDReference(_ raw: String) -> Bool {
        let bytes = raw.utf8
        guard (1...SessionLimits.maxStepIDBytes).contains(bytes.count), let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return false }
        return bytes.allSatisfy { b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
        }
    }

    @Test("StepID.isValid agrees with the range checks on random texts, every byte, and around the length limit")
    func stepIDTest() {
        let pieces = ["a", "z", "0", "9", "_", "-", ".", "A", " ", "é", "/", "`", "{", "@", "[", "\0", "situation", "q3", "—"]
        var draw = Draw(x: 0xA076_1D64_78BD_642F)
        for _ in 0..<50_000 {
            var s = ""
            for _ in 0..<draw(8) { s += pieces[draw(pieces.count)] }
            #expect(StepID.isValid(s) == Self.stepIDReference(s), "\(s.debugDescription)")
        }
        for b in 0...255 {
            for bs: [UInt8] in [[UInt8(b)], [0x61, UInt8(b)], [UInt8(b), 0x61]] {
                let s = String(decoding: bs, as: UTF8.self)
                #expect(StepID.isValid(s) == Self.stepIDReference(s))
            }
        }
        for n in [0, 1, SessionLimits.maxStepIDBytes - 1, SessionLimits.maxStepIDBytes, SessionLimits.maxStepIDBytes + 1] {
            let s = String(repeating: "a", count: n)
            #expect(StepID.isValid(s) == Self.stepIDReference(s))
        }
    }

    @Test("a language's cached templates are its strings parsed, for every key of every locale; unknown keys are not kept")
    func templateCache() throws {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        for tag in ["en", "de", "ko", "pt-BR"] {
            let language = try library.language(for: tag)
            let keys = Set(language.localizer.chain.flatMap { $0.strings.keys })
            for _ in 0..<2 { // parsed, then from the cache
                for key in keys {
                    let cached = language.templates.template(forKey: key, in: language.localizer)
                    #expect(cached == language.localizer.string(key).map(Template.init), "\(tag) \(key)")
                }
            }
            for key in ["no.such.key", "reflection.negative.q99", ""] {
                #expect(language.templates.template(forKey: key, in: language.localizer) == nil)
            }
        }
    }

    /// Rendering as it was before the cache: the string looked up and
    /// parsed at every call.
    private static func renderReference(_ textOrKey: String, args: [String], fallback: String?, _ language: Language) -> String? {
        let isKey = looksLikeKeyReference(textOrKey)
        guard let source = language.localizer.string(textOrKey) ?? (isKey ? nil : textOrKey) else { return nil }
        let template = Template(source)
        var unfilled = false
        for case .argument(let n) in template.pieces where n > args.count || args[n - 1].isEmpty { unfilled = true }
        if let fallback {
            let fallbackIsKey = looksLikeKeyReference(fallback)
            guard let alternative = language.localizer.string(fallback) ?? (fallbackIsKey ? nil : fallback) else { return nil }
            if unfilled { return Template(alternative).render([]) }
        }
        return template.render(args)
    }

    @Test("rendering through the cache gives what parsing at every call gave, keys, literals, fallbacks and missing keys")
    func renderAgrees() throws {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        var draw = Draw(x: 0x5851_F42D_4C95_7F2D)
        for tag in ["en", "de"] {
            let language = try library.language(for: tag)
            let keys = Array(Set(language.localizer.chain.flatMap { $0.strings.keys })).sorted()
            let texts = keys + ["a literal text with %@ in it", "plain words", "no.such.key", "100% sure", "%2$@ then %1$@"]
            let answers = ["", "my manager criticised me", "ich habe „alles“ falsch gemacht", "x"]
            for _ in 0..<3000 {
                let text = texts[draw(texts.count)]
                let args = (0..<draw(3)).map { _ in answers[draw(answers.count)] }
                let fallback = draw(2) == 0 ? nil : texts[draw(texts.count)]
                let expected = Self.renderReference(text, args: args, fallback: fallback, language)
                let got = try? FlowAPI.render(text, args: args, fallback: fallback, language, field: "text")
                #expect(got == expected, "\(tag) \(text) \(args) \(fallback ?? "-")")
            }
        }
    }

    /// SHA-256 as it was first written here (one message, one pass): the
    /// reference the block function and the stream are checked against.
    private static func referenceDigest(_ message: [UInt8]) -> [UInt8] {
        let k: [UInt32] = [
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
        ]
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var data = message + [0x80]
        while data.count % 64 != 56 { data.append(0) }
        let bits = UInt64(message.count) * 8
        for i in (0..<8).reversed() { data.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        for chunk in stride(from: 0, to: data.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 64)
            for t in 0..<16 {
                let j = chunk + t * 4
                w[t] = UInt32(data[j]) << 24 | UInt32(data[j + 1]) << 16 | UInt32(data[j + 2]) << 8 | UInt32(data[j + 3])
            }
            for t in 16..<64 {
                let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for t in 0..<64 {
                let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ w[t]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
            }
            for (i, v) in [a, b, c, d, e, f, g, hh].enumerated() { h[i] = h[i] &+ v }
        }
        return h.flatMap { v in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> UInt32($0)) } }
    }

    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("SHA-256 fed whole or in random pieces equals the one-pass reference, at every length around the block edges; a hex prefix is the whole hex's")
    func digestAgrees() {
        var draw = Draw(x: 0x9E37_79B9_7F4A_7C15)
        for length in Array(0..<300) + [511, 512, 513, 1000, 4096] {
            let message = (0..<length).map { _ in UInt8(draw(256)) }
            let expected = Self.referenceDigest(message)
            #expect(SHA256.digest(message) == expected, "length \(length)")
            var stream = SHA256.Stream()
            var at = 0
            while at < length {
                let n = min(length - at, draw(3) == 0 ? draw(140) : draw(9))
                message[at..<(at + n)].withUnsafeBytes { stream.update($0) }
                at += n
            }
            var copy = stream
            let digits = 1 + draw(64)
            #expect(copy.finishHex(digits: digits) == String(Self.hex(expected).prefix(digits)), "length \(length), \(digits) digits")
            #expect(stream.finishHex() == Self.hex(expected), "length \(length)")
            let text = String(decoding: message.map { $0 & 0x7F }, as: UTF8.self)
            #expect(SHA256.hex(text) == Self.hex(Self.referenceDigest(Array(text.utf8))))
        }
    }

    @Test("a generation request's basis is still the digest of its parts joined by U+001F (recorded texts stay valid)")
    func basisAgrees() {
        var draw = Draw(x: 0xD1B5_4A32_D192_ED03)
        let texts = ["", "I always mess everything up", "ich habe „alles“ falsch gemacht", "\u{1F}", String(repeating: "long ", count: 40)]
        for _ in 0..<2000 {
            var context = GenerationContext(mood: draw(2) == 0 ? nil : .bad, framework: draw(2) == 0 ? nil : "cbt",
                                            distortion: draw(2) == 0 ? nil : .catastrophizing, pre: draw(2) == 0 ? nil : draw(11),
                                            post: draw(2) == 0 ? nil : draw(11), personalised: draw(3) == 0 ? nil : draw(2) == 0)
            context.locale = ["en", "de"][draw(2)]
            let request = GenerationRequest(id: "final", purpose: ["final_question", "feedback.observation", ""][draw(3)],
                                            inputs: (0..<draw(6)).map { _ in texts[draw(texts.count)] }, fallback: "f", context: context)
            let joined = ([request.purpose] + request.inputs + context.basisParts).joined(separator: "\u{1F}")
            #expect(request.basis == String(Self.hex(Self.referenceDigest(Array(joined.utf8))).prefix(16)))
        }
        // A fixed request's basis, as saves hold it.
        let fixed = GenerationRequest(id: "final", purpose: "final_question", inputs: ["I always mess everything up", "My manager criticised my report"],
                                      fallback: "f", context: GenerationContext(mood: .bad, framework: "cbt", distortion: .overgeneralization))
        #expect(fixed.basis == String(Self.hex(Self.referenceDigest(Array(
            "final_question\u{1F}I always mess everything up\u{1F}My manager criticised my report\u{1F}bad\u{1F}cbt\u{1F}overgeneralization\u{1F}\u{1F}\u{1F}".utf8))).prefix(16)))
    }
}

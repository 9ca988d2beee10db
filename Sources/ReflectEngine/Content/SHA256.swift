/// SHA-256 (FIPS 180-4), for the translation locks only: change detection,
/// not security. Kept here instead of depending on swift-crypto, whose
/// BoringSSL build added minutes to every CI run for one hash; checked
/// against the standard test vectors in LocalizationTests.
enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func digest(_ message: [UInt8]) -> [UInt8] {
        var stream = Stream()
        message.withUnsafeBytes { stream.update($0) }
        return stream.finish()
    }

    static func hex(_ text: String) -> String {
        var stream = Stream()
        stream.update(text)
        return stream.finishHex()
    }

    /// A digest fed in pieces: the digest of the pieces' concatenation,
    /// without building it (a generation request's basis hashes its parts
    /// this way instead of joining them first).
    struct Stream {
        private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        /// Bytes of the block being filled (`used` of them).
        private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        private var used = 0
        private var length: UInt64 = 0

        mutating func update(_ text: String) {
            var text = text
            text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
        }

        mutating func update(byte: UInt8) {
            withUnsafeBytes(of: byte) { update($0) }
        }

        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            length &+= UInt64(bytes.count)
            var i = 0
            if used > 0 {
                let n = min(64 - used, bytes.count)
                let at = used
                withUnsafeMutableBytes(of: &block) { $0.baseAddress.map { ($0 + at).copyMemory(from: base, byteCount: n) } }
                used += n
                i = n
                if used < 64 { return }
                let full = block
                withUnsafeBytes(of: full) { b in b.baseAddress.map { SHA256.compress(&h, $0) } }
                used = 0
            }
            while bytes.count - i >= 64 {
                SHA256.compress(&h, base + i)
                i += 64
            }
            let rest = bytes.count - i
            if rest > 0 {
                withUnsafeMutableBytes(of: &block) { $0.baseAddress.map { $0.copyMemory(from: base + i, byteCount: rest) } }
                used = rest
            }
        }

        /// The 32-byte digest.
        mutating func finish() -> [UInt8] {
            finalBlocks()
            var out: [UInt8] = []
            out.reserveCapacity(32)
            for v in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
                out.append(UInt8(truncatingIfNeeded: v >> 24)); out.append(UInt8(truncatingIfNeeded: v >> 16))
                out.append(UInt8(truncatingIfNeeded: v >> 8)); out.append(UInt8(truncatingIfNeeded: v))
            }
            return out
        }

        /// The digest in lowercase hexadecimal: its first `digits` hex
        /// digits (1 … 64; all 64 by default), what `prefix(digits)` of the
        /// whole hex string is, without building the rest.
        mutating func finishHex(digits: Int = 64) -> String {
            finalBlocks()
            let count = max(1, min(digits, 64))
            let words = (h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7)
            return String(unsafeUninitializedCapacity: count) { out in
                withUnsafeBytes(of: words) { raw in
                    for j in 0..<count {
                        let v = raw.load(fromByteOffset: (j >> 3) * 4, as: UInt32.self)
                        let d = UInt8(truncatingIfNeeded: (v >> UInt32(28 - (j & 7) * 4)) & 15)
                        out[j] = d < 10 ? d + 48 : d + 87
                    }
                }
                return count
            }
        }

        /// The 0x80, zeros, then the length in bits: the last block or two.
        private mutating func finalBlocks() {
            let bits = length &* 8
            var pad: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let count = used + 9 <= 64 ? 64 : 128
            let held = used
            let current = block
            withUnsafeMutableBytes(of: &pad) { p in
                withUnsafeBytes(of: current) { b in
                    for i in 0..<held { p[i] = b[i] }
                }
                p[held] = 0x80
                for i in 0..<8 { p[count - 1 - i] = UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8)) }
            }
            withUnsafeBytes(of: pad) { p in
                guard let base = p.baseAddress else { return }
                SHA256.compress(&h, base)
                if count == 128 { SHA256.compress(&h, base + 64) }
            }
        }
    }

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

    /// One round, with the eight working variables passed in their rotated
    /// order instead of moved (eight rounds bring them back).
    @inline(__always) private static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                                                _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ kw
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
    }

    /// One 64-byte block into the state.
    private static func compress(_ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawPointer) {
        k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for t in 0..<16 { w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self)) }
                for t in 16..<64 {
                    let x = w[t &- 15], y = w[t &- 2]
                    let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x &>> 3)
                    let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y &>> 10)
                    w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                }
                var (a, b, c, d, e, f, g, hh) = h
                var t = 0
                while t < 64 {
                    round(a, b, c, &d, e, f, g, &hh, k[t] &+ w[t])
                    round(hh, a, b, &c, d, e, f, &g, k[t &+ 1] &+ w[t &+ 1])
                    round(g, hh, a, &b, c, d, e, &f, k[t &+ 2] &+ w[t &+ 2])
                    round(f, g, hh, &a, b, c, d, &e, k[t &+ 3] &+ w[t &+ 3])
                    round(e, f, g, &hh, a, b, c, &d, k[t &+ 4] &+ w[t &+ 4])
                    round(d, e, f, &g, hh, a, b, &c, k[t &+ 5] &+ w[t &+ 5])
                    round(c, d, e, &f, g, hh, a, &b, k[t &+ 6] &+ w[t &+ 6])
                    round(b, c, d, &e, f, g, hh, &a, k[t &+ 7] &+ w[t &+ 7])
                    t &+= 8
                }
                h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
            }
        }
    }
}

import Testing
@testable import LuaHost

/// The codec's one-pass check of strings crossing into Swift agrees with
/// the standard library's UTF-8 validation, and reports a NUL first.
@Suite("UTF8Check")
struct UTF8CheckTests {
    @Test("agrees with String(validating:) on random bytes, ASCII runs and multi-byte edges")
    func agreesWithStandardLibrary() {
        let pieces: [[UInt8]] = [
            Array("plain ascii text, long enough for words ".utf8), [0xC2, 0xA9], [0xE2, 0x80, 0xA6], [0xF0, 0x9F, 0x98, 0x80],
            [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF], [0x80], [0xE2, 0x80],
            [0x00], Array("x".utf8), [0xEF, 0xBF, 0xBD], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xDF, 0xBF],
        ]
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        for n in 0..<4000 {
            var bytes: [UInt8] = []
            for _ in 0..<(n % 9) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                bytes += pieces[Int(x % UInt64(pieces.count))]
            }
            if n % 3 == 0, !bytes.isEmpty { // and a random cut
                bytes.removeLast(Int(x % UInt64(min(3, bytes.count))))
            }
            let got = bytes.withUnsafeBytes { UTF8Check.problem(in: $0) }
            let want: UTF8Check.Problem = bytes.contains(0) ? .nul : (String(validating: bytes, as: UTF8.self) == nil ? .invalid : .none)
            #expect(got == want, "\(bytes)")
        }
    }
}

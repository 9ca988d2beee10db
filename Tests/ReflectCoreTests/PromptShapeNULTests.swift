import Foundation
import Testing
@testable import ReflectCore

/// A text answer with a NUL is refused; the check reads eight bytes at a
/// time. This compares it with a byte-by-byte search on random texts.
@Suite("Text answers: the NUL check")
struct PromptShapeNULTests {
    @Test("containsNUL agrees with searching the UTF-8 bytes, NULs at every position, bridged strings included")
    func agreesWithByteSearch() {
        let pieces = ["a", "bc", "\0", "é", "😀", "12345678", " ", "\u{1}", "\u{80}", "ünïcødé"]
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        for n in 0..<20_000 {
            var s = ""
            for _ in 0..<(n % 23) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                s += pieces[Int(x % UInt64(pieces.count))]
            }
            #expect(PromptShape.containsNUL(s) == s.utf8.contains(0), "\(s.debugDescription)")
            let bridged = NSString(string: s) as String
            #expect(PromptShape.containsNUL(bridged) == s.utf8.contains(0))
        }
        for length in 0..<40 {
            for at in 0..<length {
                var bytes = [UInt8](repeating: 0x61, count: length)
                bytes[at] = 0
                #expect(PromptShape.containsNUL(String(decoding: bytes, as: UTF8.self)))
            }
            #expect(!PromptShape.containsNUL(String(repeating: "a", count: length)))
        }
    }
}

import Testing
@testable import ReflectCore

/// The checksum that tells a damaged cache section from an intact one
/// (``ContentHash/checksum(_:)``): what it must always catch.
@Suite("ContentHash checksum")
struct ContentHashTests {
    private struct Rng {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func sum(_ b: [UInt8]) -> UInt64 { b.withUnsafeBytes(ContentHash.checksum) }

    @Test("any change to one byte, one 8-byte word or the length changes the checksum, at every offset and size")
    func oneDamagedWord() {
        var rng = Rng(state: 3)
        for size in [0, 1, 7, 8, 9, 31, 32, 33, 64, 100, 1000] {
            let data = (0..<size).map { _ in UInt8(rng.next(256)) }
            let good = sum(data)
            for i in 0..<size {
                var bad = data
                bad[i] ^= UInt8(1 + rng.next(255))
                #expect(sum(bad) != good, "size \(size), byte \(i)")
                var word = data
                for k in (i / 8 * 8)..<min(size, i / 8 * 8 + 8) { word[k] = UInt8(rng.next(256)) }
                if word != data { #expect(sum(word) != good, "size \(size), word at \(i / 8 * 8)") }
            }
            if size > 0 {
                #expect(sum(Array(data.dropLast())) != good, "one byte shorter")
                #expect(sum(data + [0]) != good, "one zero byte longer")
            }
        }
    }

    @Test("damage to the high bits of two words, or two words swapped, or zeros for zeros moved, is caught")
    func pairs() {
        var rng = Rng(state: 9)
        let data = (0..<4096).map { _ in UInt8(rng.next(256)) }
        let good = sum(data)
        for _ in 0..<2000 {
            let a = rng.next(512), b = rng.next(512)
            guard a != b else { continue }
            var top = data
            top[a * 8 + 7] ^= 0x80
            top[b * 8 + 7] ^= 0x80
            #expect(sum(top) != good, "top bits of words \(a) and \(b)")
            var swapped = data
            for k in 0..<8 { swapped.swapAt(a * 8 + k, b * 8 + k) }
            if swapped != data { #expect(sum(swapped) != good, "words \(a) and \(b) swapped") }
        }
        let zeros = [UInt8](repeating: 0, count: 4096)
        var shifted = zeros
        shifted[100] = 1
        var moved = zeros
        moved[108] = 1
        #expect(sum(zeros) != sum(shifted) && sum(shifted) != sum(moved))
    }
}

/// A compact little-endian byte format for data a host keeps on disk
/// between runs (parsed locale files, compiled matchers): ``CompiledWriter``
/// appends fields, ``CompiledReader`` reads them back and answers nil (never
/// traps) when the bytes run out or a field is out of range, so that a
/// damaged or foreign cache file only costs the time of compiling again.
public struct CompiledWriter: Sendable {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func u8(_ v: UInt8) { bytes.append(v) }

    public mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func int(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }

    public mutating func double(_ v: Double) { u64(v.bitPattern) }

    public mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }

    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { raw in
            u32(UInt32(raw.count))
            bytes.append(contentsOf: raw)
        }
    }

    public mutating func optionalString(_ s: String?) {
        bool(s != nil)
        if let s { string(s) }
    }

    public mutating func strings(_ list: [String]) {
        u32(UInt32(list.count))
        for s in list { string(s) }
    }

    /// Keys sorted, so equal dictionaries write equal bytes.
    public mutating func stringMap(_ map: [String: String]) {
        u32(UInt32(map.count))
        for k in map.keys.sorted() {
            string(k)
            string(map[k] ?? "")
        }
    }

    public mutating func listMap(_ map: [String: [String]]) {
        u32(UInt32(map.count))
        for k in map.keys.sorted() {
            string(k)
            strings(map[k] ?? [])
        }
    }

    public mutating func int32s(_ list: [Int32]) {
        u32(UInt32(list.count))
        list.withUnsafeBytes { raw in
            #if _endian(little)
            bytes.append(contentsOf: raw)
            #else
            for v in list { u32(UInt32(bitPattern: v)) }
            #endif
        }
    }

    public mutating func raw(_ b: UnsafeRawBufferPointer) { bytes.append(contentsOf: b) }
}

/// Reads what ``CompiledWriter`` wrote. Every read checks the bounds; a
/// failed read returns nil and the caller gives up on the whole record.
public struct CompiledReader {
    public let bytes: UnsafeRawBufferPointer
    public var offset: Int

    public init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var atEnd: Bool { offset == bytes.count }

    /// At most this many elements in one list (a damaged count must not
    /// make a reader reserve gigabytes).
    public static let maxCount = 1 << 26

    public mutating func u8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func u32() -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        defer { offset += 4 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    public mutating func u64() -> UInt64? {
        guard offset >= 0, offset + 8 <= bytes.count else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    public mutating func int() -> Int? { u64().map { Int(Int64(bitPattern: $0)) } }

    public mutating func double() -> Double? { u64().map(Double.init(bitPattern:)) }

    public mutating func bool() -> Bool? {
        guard let b = u8(), b <= 1 else { return nil }
        return b == 1
    }

    /// A list length that the remaining bytes can hold (each element at
    /// least `minimumSize` bytes).
    public mutating func count(minimumSize: Int = 1) -> Int? {
        guard let n = u32(), Int(n) <= CompiledReader.maxCount, Int(n) * minimumSize <= bytes.count - offset else { return nil }
        return Int(n)
    }

    public mutating func string() -> String? {
        guard let n = count() else { return nil }
        defer { offset += n }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n]), as: UTF8.self)
    }

    public mutating func optionalString() -> String?? {
        guard let present = bool() else { return nil }
        if !present { return .some(nil) }
        guard let s = string() else { return nil }
        return .some(s)
    }

    public mutating func strings() -> [String]? {
        guard let n = count(minimumSize: 4) else { return nil }
        var out: [String] = []
        out.reserveCapacity(n)
        for _ in 0..<n {
            guard let s = string() else { return nil }
            out.append(s)
        }
        return out
    }

    public mutating func stringMap() -> [String: String]? {
        guard let n = count(minimumSize: 8) else { return nil }
        var out: [String: String] = [:]
        out.reserveCapacity(n)
        for _ in 0..<n {
            guard let k = string(), let v = string() else { return nil }
            out[k] = v
        }
        return out
    }

    public mutating func listMap() -> [String: [String]]? {
        guard let n = count(minimumSize: 8) else { return nil }
        var out: [String: [String]] = [:]
        out.reserveCapacity(n)
        for _ in 0..<n {
            guard let k = string(), let v = strings() else { return nil }
            out[k] = v
        }
        return out
    }

    public mutating func int32s() -> [Int32]? {
        guard let n = count(minimumSize: 4) else { return nil }
        let start = offset
        offset += n * 4
        #if _endian(little)
        return [Int32](unsafeUninitializedCapacity: n) { buf, initialized in
            if n > 0, let base = buf.baseAddress, let from = bytes.baseAddress {
                UnsafeMutableRawPointer(base).copyMemory(from: from + start, byteCount: n * 4)
            }
            initialized = n
        }
        #else
        return (0..<n).map { Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + $0 * 4, as: Int32.self)) }
        #endif
    }

    /// `n` raw bytes, as a slice of the input.
    public mutating func raw(_ n: Int) -> UnsafeRawBufferPointer? {
        guard n >= 0, offset + n <= bytes.count else { return nil }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
    }
}

/// A 128-bit hash of bytes for naming cache files by their content (two
/// independent 64-bit multiply–xor lanes over 8-byte words; about one
/// instruction per byte). It detects changes; it is not a security measure.
public struct ContentHash: Sendable {
    private var a: UInt64 = 0x243F_6A88_85A3_08D3
    private var b: UInt64 = 0x1319_8A2E_0370_7344
    private var length: UInt64 = 0

    public init() {}

    public mutating func add(_ raw: UnsafeRawBufferPointer) {
        var i = 0
        let n = raw.count
        var a = self.a, b = self.b
        while i + 8 <= n {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            a = (a ^ w) &* 0x9E37_79B9_7F4A_7C15
            a ^= a >> 31
            b = (b &+ w) &* 0xC2B2_AE3D_27D4_EB4F
            b ^= b >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(raw[i]) << shift
            shift += 8
            i += 1
        }
        a = (a ^ tail ^ UInt64(n)) &* 0x9E37_79B9_7F4A_7C15
        b = (b &+ tail &+ UInt64(n)) &* 0xC2B2_AE3D_27D4_EB4F
        self.a = a ^ (a >> 29)
        self.b = b ^ (b >> 32)
        length &+= UInt64(n)
    }

    public mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

    public mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// 32 hexadecimal digits.
    public var hex: String {
        let x = a ^ (length &* 0xFF51_AFD7_ED55_8CCD), y = b ^ (x >> 17)
        return [x, y].map { v in
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }.joined()
    }

    /// A 64-bit checksum of `raw`, for telling a damaged cache section
    /// (a flipped bit, a torn or mixed-up write) from an intact one; not a
    /// security measure. One multiply and one rotation per 8-byte word:
    /// each step is a bijection of the state for any word, and two words
    /// give two different states, so one damaged word always changes the
    /// result; the rotation carries high bits into the low half that the
    /// next multiply spreads, so damage to the high bits of two words does
    /// not cancel. About 0.6 instructions per byte (a cached gate is
    /// megabytes, read at a process's first answer).
    public static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let n = raw.count
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: n)
        guard let base = raw.baseAddress else { return finish(h) }
        @inline(__always) func word(_ i: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) }
        var i = 0
        while i &+ 32 <= n {
            h = step(h, word(i))
            h = step(h, word(i &+ 8))
            h = step(h, word(i &+ 16))
            h = step(h, word(i &+ 24))
            i &+= 32
        }
        while i &+ 8 <= n {
            h = step(h, word(i))
            i &+= 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
                shift &+= 8
                i &+= 1
            }
            h = step(h, tail)
        }
        return finish(h)
    }

    @inline(__always)
    private static func step(_ h: UInt64, _ w: UInt64) -> UInt64 {
        let x = (h ^ w) &* 0x9E37_79B9_7F4A_7C15
        return x << 32 | x >> 32
    }

    @inline(__always)
    private static func finish(_ h: UInt64) -> UInt64 {
        let x = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return x ^ (x >> 32)
    }
}

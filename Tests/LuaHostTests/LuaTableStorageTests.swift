import Testing
@testable import LuaHost

/// A ``LuaTable`` keeps small tables as pairs and large ones in a
/// dictionary; the codec decodes small tables without hashing. These check
/// both against a plain dictionary of the same fields (what a table was
/// before), on many random tables and edits.
@Suite("LuaTable storage", .hangGuard)
struct LuaTableStorageTests {
    private struct Draw {
        var x: UInt64
        mutating func callAsFunction(_ n: Int) -> Int {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return Int(x % UInt64(n))
        }
    }

    private static let keys: [LuaKey] = (0..<24).map { .integer(Int64($0)) } + [-1, 1 << 40].map { LuaKey.integer($0) }
        + ["id", "text", "args", "a", "b", "é", "", "a much longer field name than fifteen bytes", "x1", "x2", "x3"].map { LuaKey.string($0) }

    private static func value(_ draw: inout Draw) -> LuaValue {
        switch draw(9) {
        case 0: return .nil
        case 1: return .boolean(draw(2) == 0)
        case 2: return .integer(Int64(draw(5)))
        case 3: return .number(Double(draw(5)) / 2)
        case 4: return .string(["", "q1", "reflection.negative.q1", "a long answer that does not fit a small string"][draw(4)])
        case 5: return .table(LuaTable(sequence: ["a", "b"]))
        default: return .string("v\(draw(4))")
        }
    }

    /// What `ipairs` visits, read from a dictionary.
    private static func sequence(_ d: [LuaKey: LuaValue]) -> [LuaValue] {
        var out: [LuaValue] = []
        var i: Int64 = 1
        while let v = d[.integer(i)] { out.append(v); i += 1 }
        return out
    }

    @Test("edits give what the same edits give a dictionary: lookups, fields, sequence, count, equality and hashing")
    func editsAgreeWithDictionary() {
        var draw = Draw(x: 0x2545_F491_4F6C_DD1D)
        for round in 0..<2000 {
            var table = LuaTable()
            var reference: [LuaKey: LuaValue] = [:]
            // Some rounds grow past the small limit and shrink back (a large table stays large).
            let edits = round % 3 == 0 ? 60 : 12
            for _ in 0..<edits {
                let key = Self.keys[draw(Self.keys.count)]
                let v = Self.value(&draw)
                switch key {
                case .string(let s) where draw(2) == 0: table[s] = v
                case .integer(let i) where draw(2) == 0: table[Int(i)] = v
                default: table.set(v, at: key)
                }
                if v.isNil { reference.removeValue(forKey: key) } else { reference[key] = v }
                #expect(table.count == reference.count)
            }
            #expect(table.fields == reference)
            for key in Self.keys { #expect(table.value(at: key) == (reference[key] ?? .nil)) }
            #expect(table.sequence == Self.sequence(reference))
            var visited: [LuaKey: LuaValue] = [:]
            table.forEachField { k, v in
                #expect(visited[k] == nil)
                visited[k] = v
            }
            #expect(visited == reference)
            // The same fields however stored: equal, with equal hashes.
            let rebuilt = LuaTable(reference)
            #expect(rebuilt == table && table == rebuilt)
            #expect(rebuilt.hashValue == table.hashValue)
            // One field different: not equal.
            var other = table
            other.set(.string("changed \(round)"), at: Self.keys[draw(Self.keys.count)])
            #expect(other != table)
            #expect(other.fields != reference)
        }
    }

    /// The decoder as it was: a dictionary per table.
    private static func referenceDecode(_ bytes: [UInt8]) -> [LuaValue]? {
        var at = 0
        func read<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard at + MemoryLayout<T>.size <= bytes.count else { return nil }
            var v: T = 0
            withUnsafeMutableBytes(of: &v) { p in for i in 0..<MemoryLayout<T>.size { p[i] = bytes[at + i] } }
            at += MemoryLayout<T>.size
            return v
        }
        func value() -> LuaValue? {
            guard let tag = read(UInt8.self) else { return nil }
            switch tag {
            case 0: return .nil
            case 1: return .boolean(false)
            case 2: return .boolean(true)
            case 3: return read(Int64.self).map { .integer($0) }
            case 5:
                guard let n = read(UInt32.self), at + Int(n) <= bytes.count else { return nil }
                defer { at += Int(n) }
                return .string(String(decoding: bytes[at..<(at + Int(n))], as: UTF8.self))
            case 6:
                guard let narr = read(UInt32.self), let nrec = read(UInt32.self) else { return nil }
                var fields: [LuaKey: LuaValue] = [:]
                for i in 0..<Int(narr) {
                    guard let v = value() else { return nil }
                    if !v.isNil { fields[.integer(Int64(i + 1))] = v }
                }
                for _ in 0..<Int(nrec) {
                    let key: LuaKey
                    switch value() {
                    case .integer(let i)?: key = .integer(i)
                    case .string(let s)?: key = .string(s)
                    default: return nil
                    }
                    guard let v = value() else { return nil }
                    if !v.isNil { fields[key] = v }
                }
                return .table(LuaTable(fields))
            default: return nil
            }
        }
        var out: [LuaValue] = []
        while at < bytes.count {
            guard let v = value() else { return nil }
            out.append(v)
        }
        return out
    }

    @Test("decoding gives what a dictionary per table gave, duplicate keys and nils included")
    func decodeAgreesWithDictionaryDecoder() throws {
        var draw = Draw(x: 0x5851_F42D_4C95_7F2D)
        func put<T>(_ v: T, _ out: inout [UInt8]) { withUnsafeBytes(of: v) { out.append(contentsOf: $0) } }
        func scalar(_ out: inout [UInt8]) {
            switch draw(5) {
            case 0: out.append(0)
            case 1: out.append(UInt8(1 + draw(2)))
            case 2: out.append(3); put(Int64(draw(6)), &out)
            default:
                let s = Array(["q", "text", "id", "a much longer string than fifteen bytes", "é"][draw(5)].utf8)
                out.append(5); put(UInt32(s.count), &out); out.append(contentsOf: s)
            }
        }
        func key(_ out: inout [UInt8]) {
            if draw(2) == 0 {
                out.append(3); put(Int64(draw(6)), &out)
            } else {
                let s = Array(["id", "text", "args", "x"][draw(4)].utf8)
                out.append(5); put(UInt32(s.count), &out); out.append(contentsOf: s)
            }
        }
        func table(_ out: inout [UInt8], depth: Int) {
            // Sizes around the small limit, duplicate keys likely.
            let narr = draw(3) == 0 ? draw(20) : draw(4), nrec = draw(3) == 0 ? draw(24) : draw(6)
            out.append(6); put(UInt32(narr), &out); put(UInt32(nrec), &out)
            for _ in 0..<narr { if depth < 2, draw(6) == 0 { table(&out, depth: depth + 1) } else { scalar(&out) } }
            for _ in 0..<nrec {
                key(&out)
                if depth < 2, draw(6) == 0 { table(&out, depth: depth + 1) } else { scalar(&out) }
            }
        }
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + draw(3)) { if draw(4) == 0 { scalar(&bytes) } else { table(&bytes, depth: 0) } }
            let expected = try #require(Self.referenceDecode(bytes))
            let got = try bytes.withUnsafeBytes { try LuaCodec.decode($0, owner: 1) }
            #expect(got == expected)
            // And back: what is decoded encodes to a buffer that decodes to the same.
            let again = try LuaCodec.encode(got, owner: 1)
            #expect(try again.withUnsafeBytes { try LuaCodec.decode($0, owner: 1) } == got)
        }
    }

    @Test("random tables cross into Lua and back unchanged")
    func roundTripThroughLua() throws {
        var draw = Draw(x: 0x9E37_79B9_7F4A_7C15)
        let state = try LuaState(seed: 1)
        defer { state.close() }
        let identity = try #require(state.call(state.load("return function(...) return ... end", as: "flows/id.lua")).first?.functionValue)
        for _ in 0..<500 {
            var fields: [LuaKey: LuaValue] = [:]
            for _ in 0..<(draw(3) == 0 ? draw(40) : draw(10)) {
                fields[Self.keys[draw(Self.keys.count)]] = Self.value(&draw)
            }
            let t = LuaValue.table(LuaTable(fields))
            #expect(try state.call(identity, [t, .table(LuaTable(sequence: [t]))]) == [t, .table(LuaTable(sequence: [t]))])
        }
    }
}

import Testing
@testable import LuaHost

/// A host call's arguments are checked in one pass that builds nothing
/// (``LuaCodec/isDecodable(_:maxHostBytes:)``) and then read in place
/// (``LuaHostCall/argument(_:)``, ``LuaHostCall/withTable(_:_:)``). These
/// check both against the general decoding: the same verdict on random
/// and damaged crossings (bad tags, truncation, NUL bytes, bad UTF-8, keys
/// of other types, an allowance too small), the same values, and the same
/// values still after the function called back into Lua, which reuses the
/// bytes they were read from.
@Suite("Host call arguments", .hangGuard)
struct HostCallArgumentsTests {
    private struct Draw {
        var x: UInt64
        mutating func callAsFunction(_ n: Int) -> Int {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return Int(x % UInt64(n))
        }
    }

    private static let strings: [[UInt8]] = [
        Array("q".utf8), Array("text".utf8), Array("id".utf8), Array("a much longer string than fifteen bytes".utf8),
        Array("é".utf8), [], [0x61, 0x00, 0x62], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF],
    ]

    /// A random crossing: scalars and tables (some nested), strings of
    /// every kind above, keys of every type, then sometimes damaged.
    private static func crossing(_ draw: inout Draw) -> [UInt8] {
        func put<T>(_ v: T, _ out: inout [UInt8]) { withUnsafeBytes(of: v) { out.append(contentsOf: $0) } }
        func string(_ out: inout [UInt8]) {
            // Mostly good strings; bad ones (NUL, bad UTF-8) now and then.
            let s = strings[draw(4) == 0 ? draw(strings.count) : draw(6)]
            out.append(5); put(UInt32(s.count), &out); out.append(contentsOf: s)
        }
        func scalar(_ out: inout [UInt8]) {
            switch draw(7) {
            case 0: out.append(0)
            case 1: out.append(UInt8(1 + draw(2)))
            case 2: out.append(3); put(Int64(draw(6)), &out)
            case 3: out.append(4); put(Double(draw(6)) / 4, &out)
            case 4: out.append(7); put(Int64(draw(6) + 1), &out)
            default: string(&out)
            }
        }
        func key(_ out: inout [UInt8]) {
            switch draw(12) {
            case 0..<4: out.append(3); put(Int64(draw(6)), &out)
            case 4: out.append(4); put(1.5, &out) // not a key type
            case 5: out.append(2) // not a key type
            default:
                let s = Array(["id", "text", "args", "x", "fallback"][draw(5)].utf8)
                out.append(5); put(UInt32(s.count), &out); out.append(contentsOf: s)
            }
        }
        func table(_ out: inout [UInt8], depth: Int) {
            let narr = draw(3) == 0 ? draw(20) : draw(4), nrec = draw(3) == 0 ? draw(24) : draw(6)
            out.append(6); put(UInt32(narr), &out); put(UInt32(nrec), &out)
            for _ in 0..<narr { if depth < 2, draw(6) == 0 { table(&out, depth: depth + 1) } else { scalar(&out) } }
            for _ in 0..<nrec {
                key(&out)
                if depth < 2, draw(6) == 0 { table(&out, depth: depth + 1) } else { scalar(&out) }
            }
        }
        var bytes: [UInt8] = []
        for _ in 0..<(1 + draw(3)) { if draw(3) == 0 { scalar(&bytes) } else { table(&bytes, depth: 0) } }
        switch draw(8) {
        case 0 where !bytes.isEmpty: bytes.removeLast(1 + draw(min(bytes.count, 12))) // truncated
        case 1 where !bytes.isEmpty: bytes[draw(bytes.count)] = UInt8(draw(256)) // one byte changed
        case 2: bytes.append(UInt8(8 + draw(200))) // an unknown tag
        default: break
        }
        return bytes
    }

    @Test("the one-pass check accepts exactly what decoding accepts, whatever the allowance")
    func checkAgreesWithDecoding() {
        var draw = Draw(x: 0x2545_F491_4F6C_DD1D)
        var accepted = 0, refused = 0
        for _ in 0..<20_000 {
            let bytes = Self.crossing(&draw)
            let allowance = [Int.max, 4096, 600, 200, 64, bytes.count, bytes.count - 1][draw(7)]
            bytes.withUnsafeBytes { buffer in
                let decodes = (try? LuaCodec.decode(buffer, owner: 1, maxHostBytes: allowance)) != nil
                #expect(LuaCodec.isDecodable(buffer, maxHostBytes: allowance) == decodes, "\(bytes) allowance \(allowance)")
                if decodes { accepted += 1 } else { refused += 1 }
            }
        }
        // Both verdicts were exercised, many times.
        #expect(accepted > 2000 && refused > 2000)
    }

    @Test("values read in place equal the decoded values: each argument, each table's fields, the whole table")
    func inPlaceAgreesWithDecoding() throws {
        var draw = Draw(x: 0x9E37_79B9_7F4A_7C15)
        var tables = 0
        for _ in 0..<20_000 {
            let bytes = Self.crossing(&draw)
            try bytes.withUnsafeBytes { buffer in
                guard LuaCodec.isDecodable(buffer, maxHostBytes: .max) else { return }
                let decoded = try LuaCodec.decode(buffer, owner: 7)
                let arguments = HostCallArguments(buffer: buffer, owner: 7)
                #expect(arguments.values == decoded)
                for position in 0...(decoded.count + 1) {
                    let expected: LuaValue = position >= 1 && position <= decoded.count ? decoded[position - 1] : .nil
                    let fresh = HostCallArguments(buffer: buffer, owner: 7)
                    guard let (b, at) = fresh.offset(of: position) else {
                        #expect(expected == .nil && (position < 1 || position > decoded.count))
                        continue
                    }
                    var reader = InPlaceReader(buffer: b, at: at, owner: 7)
                    #expect(reader.value() == expected)
                    guard case .table(let t) = expected else { continue }
                    tables += 1
                    let view = LuaTableView(buffer: b, entries: at + 9, arrayCount: EncodedValue.u32(b, at + 1),
                                            fieldCount: EncodedValue.u32(b, at + 5), owner: 7)
                    #expect(view.table == t)
                    // Keeping the last value seen per key reads what lookups read.
                    var seen = LuaTable()
                    view.forEachField { field in
                        #expect(!field.value.isNil)
                        if let name = field.name {
                            seen[String(decoding: name, as: UTF8.self)] = field.value
                        } else if let i = field.index {
                            seen.set(field.value, at: .integer(i))
                        }
                    }
                    #expect(seen == t)
                }
            }
        }
        #expect(tables > 1000)
    }

    @Test("a host function reads its arguments alike through every accessor, also after calling back into Lua")
    func readsSurviveCallbacks() throws {
        let state = try LuaState(seed: 1)
        defer { state.close() }
        final class Box: @unchecked Sendable {
            var seen: [[LuaValue]] = []
            var kept: LuaHostCall?
        }
        let box = Box()
        let echo = try state.makeFunction("echo") { call in .values(call.arguments) }
        let probe = try state.makeFunction("probe") { call in
            // Read before, call back into Lua (whose host call reuses the
            // crossing buffer), read again with every accessor.
            let before = (1...3).map { call.argument($0) }
            let viaView = try call.withTable(1) { (t: LuaTableView) throws(LuaHostError) -> LuaValue in .table(t.table) }
            if let f = call.argument(2).functionValue { _ = try call.call(f, [.string("another crossing that overwrites the buffer"), .table(LuaTable(named: ["x": 1]))]) }
            let after = (1...3).map { call.argument($0) }
            let viewAfter = try call.withTable(1) { (t: LuaTableView) throws(LuaHostError) -> LuaValue in .table(t.table) }
            box.seen.append(before + [viaView] + after + [viewAfter] + call.arguments)
            box.kept = call
            return .values([])
        }
        try state.define("echo", .function(echo), .global)
        try state.define("probe", .function(probe), .global)
        let chunk = try state.load("""
            local t = { id = "situation", text = "reflection.negative.q1", args = { "My manager criticised my report" }, n = 3 }
            probe(t, function(s, u) return echo(s, u, "more", { 1, 2, 3 }) end, "third")
            """, as: "flows/probe.lua")
        try state.call(chunk)
        let seen = try #require(box.seen.first)
        let table = LuaValue.table(LuaTable(named: ["id": "situation", "text": "reflection.negative.q1",
                                                    "args": .table(LuaTable(sequence: ["My manager criticised my report"])), "n": 3]))
        #expect(seen[0] == table && seen[1].functionValue != nil && seen[2] == "third")
        #expect(seen[3] == table)
        #expect(Array(seen[4...6]) == Array(seen[0...2]))
        #expect(seen[7] == table)
        #expect(Array(seen[8...]) == Array(seen[0...2]))
        // A call kept past its return still reads its arguments.
        let kept = try #require(box.kept)
        try state.call(try state.load("echo('a crossing after the call returned', { 9, 8 })", as: "flows/after.lua"))
        #expect(kept.argument(1) == table && kept.argument(3) == "third")
        #expect(try kept.withTable(1) { (t: LuaTableView) throws(LuaHostError) -> LuaValue in .table(t.table) } == table)
    }

    @Test("hostile arguments give the errors they gave: NUL, bad UTF-8, the allowance, a non-table where a table is read")
    func hostileArgumentsKeepTheirErrors() throws {
        var limits = SandboxLimits.default
        limits.hostBytesPerCrossing = 64 * 1024
        let state = try LuaState(limits: limits, seed: 1)
        defer { state.close() }
        let read = try state.makeFunction("read") { call in
            try call.withTable(2) { (t: LuaTableView) throws(LuaHostError) -> LuaHostResult in
                var n = 0
                t.forEachField { _ in n += 1 }
                return .values([.integer(Int64(n))])
            }
        }
        try state.define("read", .function(read), .global)
        func error(_ source: String) throws -> String {
            do {
                try state.call(try state.load(source, as: "flows/hostile.lua"))
            } catch let e as LuaError {
                return e.message
            }
            return "no error"
        }
        #expect(try error("read(nil, { text = 'a\\0b' })").contains("bad argument to 'read' (value #2.text: string contains a NUL byte)"))
        #expect(try error("read(nil, { text = '\\xC3' })").contains("bad argument to 'read' (value #2.text: string is not valid UTF-8)"))
        #expect(try error("read('\\xFF', {})").contains("bad argument to 'read' (value #1: string is not valid UTF-8)"))
        #expect(try error("read(nil, { args = { 'ok', string.rep('x', 70000) } })").contains("too large for the host"))
        #expect(try error("read(nil, 'text')").contains("bad argument #2 to 'read' (table expected, got string)"))
        #expect(try error("read(nil)").contains("bad argument #2 to 'read' (table expected, got no value)"))
        #expect(try error("return read(nil, { a = 1, b = 2, [3] = 4 })") == "no error")
    }
}

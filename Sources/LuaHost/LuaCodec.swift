/// The Swift half of the value encoding shared with `rlua_codec.c`:
/// tags 0 nil, 1 false, 2 true, 3 int64, 4 double, 5 string (u32 length),
/// 6 table (u32 array count, u32 field count, values, then key/value pairs),
/// 7 function handle (int64), all in native byte order.
enum LuaCodec {
    private enum Tag: UInt8 {
        case `nil` = 0, `false`, `true`, integer, double, string, table, handle
    }

    static func encode(_ values: [LuaValue], owner: UInt64) throws(LuaError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for v in values { try encode(v, owner: owner, into: &out) }
        return out
    }

    /// Encodes into `out`, replacing what it held but keeping its storage.
    static func encode(_ values: [LuaValue], owner: UInt64, replacing out: inout [UInt8]) throws(LuaError) {
        out.removeAll(keepingCapacity: true)
        for v in values { try encode(v, owner: owner, into: &out) }
    }

    private static func append<T>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value) { out.append(contentsOf: $0) }
    }

    private static func encode(_ value: LuaValue, owner: UInt64, into out: inout [UInt8]) throws(LuaError) {
        switch value {
        case .nil: out.append(Tag.nil.rawValue)
        case .boolean(let b): out.append(b ? Tag.true.rawValue : Tag.false.rawValue)
        case .integer(let i):
            out.append(Tag.integer.rawValue)
            append(i, to: &out)
        case .number(let d):
            out.append(Tag.double.rawValue)
            append(d, to: &out)
        case .string(let s):
            out.append(Tag.string.rawValue)
            var s = s
            s.withUTF8 { bytes in
                append(UInt32(truncatingIfNeeded: bytes.count), to: &out)
                out.append(contentsOf: bytes)
            }
        case .table(let t):
            let sequence = t.sequence
            out.append(Tag.table.rawValue)
            append(UInt32(sequence.count), to: &out)
            append(UInt32(t.count - sequence.count), to: &out)
            for v in sequence { try encode(v, owner: owner, into: &out) }
            // Fields in a fixed order (a Swift dictionary iterates in a
            // per-process order): the table a flow receives is built the same
            // way on every run, whatever it does with it.
            var rest: [(key: LuaKey, value: LuaValue)] = []
            rest.reserveCapacity(t.count - sequence.count)
            t.forEachField { k, v in
                if case .integer(let i) = k, i >= 1, i <= Int64(sequence.count) { return }
                rest.append((k, v))
            }
            rest.sort { $0.key.precedes($1.key) }
            for (k, v) in rest {
                switch k {
                case .integer(let i): try encode(.integer(i), owner: owner, into: &out)
                case .string(let s): try encode(.string(s), owner: owner, into: &out)
                }
                try encode(v, owner: owner, into: &out)
            }
        case .function(let f):
            guard f.owner == owner else {
                throw LuaError(kind: .host(.foreignHandle), message: "function handle belongs to another Lua state")
            }
            out.append(Tag.handle.rawValue)
            append(f.id, to: &out)
        }
    }

    /// What one decoded value costs the host beyond its string bytes (the
    /// enum, a dictionary slot, a String header), for the allowance.
    static let hostBytesPerValue = 64

    /// Decodes a crossing. `maxHostBytes` is the host memory the decoded
    /// values may take (``SandboxLimits/hostBytesPerCrossing``): the buffer
    /// itself is a lower bound and is checked first; strings and values are
    /// charged as they are read, so a crossing over the allowance fails
    /// with `.host(.invalidValue)` naming the allowance, before it costs it.
    /// `root` and `field` name where the first value sits in what the
    /// Lua side holds (value #`root`, its `field`), for the errors' paths.
    static func decode(_ buffer: UnsafeRawBufferPointer, owner: UInt64, maxHostBytes: Int = .max,
                       root: Int = 1, field: LuaKey? = nil) throws(LuaError) -> [LuaValue] {
        var reader = Reader(buffer: buffer, owner: owner, allowance: maxHostBytes)
        if buffer.count > maxHostBytes { throw reader.overAllowance(nil) }
        switch field {
        case .integer(let i)?: reader.path.parts = [.index(Int(i))]
        case .string(let s)?: reader.path.parts = [.field(s)]
        case nil: break
        }
        var values: [LuaValue] = []
        values.reserveCapacity(4)
        while !reader.atEnd {
            reader.path.root = root + values.count
            values.append(try reader.value())
        }
        return values
    }

    /// Where a value sits in a crossing ("value #2.items[3]"), kept as
    /// parts and written out only for an error message.
    private struct Path {
        enum Part {
            case index(Int)
            case field(String)
        }
        var root = 1
        var parts: [Part] = []

        var text: String {
            var out = "value #\(root)"
            for part in parts {
                switch part {
                case .index(let i): out += "[\(i)]"
                case .field(let s): out += ".\(s)"
                }
            }
            return out
        }
    }

    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        let owner: UInt64
        let allowance: Int
        var offset = 0
        var charged = 0
        var path = Path()

        init(buffer: UnsafeRawBufferPointer, owner: UInt64, allowance: Int) {
            self.buffer = buffer
            self.owner = owner
            self.allowance = allowance
        }

        /// The host allowance is exceeded (at `path`, when known).
        func overAllowance(_ path: String?) -> LuaError {
            let why = "too large for the host: more than \(allowance / 1024) KiB once decoded (the host allowance per crossing; "
                + "a string counts once per reference)"
            return LuaError(kind: .host(.invalidValue), message: path.map { "\($0): \(why)" } ?? "values \(why)")
        }

        mutating func charge(_ bytes: Int) throws(LuaError) {
            charged += bytes
            if charged > allowance { throw overAllowance(path.text) }
        }

        var atEnd: Bool { offset >= buffer.count }

        func invalid(_ why: String) -> LuaError {
            LuaError(kind: .host(.invalidValue), message: "\(path.text): \(why)")
        }

        mutating func read<T: FixedWidthInteger>(_: T.Type) throws(LuaError) -> T {
            guard offset + MemoryLayout<T>.size <= buffer.count else { throw invalid("truncated value") }
            let v = buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
            return v
        }

        mutating func value() throws(LuaError) -> LuaValue {
            try charge(LuaCodec.hostBytesPerValue)
            let tag = try read(UInt8.self)
            switch Tag(rawValue: tag) {
            case .nil: return .nil
            case .false: return .boolean(false)
            case .true: return .boolean(true)
            case .integer: return .integer(try read(Int64.self))
            case .double: return .number(Double(bitPattern: try read(UInt64.self)))
            case .string: return .string(try string())
            case .table:
                let narr = Int(try read(UInt32.self))
                let nrec = Int(try read(UInt32.self))
                if narr + nrec <= LuaTable.smallLimit { return .table(try smallTable(narr: narr, nrec: nrec)) }
                var fields: [LuaKey: LuaValue] = [:]
                fields.reserveCapacity(min(narr + nrec, 1 << 16))
                for i in 0..<narr {
                    path.parts.append(.index(i + 1))
                    let v = try value()
                    path.parts.removeLast()
                    if !v.isNil { fields[.integer(Int64(i + 1))] = v }
                }
                for _ in 0..<nrec {
                    let key = try self.key()
                    let v = try value()
                    path.parts.removeLast()
                    if !v.isNil { fields[key] = v }
                }
                return .table(LuaTable(withoutNils: fields))
            case .handle:
                return .function(LuaFunction(id: try read(Int64.self), owner: owner))
            case nil:
                throw invalid("unknown tag \(tag)")
            }
        }

        /// A field's key, with its place pushed on `path` (the caller pops it).
        mutating func key() throws(LuaError) -> LuaKey {
            switch try value() {
            case .integer(let i):
                path.parts.append(.index(Int(i)))
                return .integer(i)
            case .string(let s):
                path.parts.append(.field(s))
                return .string(s)
            default: throw invalid("table key must be a string or an integer")
            }
        }

        /// A table of at most ``LuaTable/smallLimit`` entries, as pairs:
        /// what a dictionary would hold (a later duplicate key wins, nils are
        /// left out), without hashing.
        mutating func smallTable(narr: Int, nrec: Int) throws(LuaError) -> LuaTable {
            var fields: [LuaTable.Field] = []
            fields.reserveCapacity(narr + nrec)
            for i in 0..<narr {
                path.parts.append(.index(i + 1))
                let v = try value()
                path.parts.removeLast()
                if !v.isNil { fields.append(LuaTable.Field(key: .integer(Int64(i + 1)), value: v)) }
            }
            for _ in 0..<nrec {
                let key = try self.key()
                let v = try value()
                path.parts.removeLast()
                if v.isNil { continue }
                if let i = fields.firstIndex(where: { $0.key == key }) { fields[i].value = v } else { fields.append(LuaTable.Field(key: key, value: v)) }
            }
            return LuaTable(uniqueSmall: fields)
        }

        mutating func string() throws(LuaError) -> String {
            let count = Int(try read(UInt32.self))
            guard offset + count <= buffer.count else { throw invalid("truncated string") }
            try charge(count)
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
            offset += count
            switch UTF8Check.problem(in: bytes) {
            case .none: return String(decoding: bytes, as: UTF8.self)
            case .nul: throw invalid("string contains a NUL byte")
            case .invalid: throw invalid("string is not valid UTF-8")
            }
        }
    }
}

/// One pass over a string's bytes: a NUL, or a byte sequence that is not
/// well-formed UTF-8 (overlong forms, surrogates and values above U+10FFFF
/// included, as the Unicode standard's table 3-7 defines it).
enum UTF8Check {
    enum Problem { case none, nul, invalid }

    static func problem(in bytes: UnsafeRawBufferPointer) -> Problem {
        var invalid = false
        var i = 0
        let n = bytes.count
        while i < n {
            // Eight ASCII bytes, none of them NUL, at a time.
            if i + 8 <= n {
                let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let high: UInt64 = 0x8080_8080_8080_8080
                if w & high == 0, (w &- 0x0101_0101_0101_0101) & ~w & high == 0 {
                    i += 8
                    continue
                }
            }
            let b = bytes[i]
            if b < 0x80 {
                if b == 0 { return .nul }
                i += 1
                continue
            }
            if invalid { i += 1; continue } // keep looking for a NUL, which is reported first
            let need: Int
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; hi = 0x9F
            case 0xF0: need = 3; lo = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; hi = 0x8F
            default: invalid = true; i += 1; continue
            }
            guard i + need < n else { invalid = true; i += 1; continue }
            let b1 = bytes[i + 1]
            if b1 < lo || b1 > hi { invalid = true; i += 1; continue }
            var ok = true
            var k = 2
            while k <= need {
                if bytes[i + k] & 0xC0 != 0x80 { ok = false; break }
                k += 1
            }
            if !ok { invalid = true; i += 1; continue }
            i += need + 1
        }
        return invalid ? .invalid : .none
    }
}

extension LuaKey {
    /// The order fields cross into Lua: integers ascending, then strings by
    /// their UTF-8 bytes.
    func precedes(_ other: LuaKey) -> Bool {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.integer, .string): return true
        case (.string, .integer): return false
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }
}

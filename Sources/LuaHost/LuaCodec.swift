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
            append(UInt32(t.fields.count - sequence.count), to: &out)
            for v in sequence { try encode(v, owner: owner, into: &out) }
            // Fields in a fixed order (a Swift dictionary iterates in a
            // per-process order): the table a flow receives is built the same
            // way on every run, whatever it does with it.
            for (k, v) in t.fields.sorted(by: { $0.key.precedes($1.key) }) {
                if case .integer(let i) = k, i >= 1, i <= Int64(sequence.count) { continue }
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
    static func decode(_ buffer: UnsafeRawBufferPointer, owner: UInt64, maxHostBytes: Int = .max) throws(LuaError) -> [LuaValue] {
        var reader = Reader(buffer: buffer, owner: owner, allowance: maxHostBytes)
        if buffer.count > maxHostBytes { throw reader.overAllowance(nil) }
        var values: [LuaValue] = []
        while !reader.atEnd { values.append(try reader.value(path: "value #\(values.count + 1)")) }
        return values
    }

    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        let owner: UInt64
        let allowance: Int
        var offset = 0
        var charged = 0

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

        mutating func charge(_ bytes: Int, _ path: String) throws(LuaError) {
            charged += bytes
            if charged > allowance { throw overAllowance(path) }
        }

        var atEnd: Bool { offset >= buffer.count }

        func invalid(_ path: String, _ why: String) -> LuaError {
            LuaError(kind: .host(.invalidValue), message: "\(path): \(why)")
        }

        mutating func read<T: FixedWidthInteger>(_: T.Type, path: String) throws(LuaError) -> T {
            guard offset + MemoryLayout<T>.size <= buffer.count else { throw invalid(path, "truncated value") }
            let v = buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
            return v
        }

        mutating func value(path: String) throws(LuaError) -> LuaValue {
            try charge(LuaCodec.hostBytesPerValue, path)
            let tag = try read(UInt8.self, path: path)
            switch Tag(rawValue: tag) {
            case .nil: return .nil
            case .false: return .boolean(false)
            case .true: return .boolean(true)
            case .integer: return .integer(try read(Int64.self, path: path))
            case .double: return .number(Double(bitPattern: try read(UInt64.self, path: path)))
            case .string: return .string(try string(path: path))
            case .table:
                let narr = Int(try read(UInt32.self, path: path))
                let nrec = Int(try read(UInt32.self, path: path))
                var fields: [LuaKey: LuaValue] = [:]
                fields.reserveCapacity(min(narr + nrec, 1 << 16))
                for i in 0..<narr { fields[.integer(Int64(i + 1))] = try value(path: "\(path)[\(i + 1)]") }
                for _ in 0..<nrec {
                    let key: LuaKey
                    switch try value(path: path) {
                    case .integer(let i): key = .integer(i)
                    case .string(let s): key = .string(s)
                    default: throw invalid(path, "table key must be a string or an integer")
                    }
                    let keyPath: String
                    switch key {
                    case .integer(let i): keyPath = "\(path)[\(i)]"
                    case .string(let s): keyPath = "\(path).\(s)"
                    }
                    let v = try value(path: keyPath)
                    if !v.isNil { fields[key] = v }
                }
                return .table(LuaTable(fields))
            case .handle:
                return .function(LuaFunction(id: try read(Int64.self, path: path), owner: owner))
            case nil:
                throw invalid(path, "unknown tag \(tag)")
            }
        }

        mutating func string(path: String) throws(LuaError) -> String {
            let count = Int(try read(UInt32.self, path: path))
            guard offset + count <= buffer.count else { throw invalid(path, "truncated string") }
            try charge(count, path)
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
            offset += count
            if bytes.contains(0) { throw invalid(path, "string contains a NUL byte") }
            guard let s = String(validating: bytes, as: UTF8.self) else {
                throw invalid(path, "string is not valid UTF-8")
            }
            return s
        }
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

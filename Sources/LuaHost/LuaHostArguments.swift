// A host call's arguments read where they crossed: checked in one pass
// that builds nothing (``LuaCodec/isDecodable(_:maxHostBytes:)``), then
// decoded only as far as the host function reads them. A prompt's table
// is read field by field, its names compared as bytes (no String per key,
// no LuaTable, no array of arguments); `arguments` still gives every
// value, decoded on first use.

/// The arguments of one host call: the crossing's bytes while the call
/// runs, and their decoding once something asks for all of them.
///
/// Contract: the bytes passed ``LuaCodec/isDecodable(_:maxHostBytes:)``,
/// so decoding them cannot fail. They belong to the C side and stay valid
/// only until the state runs Lua again: before that (a host function
/// calling back into Lua) and when the call returns,
/// ``LuaState/settleArguments()`` decodes them if anyone may still read
/// them, and drops the bytes.
final class HostCallArguments {
    private(set) var buffer: UnsafeRawBufferPointer?
    let owner: UInt64
    private var decoded: [LuaValue]?

    init(buffer: UnsafeRawBufferPointer, owner: UInt64) {
        self.buffer = buffer
        self.owner = owner
    }

    /// Every argument, decoded once.
    var values: [LuaValue] {
        if let decoded { return decoded }
        guard let buffer else { return [] }
        // Checked by isDecodable before the call: this does not fail.
        let values = (try? LuaCodec.decode(buffer, owner: owner)) ?? []
        decoded = values
        return values
    }

    /// Decodes the values (when `keep`) and forgets the bytes.
    func settle(keep: Bool) {
        if keep, decoded == nil { _ = values }
        buffer = nil
    }

    /// Holds another call's bytes: only for an object nobody else holds
    /// (its previous call ended and was not kept), so no reader of the old
    /// call can see the new values.
    func reuse(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
        decoded = nil
    }

    /// The offset of the argument at a 1-based position in the bytes, nil
    /// when there is none or the bytes are gone.
    func offset(of position: Int) -> (UnsafeRawBufferPointer, Int)? {
        guard let buffer, position >= 1 else { return nil }
        var at = 0
        var n = 1
        while at < buffer.count {
            if n == position { return (buffer, at) }
            at = EncodedValue.end(of: at, in: buffer)
            n += 1
        }
        return nil
    }
}

/// Reading values of a checked crossing in place (offsets are known good:
/// the bytes passed ``LuaCodec/isDecodable(_:maxHostBytes:)``).
enum EncodedValue {
    static let tagNil: UInt8 = 0, tagInteger: UInt8 = 3, tagDouble: UInt8 = 4, tagString: UInt8 = 5, tagTable: UInt8 = 6

    static func u32(_ buffer: UnsafeRawBufferPointer, _ at: Int) -> Int {
        Int(buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    /// The offset just past the value starting at `at`.
    static func end(of start: Int, in buffer: UnsafeRawBufferPointer) -> Int {
        var at = start
        var pending = 1 // values still to skip
        while pending > 0 {
            pending -= 1
            let tag = buffer[at]
            at += 1
            switch tag {
            case 3, 4, 7: at += 8
            case 5: at += 4 + u32(buffer, at)
            case 6:
                pending += u32(buffer, at) + 2 * u32(buffer, at + 4)
                at += 8
            default: break
            }
        }
        return at
    }
}

/// A table argument of a host call, read in place.
///
/// ``forEachField(_:)`` visits what ``LuaTable/forEachField(_:)`` of the
/// decoded table would visit, with the same result for lookups by name:
/// fields whose value is nil are left out, and where a key repeats (a
/// crossing from C never repeats one) the later value is the one a lookup
/// sees, so a reader keeping the last value it saw for a name reads what
/// `table[name]` reads.
public struct LuaTableView {
    let buffer: UnsafeRawBufferPointer
    /// Where the table's first entry starts (past its counts).
    let entries: Int
    let arrayCount: Int
    let fieldCount: Int
    let owner: UInt64

    /// One field: its key (a name's UTF-8 bytes, or an integer) and its
    /// value, decoded on demand. Valid only inside the visiting closure.
    public struct Field {
        /// The key's bytes when it is a string, else nil.
        public let name: UnsafeRawBufferPointer?
        /// The key when it is an integer.
        public let index: Int64?
        let buffer: UnsafeRawBufferPointer
        let at: Int
        let owner: UInt64

        /// Whether the key is the string `literal` (compared as bytes).
        public func named(_ literal: StaticString) -> Bool {
            guard let name, name.count == literal.utf8CodeUnitCount else { return false }
            return name.elementsEqual(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }

        /// The value, decoded (the crossing was checked: this cannot fail).
        public var value: LuaValue {
            var reader = InPlaceReader(buffer: buffer, at: at, owner: owner)
            return reader.value()
        }
    }

    /// Calls `body` with every field whose value is not nil, in crossing order.
    public func forEachField(_ body: (Field) throws -> Void) rethrows {
        var at = entries
        for i in 0..<arrayCount {
            let end = EncodedValue.end(of: at, in: buffer)
            if buffer[at] != EncodedValue.tagNil {
                try body(Field(name: nil, index: Int64(i + 1), buffer: buffer, at: at, owner: owner))
            }
            at = end
        }
        for _ in 0..<fieldCount {
            let key = at
            at = EncodedValue.end(of: at, in: buffer)
            let end = EncodedValue.end(of: at, in: buffer)
            if buffer[at] != EncodedValue.tagNil {
                if buffer[key] == EncodedValue.tagString {
                    let n = EncodedValue.u32(buffer, key + 1)
                    let name = UnsafeRawBufferPointer(rebasing: buffer[(key + 5)..<(key + 5 + n)])
                    try body(Field(name: name, index: nil, buffer: buffer, at: at, owner: owner))
                } else {
                    let i = buffer.loadUnaligned(fromByteOffset: key + 1, as: Int64.self)
                    try body(Field(name: nil, index: i, buffer: buffer, at: at, owner: owner))
                }
            }
            at = end
        }
    }

    /// The whole table, decoded.
    public var table: LuaTable {
        var reader = InPlaceReader(buffer: buffer, at: entries - 9, owner: owner)
        return reader.value().tableValue ?? LuaTable()
    }
}

/// Decodes values of a checked crossing (``LuaCodec/decode(_:owner:maxHostBytes:)``'s
/// results, without its checks, which the crossing already passed).
struct InPlaceReader {
    let buffer: UnsafeRawBufferPointer
    var at: Int
    let owner: UInt64

    mutating func value() -> LuaValue {
        let tag = buffer[at]
        at += 1
        switch tag {
        case 1: return .boolean(false)
        case 2: return .boolean(true)
        case 3:
            defer { at += 8 }
            return .integer(buffer.loadUnaligned(fromByteOffset: at, as: Int64.self))
        case 4:
            defer { at += 8 }
            return .number(Double(bitPattern: buffer.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
        case 5:
            let n = EncodedValue.u32(buffer, at)
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[(at + 4)..<(at + 4 + n)])
            at += 4 + n
            return .string(String(decoding: bytes, as: UTF8.self))
        case 6:
            // What the general decoder builds: nils left out, a later
            // duplicate key winning, the small form up to its limit.
            let narr = EncodedValue.u32(buffer, at), nrec = EncodedValue.u32(buffer, at + 4)
            at += 8
            if narr + nrec <= LuaTable.smallLimit {
                var fields: [LuaTable.Field] = []
                fields.reserveCapacity(narr + nrec)
                for i in 0..<narr {
                    let v = value()
                    if !v.isNil { fields.append(LuaTable.Field(key: .integer(Int64(i + 1)), value: v)) }
                }
                for _ in 0..<nrec {
                    let k = key()
                    let v = value()
                    guard let k, !v.isNil else { continue }
                    if let j = fields.firstIndex(where: { $0.key == k }) { fields[j].value = v } else { fields.append(LuaTable.Field(key: k, value: v)) }
                }
                return .table(LuaTable(uniqueSmall: fields))
            }
            var fields: [LuaKey: LuaValue] = [:]
            fields.reserveCapacity(min(narr + nrec, 1 << 16))
            for i in 0..<narr {
                let v = value()
                if !v.isNil { fields[.integer(Int64(i + 1))] = v }
            }
            for _ in 0..<nrec {
                let k = key()
                let v = value()
                if let k, !v.isNil { fields[k] = v }
            }
            return .table(LuaTable(withoutNils: fields))
        case 7:
            defer { at += 8 }
            return .function(LuaFunction(id: buffer.loadUnaligned(fromByteOffset: at, as: Int64.self), owner: owner))
        default: return .nil
        }
    }

    /// A key (a checked crossing has only integer and string keys).
    mutating func key() -> LuaKey? {
        switch value() {
        case .integer(let i): .integer(i)
        case .string(let s): .string(s)
        default: nil
        }
    }
}

extension LuaCodec {
    /// Whether ``decode(_:owner:maxHostBytes:)`` would decode `buffer`
    /// without an error, found in one pass that builds nothing: the same
    /// reads, the same charges against `maxHostBytes` in the same order,
    /// the same string checks (NUL, UTF-8) and key types. When it says no,
    /// decoding gives the error (with its path).
    static func isDecodable(_ buffer: UnsafeRawBufferPointer, maxHostBytes: Int) -> Bool {
        if buffer.count > maxHostBytes { return false }
        var checker = Checker(buffer: buffer, allowance: maxHostBytes)
        while checker.at < buffer.count {
            guard checker.value() != nil else { return false }
        }
        return true
    }

    private struct Checker {
        let buffer: UnsafeRawBufferPointer
        let allowance: Int
        var at = 0
        var charged = 0

        mutating func charge(_ n: Int) -> Bool {
            charged += n
            return charged <= allowance
        }

        mutating func read(_ n: Int) -> Int? {
            guard at + n <= buffer.count else { return nil }
            defer { at += n }
            return at
        }

        /// The value's tag, or nil when decoding it fails.
        mutating func value() -> UInt8? {
            guard charge(LuaCodec.hostBytesPerValue), let t = read(1) else { return nil }
            let tag = buffer[t]
            switch tag {
            case 0, 1, 2: return tag
            case 3, 4, 7: return read(8) == nil ? nil : tag
            case 5:
                guard let n = read(4) else { return nil }
                let count = EncodedValue.u32(buffer, n)
                guard at + count <= buffer.count, charge(count) else { return nil }
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[at..<(at + count)])
                at += count
                return UTF8Check.problem(in: bytes) == .none ? tag : nil
            case 6:
                guard let c = read(8) else { return nil }
                let narr = EncodedValue.u32(buffer, c), nrec = EncodedValue.u32(buffer, c + 4)
                for _ in 0..<narr { guard value() != nil else { return nil } }
                for _ in 0..<nrec {
                    guard let k = value(), k == 3 || k == 5, value() != nil else { return nil }
                }
                return tag
            default: return nil
            }
        }
    }
}

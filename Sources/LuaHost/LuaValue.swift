/// A Lua value as the host sees it: a copy, never a live reference into the
/// state, except for ``LuaFunction`` handles.
///
/// Crossing from Lua, tables are read with raw access (no metamethods run),
/// strings must be valid UTF-8 without NUL bytes, and coroutines or userdata
/// are refused: see ``LuaError/Kind-swift.enum/host(_:)``.
public enum LuaValue: Hashable, Sendable {
    case `nil`
    case boolean(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case table(LuaTable)
    case function(LuaFunction)

    /// Lua's type name, for messages ("string", "table", ...).
    public var typeName: String {
        switch self {
        case .nil: "nil"
        case .boolean: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .table: "table"
        case .function: "function"
        }
    }

    public var isNil: Bool { if case .nil = self { true } else { false } }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var tableValue: LuaTable? { if case .table(let t) = self { t } else { nil } }
    public var functionValue: LuaFunction? { if case .function(let f) = self { f } else { nil } }
    public var boolValue: Bool? { if case .boolean(let b) = self { b } else { nil } }

    /// An integer-valued number (`3` or `3.0`), or nil. NaN, infinities and
    /// floats beyond the Int64 range (`2^63`) are not integers.
    public var integerValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .number(let d):
            guard d.isFinite, d == d.rounded(), d >= -9.223372036854775808e18, d < 9.223372036854775808e18
            else { return nil }
            return Int64(d)
        default: return nil
        }
    }

    /// A finite number, or nil (NaN and ±inf are never accepted).
    public var finiteNumber: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d.isFinite ? d : nil
        default: return nil
        }
    }

    /// Lua's truthiness: only nil and false are false.
    public var isTruthy: Bool {
        switch self {
        case .nil, .boolean(false): false
        default: true
        }
    }
}

extension LuaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    public init(nilLiteral: ()) { self = .nil }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

/// A key of a ``LuaTable``: Lua normalises integral float keys to integers,
/// and the host accepts no other key types.
public enum LuaKey: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case integer(Int64)
    case string(String)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

/// A copied Lua table.
///
/// Storage: a table of at most ``LuaTable/smallLimit`` fields (every table a
/// flow passes to the API) keeps them as pairs in one array, searched by
/// comparing keys, which costs less than hashing them; a larger table keeps
/// a dictionary. The storage is not observable: every operation (lookups,
/// ``fields``, `==`, hashing) gives what a dictionary of the same fields
/// gives, and iteration order is unspecified in both.
public struct LuaTable: Hashable, Sendable {
    /// One field of a small table.
    struct Field: Sendable {
        var key: LuaKey
        var value: LuaValue
    }

    /// The most fields kept as pairs.
    static let smallLimit = 16

    /// The fields while the table is small (unique keys, no nil values);
    /// empty once `large` is set.
    private var small: [Field]
    /// The fields of a large table (no nil values), else nil.
    private var large: [LuaKey: LuaValue]?

    /// The fields, as a dictionary (built for a small table: a hot path
    /// reads single fields, or ``forEachField(_:)``, instead).
    public var fields: [LuaKey: LuaValue] {
        get {
            if let large { return large }
            var d: [LuaKey: LuaValue] = [:]
            d.reserveCapacity(small.count)
            for f in small { d[f.key] = f.value }
            return d
        }
        set { self = LuaTable(newValue) }
    }

    public init(_ fields: [LuaKey: LuaValue] = [:]) {
        self.init(withoutNils: fields.filter { !$0.value.isNil })
    }

    /// Fields known to hold no nil (the decoder leaves nils out itself).
    init(withoutNils fields: [LuaKey: LuaValue]) {
        if fields.count > Self.smallLimit {
            small = []
            large = fields
        } else {
            small = []
            small.reserveCapacity(fields.count)
            for (k, v) in fields { small.append(Field(key: k, value: v)) }
            large = nil
        }
    }

    /// Fields with unique keys and no nil values, at most ``smallLimit`` of
    /// them (the decoder's small tables).
    init(uniqueSmall fields: [Field]) {
        small = fields
        large = nil
    }

    /// A sequence (keys 1...n) plus named fields.
    public init(sequence: [LuaValue] = [], named: [String: LuaValue] = [:]) {
        small = []
        large = nil
        if sequence.count + named.count <= Self.smallLimit {
            small.reserveCapacity(sequence.count + named.count)
            for (i, v) in sequence.enumerated() where !v.isNil { small.append(Field(key: .integer(Int64(i + 1)), value: v)) }
            for (k, v) in named where !v.isNil { small.append(Field(key: .string(k), value: v)) }
        } else {
            var f: [LuaKey: LuaValue] = [:]
            for (i, v) in sequence.enumerated() where !v.isNil { f[.integer(Int64(i + 1))] = v }
            for (k, v) in named where !v.isNil { f[.string(k)] = v }
            large = f
        }
    }

    /// How many fields the table has.
    public var count: Int { large?.count ?? small.count }

    /// Calls `body` with every field, in no particular order.
    public func forEachField(_ body: (LuaKey, LuaValue) throws -> Void) rethrows {
        if let large {
            for (k, v) in large { try body(k, v) }
        } else {
            for f in small { try body(f.key, f.value) }
        }
    }

    /// The value at `key`, `.nil` when absent.
    public func value(at key: LuaKey) -> LuaValue {
        if let large { return large[key] ?? .nil }
        for f in small where f.key == key { return f.value }
        return .nil
    }

    /// Sets (or, with `.nil`, removes) the value at `key`.
    public mutating func set(_ value: LuaValue, at key: LuaKey) {
        if var d = large {
            large = nil // `d` alone holds the storage: no copy
            if value.isNil { d.removeValue(forKey: key) } else { d[key] = value }
            large = d
            return
        }
        if let i = small.firstIndex(where: { $0.key == key }) {
            if value.isNil { small.remove(at: i) } else { small[i].value = value }
        } else if !value.isNil {
            if small.count < Self.smallLimit {
                small.append(Field(key: key, value: value))
            } else {
                var d: [LuaKey: LuaValue] = [:]
                d.reserveCapacity(small.count + 1)
                for f in small { d[f.key] = f.value }
                d[key] = value
                small = []
                large = d
            }
        }
    }

    public subscript(key: String) -> LuaValue {
        get { value(at: .string(key)) }
        set { set(newValue, at: .string(key)) }
    }

    public subscript(index: Int) -> LuaValue {
        get { value(at: .integer(Int64(index))) }
        set { set(newValue, at: .integer(Int64(index))) }
    }

    /// The values at keys 1, 2, ... up to the first missing one (what
    /// `ipairs` visits).
    public var sequence: [LuaValue] {
        var out: [LuaValue] = []
        var i: Int64 = 1
        // A list: room for every field (no regrowing while it is read).
        if large == nil, let first = small.first, case .integer(1) = first.key { out.reserveCapacity(small.count) }
        if let large {
            while let v = large[.integer(i)] {
                out.append(v)
                i += 1
            }
            return out
        }
        // Keys 1...n usually come first and in order (a decoded list, a
        // built sequence): look there before searching the rest.
        while true {
            let at = Int(i - 1)
            if at < small.count, case .integer(i) = small[at].key {
                out.append(small[at].value)
            } else {
                let v = value(at: .integer(i))
                if v.isNil { return out }
                out.append(v)
            }
            i += 1
        }
    }

    public static func == (a: LuaTable, b: LuaTable) -> Bool {
        if let la = a.large, let lb = b.large { return la == lb }
        guard a.count == b.count else { return false }
        var equal = true
        a.forEachField { k, v in if equal, b.value(at: k) != v { equal = false } }
        return equal
    }

    /// As a dictionary hashes: independent of the order of the fields.
    public func hash(into hasher: inout Hasher) {
        var commutative = 0
        forEachField { k, v in
            var element = hasher
            element.combine(k)
            element.combine(v)
            commutative ^= element.finalize()
        }
        hasher.combine(commutative)
    }
}

/// A handle to a Lua function living in one ``LuaState``.
///
/// Valid until the state closes or the handle is released; using it after
/// that, or with another state, throws a ``LuaError`` of kind `.host`. A
/// function received as an argument of a host function is valid only during
/// that call unless the host retains it (``LuaState/retain(_:)``).
public struct LuaFunction: Hashable, Sendable {
    let id: Int64
    let owner: UInt64
}

/// A handle to a coroutine living in one ``LuaState``.
public struct LuaCoroutine: Hashable, Sendable {
    let id: Int64
    let owner: UInt64
}

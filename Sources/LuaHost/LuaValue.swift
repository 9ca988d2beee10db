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
public struct LuaTable: Hashable, Sendable {
    public var fields: [LuaKey: LuaValue]

    public init(_ fields: [LuaKey: LuaValue] = [:]) {
        self.fields = fields.filter { !$0.value.isNil }
    }

    /// Fields known to hold no nil (the decoder leaves nils out itself).
    init(withoutNils fields: [LuaKey: LuaValue]) {
        self.fields = fields
    }

    /// A sequence (keys 1...n) plus named fields.
    public init(sequence: [LuaValue] = [], named: [String: LuaValue] = [:]) {
        var f: [LuaKey: LuaValue] = [:]
        for (i, v) in sequence.enumerated() where !v.isNil { f[.integer(Int64(i + 1))] = v }
        for (k, v) in named where !v.isNil { f[.string(k)] = v }
        fields = f
    }

    public subscript(key: String) -> LuaValue {
        get { fields[.string(key)] ?? .nil }
        set { fields[.string(key)] = newValue.isNil ? nil : newValue }
    }

    public subscript(index: Int) -> LuaValue {
        get { fields[.integer(Int64(index))] ?? .nil }
        set { fields[.integer(Int64(index))] = newValue.isNil ? nil : newValue }
    }

    /// The values at keys 1, 2, ... up to the first missing one (what
    /// `ipairs` visits).
    public var sequence: [LuaValue] {
        var out: [LuaValue] = []
        var i: Int64 = 1
        while let v = fields[.integer(i)] {
            out.append(v)
            i += 1
        }
        return out
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

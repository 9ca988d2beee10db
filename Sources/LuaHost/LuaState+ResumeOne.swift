import CLuaSandbox

// The resume crossing for what most resumes carry: nothing or one value
// each way (a flow asking a question yields one string or one token and is
// resumed with one answer). No array is made on either side, a scalar
// crosses without the codec, and a string coming back is checked once
// (NUL and UTF-8 together, by the standard library's own validation).

/// The values a coroutine yielded or returned, in the common shapes without
/// an array.
public enum LuaValues: Equatable, Sendable {
    /// No value at all (`coroutine.yield()`, a bare `return`).
    case none
    /// Exactly one value (which may be `nil`: `coroutine.yield(nil)`).
    case one(LuaValue)
    /// Two values or more.
    case many([LuaValue])

    /// The same values as ``LuaState/resume(_:with:)`` gives them.
    public var array: [LuaValue] {
        switch self {
        case .none: []
        case .one(let v): [v]
        case .many(let vs): vs
        }
    }

    /// The first value, `.nil` when there is none (as Lua adjusts).
    public var first: LuaValue {
        switch self {
        case .none: .nil
        case .one(let v): v
        case .many(let vs): vs.first ?? .nil
        }
    }

    public var count: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let vs): vs.count
        }
    }

    /// The values of an array, in the shape that fits.
    public init(_ values: [LuaValue]) {
        switch values.count {
        case 0: self = .none
        case 1: self = .one(values[0])
        default: self = .many(values)
        }
    }
}

/// What a resumed coroutine did, as ``LuaState/resume(_:passing:)`` tells it.
public enum LuaResumption: Equatable, Sendable {
    /// It yielded these values and can be resumed again.
    case yielded(LuaValues)
    /// It returned these values and is finished.
    case returned(LuaValues)

    /// The same outcome as ``LuaState/resume(_:with:)`` reports it.
    public var general: LuaResumeResult {
        switch self {
        case .yielded(let v): .yielded(v.array)
        case .returned(let v): .returned(v.array)
        }
    }
}

/// What a resumed coroutine did, as ``LuaState/resumeInPlace(_:passing:)``
/// tells it.
public enum LuaResumptionInPlace: Equatable, Sendable {
    /// It yielded these values and can be resumed again.
    case yielded(LuaValues)
    /// It returned, and is finished; what it returned stays in the state.
    case returned(LuaReturned)
}

/// What a finished coroutine returned, left in its ``LuaState``: read with
/// ``LuaState/returnedValue(_:at:)`` and ``LuaState/returnedValue(_:at:field:)``
/// until the coroutine is released (which frees it) or the state closes.
public struct LuaReturned: Hashable, Sendable {
    let coroutine: LuaCoroutine
    /// How many values it returned.
    public let count: Int
}

extension LuaState {
    /// Resumes a coroutine with at most one value: `nil` passes nothing (the
    /// first resume of a function taking no arguments, or a `yield` whose
    /// result is not used), `.nil` passes one nil.
    ///
    /// The contract is ``resume(_:with:)``'s — same budget, limits, errors,
    /// checks of what crosses (a string coming back must be UTF-8 without
    /// NUL bytes and within ``SandboxLimits/hostBytesPerCrossing``), and the
    /// same state of the coroutine afterwards — with the values as
    /// ``LuaValues``: `resume(co, passing: v)` gives what
    /// `resume(co, with: v.map { [$0] } ?? [])` gives.
    public func resume(_ coroutine: LuaCoroutine, passing argument: LuaValue?) throws(LuaError) -> LuaResumption {
        var out = rlua_one()
        let status = try resumeOne(coroutine, passing: argument, &out, keep: false)
        let values = try values(of: out)
        return status == RLUA_YIELDED ? .yielded(values) : .returned(values)
    }

    /// Resumes as ``resume(_:passing:)`` does, except that when the coroutine
    /// returns, what it returned does not cross: it stays in the state, and
    /// ``returnedValue(_:at:)`` / ``returnedValue(_:at:field:)`` read the
    /// values or fields the host needs, each when asked. Use it when the host
    /// needs some of what a coroutine returns, or none of it.
    public func resumeInPlace(_ coroutine: LuaCoroutine, passing argument: LuaValue?) throws(LuaError) -> LuaResumptionInPlace {
        var out = rlua_one()
        let status = try resumeOne(coroutine, passing: argument, &out, keep: true)
        if out.type == RLUA_ONE_KEPT {
            return .returned(LuaReturned(coroutine: coroutine, count: Int(out.integer)))
        }
        let values = try values(of: out)
        return status == RLUA_YIELDED ? .yielded(values) : .returned(LuaReturned(coroutine: coroutine, count: values.count))
    }

    /// Value #`index` (from 1) of what `returned`'s coroutine returned,
    /// `.nil` past ``LuaReturned/count``: copied into Swift now, with the
    /// checks and limits of the whole copy (``resume(_:passing:)``) applied
    /// to this value.
    ///
    /// Legal until the coroutine's handle is released (``release(_:)``)
    /// or the state closes; after that it throws `.host(.releasedHandle)`.
    public func returnedValue(_ returned: LuaReturned, at index: Int = 1) throws(LuaError) -> LuaValue {
        try readReturned(returned, at: index, field: nil)
    }

    /// The field `key` of value #`index` of what `returned`'s coroutine
    /// returned, read raw (no metamethod runs), as ``returnedValue(_:at:)``
    /// reads a whole value: only this field crosses, with the checks and
    /// limits of the whole copy applied to it. Throws `.host(.misuse)` when
    /// that value is not a table.
    public func returnedValue(_ returned: LuaReturned, at index: Int = 1, field key: LuaKey) throws(LuaError) -> LuaValue {
        try readReturned(returned, at: index, field: key)
    }

    private func readReturned(_ returned: LuaReturned, at index: Int, field key: LuaKey?) throws(LuaError) -> LuaValue {
        let L = try activeThread()
        guard returned.coroutine.owner == id else {
            throw LuaError(kind: .host(.foreignHandle), message: "coroutine handle belongs to another Lua state")
        }
        let at = Int32(clamping: index)
        var out = rlua_one()
        var k = rlua_one()
        let status: Int32
        switch key {
        case nil:
            status = rlua_kept_read(L, returned.coroutine.id, at, nil, &out)
        case .integer(let i)?:
            k.type = RLUA_ONE_INTEGER
            k.integer = i
            status = rlua_kept_read(L, returned.coroutine.id, at, &k, &out)
        case .string(var s)?:
            k.type = RLUA_ONE_STRING
            status = s.withUTF8 { bytes in
                k.bytes = bytes.baseAddress
                k.len = bytes.count
                return rlua_kept_read(L, returned.coroutine.id, at, &k, &out)
            }
        }
        try check(status: status)
        return try values(of: out, root: index, field: key).first
    }

    /// Runs `rlua_resume_one` (or its keeping form) with `argument`; `out`
    /// receives the result. Throws what the resume raised.
    private func resumeOne(_ coroutine: LuaCoroutine, passing argument: LuaValue?, _ out: inout rlua_one, keep: Bool) throws(LuaError) -> Int32 {
        let L = try activeThread()
        guard coroutine.owner == id else {
            throw LuaError(kind: .host(.foreignHandle), message: "coroutine handle belongs to another Lua state")
        }
        let handle = coroutine.id
        func resumeC(_ arg: UnsafePointer<rlua_one>, _ out: UnsafeMutablePointer<rlua_one>) -> Int32 {
            keep ? rlua_resume_one_kept(L, handle, arg, out) : rlua_resume_one(L, handle, arg, out)
        }
        var arg = rlua_one()
        let status: Int32
        switch argument {
        case nil:
            arg.type = RLUA_ONE_NONE
            status = resumeC(&arg, &out)
        case .nil?:
            arg.type = RLUA_ONE_NIL
            status = resumeC(&arg, &out)
        case .boolean(let b)?:
            arg.type = RLUA_ONE_BOOLEAN
            arg.integer = b ? 1 : 0
            status = resumeC(&arg, &out)
        case .integer(let i)?:
            arg.type = RLUA_ONE_INTEGER
            arg.integer = i
            status = resumeC(&arg, &out)
        case .number(let d)?:
            arg.type = RLUA_ONE_NUMBER
            arg.number = d
            status = resumeC(&arg, &out)
        case .string(var s)?:
            arg.type = RLUA_ONE_STRING
            status = s.withUTF8 { bytes in
                arg.bytes = bytes.baseAddress
                arg.len = bytes.count
                return resumeC(&arg, &out)
            }
        case let value?: // a table or a function: the codec
            status = try withEncoded([value]) { bytes, count in
                arg.type = RLUA_ONE_ENCODED
                arg.bytes = bytes
                arg.len = count
                return resumeC(&arg, &out)
            }
        }
        if status == RLUA_E_MISUSE, rlua_coroutine_status(L, coroutine.id) < 0 {
            throw LuaError(kind: .host(.releasedHandle), message: "coroutine handle is unknown or was released")
        }
        try check(status: status)
        return status
    }

    /// The values `out` describes (a scalar, a string still to check, or
    /// the crossing buffer's encoding).
    @inline(__always)
    private func values(of out: rlua_one, root: Int = 1, field: LuaKey? = nil) throws(LuaError) -> LuaValues {
        switch out.type {
        case RLUA_ONE_NONE: return .none
        case RLUA_ONE_NIL: return .one(.nil)
        case RLUA_ONE_BOOLEAN: return .one(.boolean(out.integer != 0))
        case RLUA_ONE_INTEGER: return .one(.integer(out.integer))
        case RLUA_ONE_NUMBER: return .one(.number(out.number))
        case RLUA_ONE_STRING:
            if let s = checkedString(out.bytes, count: out.len) { return .one(.string(s)) }
            return LuaValues(try output(root: root, field: field)) // the general decoding says what is wrong
        default: return LuaValues(try output(root: root, field: field))
        }
    }

    /// The string at `bytes` (`count` bytes, a NUL after them), or nil when
    /// it holds a NUL, is not UTF-8 or is past the host allowance: one pass
    /// of the standard library's validation, stopping at the first NUL.
    private func checkedString(_ bytes: UnsafePointer<UInt8>?, count: Int) -> String? {
        guard let bytes, count <= limits.hostBytesPerCrossing - LuaCodec.hostBytesPerValue else { return nil }
        let s = bytes.withMemoryRebound(to: CChar.self, capacity: count + 1) { String(validatingCString: $0) }
        guard let s, s.utf8.count == count else { return nil } // shorter: it stopped at a NUL
        return s
    }
}

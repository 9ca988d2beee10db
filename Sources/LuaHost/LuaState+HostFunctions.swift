import CLuaSandbox

/// What a host function gives back to Lua.
public enum LuaHostResult: Sendable {
    /// Return these values to the caller.
    case values([LuaValue])
    /// Yield these values from the running coroutine; the values of the next
    /// `resume` become the function's results. Only legal inside a coroutine.
    case yield([LuaValue])

    public static let none = LuaHostResult.values([])
}

/// An error a host function throws to raise a Lua error at its caller's
/// position (`flows/x.lua:7: <message>`).
public struct LuaHostError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A Swift function callable from Lua.
///
/// It runs synchronously inside the Lua call. It may call back into Lua
/// through ``LuaHostCall/call(_:_:)`` (sharing the call's budget), return
/// values, yield, or throw: a ``LuaHostError`` becomes a Lua error with the
/// caller's file and line, any other error its description.
public typealias LuaHostFunction = (LuaHostCall) throws -> LuaHostResult

/// One invocation of a host function: its name and arguments.
///
/// The arguments are read where they crossed: ``argument(_:)`` and
/// ``withTable(_:_:)`` decode only what they return; ``arguments`` decodes
/// them all, once. Every argument was checked before the function was
/// called (UTF-8 without NUL bytes, the host allowance), whatever it reads.
public struct LuaHostCall {
    public let name: String
    let storage: HostCallArguments
    public let state: LuaState
    /// The Lua thread that called the function.
    let thread: OpaquePointer

    init(name: String, storage: HostCallArguments, state: LuaState, thread: OpaquePointer) {
        self.name = name
        self.storage = storage
        self.state = state
        self.thread = thread
    }

    /// Every argument, in order.
    public var arguments: [LuaValue] { storage.values }

    /// The argument at a 1-based position (Lua's numbering), nil if absent.
    public func argument(_ position: Int) -> LuaValue {
        if let (buffer, at) = storage.offset(of: position) {
            var reader = InPlaceReader(buffer: buffer, at: at, owner: storage.owner)
            return reader.value()
        }
        if storage.buffer != nil { return .nil }
        let arguments = storage.values
        return position >= 1 && position <= arguments.count ? arguments[position - 1] : .nil
    }

    /// Calls `body` with the table at a 1-based position, read in place
    /// (``LuaTableView``); a "bad argument" error when it is not a table.
    public func withTable<R>(_ position: Int, _ body: (LuaTableView) throws(LuaHostError) -> R) throws(LuaHostError) -> R {
        if let (buffer, at) = storage.offset(of: position) {
            guard buffer[at] == EncodedValue.tagTable else { throw badArgument(position, "table expected") }
            return try body(LuaTableView(buffer: buffer, entries: at + 9, arrayCount: EncodedValue.u32(buffer, at + 1),
                                         fieldCount: EncodedValue.u32(buffer, at + 5), owner: storage.owner))
        }
        // The crossing's bytes are gone (the function called back into
        // Lua): the decoded table, encoded again.
        let value = argument(position)
        guard case .table = value, let bytes = try? LuaCodec.encode([value], owner: storage.owner) else {
            throw badArgument(position, "table expected")
        }
        let result: Result<R, LuaHostError> = bytes.withUnsafeBytes { buffer in
            do throws(LuaHostError) {
                return .success(try body(LuaTableView(buffer: buffer, entries: 9, arrayCount: EncodedValue.u32(buffer, 1),
                                                      fieldCount: EncodedValue.u32(buffer, 5), owner: storage.owner)))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// A "bad argument" error in Lua's own wording.
    public func badArgument(_ position: Int, _ expected: String) -> LuaHostError {
        LuaHostError("bad argument #\(position) to '\(name)' (\(expected), got \(describe(argument(position))))")
    }

    public func string(_ position: Int) throws(LuaHostError) -> String {
        guard let s = argument(position).stringValue else { throw badArgument(position, "string expected") }
        return s
    }

    public func table(_ position: Int) throws(LuaHostError) -> LuaTable {
        guard let t = argument(position).tableValue else { throw badArgument(position, "table expected") }
        return t
    }

    /// An integer within `range`. NaN, ±inf, fractions and `2^63` are refused.
    public func integer(_ position: Int, in range: ClosedRange<Int64>) throws(LuaHostError) -> Int64 {
        guard let i = argument(position).integerValue, range.contains(i) else {
            throw badArgument(position, "integer in \(range.lowerBound)...\(range.upperBound) expected")
        }
        return i
    }

    /// Whether the function was called on `coroutine` itself (not on the
    /// main thread, nor on another coroutine, even one `coroutine` resumed).
    /// False for a handle of another state, or one released.
    public func isCalled(on coroutine: LuaCoroutine) -> Bool {
        coroutine.owner == state.id && rlua_is_coroutine(thread, coroutine.id) == 1
    }

    /// Calls back into Lua on the calling coroutine, under the running budget.
    public func call(_ function: LuaFunction, _ arguments: [LuaValue] = []) throws(LuaError) -> [LuaValue] {
        try state.call(function, arguments) // settles this call's arguments first (activeThread)
    }

    private func describe(_ v: LuaValue) -> String {
        switch v {
        case .number(let d) where !d.isFinite || d != d.rounded(): return "\(d)"
        case .number(let d): return "\(d)"
        case .integer(let i): return "\(i)"
        default: return v.isNil && argument(0).isNil ? "no value" : v.typeName
        }
    }
}

struct HostFunctionEntry {
    let name: String
    let body: LuaHostFunction
}

/// Host-owned bytes handed to the C trampoline; valid until the next dispatch.
final class HostOutputBuffer {
    private(set) var pointer: UnsafeMutableRawPointer?
    private var capacity = 0
    private(set) var count = 0

    func set(_ bytes: [UInt8]) {
        if bytes.count > capacity {
            pointer?.deallocate()
            capacity = max(bytes.count, 256)
            pointer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        }
        count = bytes.count
        bytes.withUnsafeBytes { src in
            if let base = src.baseAddress, let pointer { pointer.copyMemory(from: base, byteCount: src.count) }
        }
    }

    func set(_ text: String) { set(Array(text.utf8)) }

    /// Storage for the next output's encoding (its capacity kept between
    /// dispatches), given back with ``keepScratch(_:)``.
    private var scratch: [UInt8] = []
    func takeScratch() -> [UInt8] {
        var out: [UInt8] = []
        swap(&out, &scratch)
        return out
    }
    func keepScratch(_ bytes: [UInt8]) { scratch = bytes.capacity <= 1 << 20 ? bytes : [] }

    deinit { pointer?.deallocate() }
}

extension LuaState {
    /// Decodes the arguments of the host calls under way and forgets their
    /// bytes: called before the state runs Lua again (which reuses the
    /// crossing buffer they point into).
    func settleArguments() {
        for arguments in openArguments { arguments.settle(keep: true) }
    }

    /// Runs a host function; every reference to the call it made is gone
    /// when this returns (``HostCallArguments/finish(_:)`` relies on it).
    @inline(never)
    private func run(_ entry: HostFunctionEntry, _ thread: OpaquePointer) throws -> LuaHostResult {
        guard let storage = openArguments.last else { throw LuaHostError("host function '\(entry.name)' has no arguments") }
        return try entry.body(LuaHostCall(name: entry.name, storage: storage, state: self, thread: thread))
    }

    /// Ends the innermost host call's arguments: their bytes are C's, so
    /// they are decoded first if the call was kept somewhere.
    @inline(never)
    private func finishArguments() {
        var last = openArguments.removeLast()
        let kept = !isKnownUniquelyReferenced(&last)
        last.settle(keep: kept)
        // Nobody else holds it: the next call reuses it (no object per call).
        if !kept { spareArguments = last }
    }

    /// An argument holder for a call's bytes: the spare one when there is
    /// one (nobody else holds it, see ``finishArguments()``), else a new one.
    private func takeArguments(_ buffer: UnsafeRawBufferPointer) -> HostCallArguments {
        guard let spare = spareArguments else { return HostCallArguments(buffer: buffer, owner: id) }
        spareArguments = nil
        spare.reuse(buffer)
        return spare
    }

    /// Makes a Swift function callable from Lua. The returned handle can be
    /// passed to Lua as a value, or defined as a global or module member.
    public func makeFunction(_ name: String, _ body: @escaping LuaHostFunction) throws(LuaError) -> LuaFunction {
        let L = try live()
        let fid = Int64(hostFunctions.count + 1)
        hostFunctions.append(HostFunctionEntry(name: name, body: body))
        var handle: Int64 = 0
        try check(status: rlua_host_function(L, fid, name, &handle))
        return LuaFunction(id: handle, owner: id)
    }

    /// Defines a value for scripts.
    /// - Parameters:
    ///   - as: `.global` makes it visible in every chunk loaded *afterwards*;
    ///     `.module` makes `require(name)` return it; `.readOnly` turns tables
    ///     (recursively) into proxies that refuse writes and `rawset`.
    public func define(_ name: String, _ value: LuaValue, _ options: DefineOptions) throws(LuaError) {
        let L = try live()
        let bytes = try LuaCodec.encode([value], owner: id)
        let status = bytes.withUnsafeBufferPointer { buf in
            rlua_define(L, name, buf.baseAddress, buf.count, options.rawValue)
        }
        try check(status: status)
    }

    func dispatch(thread: OpaquePointer, function fid: Int64, arguments: UnsafeRawBufferPointer,
                  output: UnsafeMutablePointer<UnsafePointer<UInt8>?>, outputCount: UnsafeMutablePointer<Int>) -> Int32 {
        let result: Int32
        // Encoded into storage kept between calls (no array per call).
        var bytes = hostOutput.takeScratch()
        defer { hostOutput.keepScratch(bytes) }
        if fid >= 1, fid <= hostFunctions.count {
            let entry = hostFunctions[Int(fid - 1)]
            do {
                // Checked whole before the function runs, whatever it reads;
                // the general decoding names what is wrong.
                guard LuaCodec.isDecodable(arguments, maxHostBytes: limits.hostBytesPerCrossing) else {
                    do {
                        _ = try LuaCodec.decode(arguments, owner: id, maxHostBytes: limits.hostBytesPerCrossing)
                    } catch {
                        throw LuaHostError("bad argument to '\(entry.name)' (\(error.message))")
                    }
                    throw LuaHostError("bad argument to '\(entry.name)'")
                }
                openArguments.append(takeArguments(arguments))
                activeThreads.append(thread)
                let outcome: LuaHostResult
                do {
                    defer {
                        activeThreads.removeLast()
                        finishArguments()
                    }
                    outcome = try run(entry, thread)
                }
                switch outcome {
                case .values(let values):
                    try LuaCodec.encode(values, owner: id, replacing: &bytes)
                    result = RLUA_HOST_RETURN
                case .yield(let values):
                    try LuaCodec.encode(values, owner: id, replacing: &bytes)
                    result = RLUA_HOST_YIELD
                }
            } catch let e as LuaHostError {
                bytes = Array(e.message.utf8)
                result = RLUA_HOST_ERROR
            } catch let e as LuaError {
                bytes = Array(e.description.utf8)
                result = RLUA_HOST_ERROR
            } catch {
                bytes = Array(String(describing: error).utf8)
                result = RLUA_HOST_ERROR
            }
        } else {
            bytes = Array("host function \(fid) is not registered".utf8)
            result = RLUA_HOST_ERROR
        }
        hostOutput.set(bytes)
        output.pointee = hostOutput.pointer.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
        outputCount.pointee = hostOutput.count
        return result
    }
}

/// Where ``LuaState/define(_:_:_:)`` puts a value.
public struct DefineOptions: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let global = DefineOptions(rawValue: RLUA_DEFINE_GLOBAL)
    public static let module = DefineOptions(rawValue: RLUA_DEFINE_MODULE)
    public static let readOnly = DefineOptions(rawValue: RLUA_DEFINE_READONLY)
}

// C entry points: they receive the state through its context pointer and
// never throw (a Swift error becomes a status the C trampoline raises).
func luaHostDispatch(_ ctx: UnsafeMutableRawPointer?, _ L: OpaquePointer?, _ fid: Int64,
                     _ args: UnsafePointer<UInt8>?, _ argsCount: Int,
                     _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ outCount: UnsafeMutablePointer<Int>?) -> Int32 {
    guard let ctx, let L, let out, let outCount else { return RLUA_HOST_ERROR }
    let state = Unmanaged<LuaState>.fromOpaque(ctx).takeUnretainedValue()
    return state.dispatch(thread: L, function: fid, arguments: UnsafeRawBufferPointer(start: args, count: argsCount),
                          output: out, outputCount: outCount)
}

func luaHostPrint(_ ctx: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?, _ count: Int) {
    guard let ctx, let text else { return }
    let state = Unmanaged<LuaState>.fromOpaque(ctx).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: text, count: count)
    state.printHandler?(String(decoding: bytes, as: UTF8.self))
}

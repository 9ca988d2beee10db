import CLuaSandbox

/// One sandboxed Lua 5.4 state: the unit of isolation for one flow session.
///
/// A state is created with its limits (``SandboxLimits``) and a random seed,
/// and is used from one thread at a time. Every call into it (``load(_:as:)``,
/// ``call(_:_:)``, ``resume(_:with:)``) runs under a fresh budget and returns
/// or throws a ``LuaError``; nothing a script does can crash or hang the
/// host. After ``close()`` (or deinit), every method throws
/// `.host(.closedState)`; other states are never affected.
///
/// What scripts see: base functions (without dofile, loadfile, and with
/// text-only `load`, `__gc`-free `setmetatable`, host-only `require`),
/// copies of string, table, math (seeded; no `randomseed`), utf8 and
/// coroutine, and whatever the host defines with ``define(_:_:_:)``.
/// No io, os, debug or package. Unknown globals are errors.
public final class LuaState {
    /// Process-unique id; handles remember it.
    public let id: UInt64
    public let limits: SandboxLimits
    let control: ControlBlock
    // A state is used from one thread at a time (above): the fields
    // every call reads skip the runtime's exclusivity bookkeeping.
    @exclusivity(unchecked) var raw: OpaquePointer?
    /// The host functions made so far: function id `n` is entry `n - 1`
    /// (ids are handed out in order and never reused while the state lives).
    @exclusivity(unchecked) var hostFunctions: [HostFunctionEntry] = []
    /// A host call's argument holder kept for the next call (see
    /// ``LuaState/dispatch(thread:function:arguments:output:outputCount:)``).
    @exclusivity(unchecked) var spareArguments: HostCallArguments?
    let hostOutput = HostOutputBuffer()
    @exclusivity(unchecked) var activeThreads: [OpaquePointer] = []
    /// The arguments of the host calls under way (innermost last), whose
    /// bytes are the C side's until Lua runs again.
    @exclusivity(unchecked) var openArguments: [HostCallArguments] = []
    /// Storage reused for the arguments of calls and resumes (see
    /// ``withEncoded(_:_:)``).
    var argumentScratch: [UInt8] = []
    let printHandler: (@Sendable (String) -> Void)?

    /// Creates a sandboxed state.
    /// - Parameters:
    ///   - limits: memory cap and per-call budget.
    ///   - seed: seeds `math.random`; the same seed gives the same sequence.
    ///   - print: receives what scripts `print` (default: dropped).
    public init(limits: SandboxLimits = .default, seed: UInt64 = 0,
                print: (@Sendable (String) -> Void)? = nil) throws(LuaError) {
        self.id = rlua_next_state_id()
        self.limits = limits
        self.printHandler = print
        var rawLimits = limits.raw
        guard let block = rlua_control_new(&rawLimits) else {
            throw LuaError(kind: .memoryLimit, message: "cannot allocate a Lua state")
        }
        self.control = ControlBlock(block)
        let ctx = Unmanaged.passUnretained(self).toOpaque()
        guard let L = rlua_open(block, seed, ctx, luaHostDispatch, luaHostPrint) else {
            throw LuaState.lastError(block, status: RLUA_E_MEMORY)
        }
        raw = L
    }

    deinit { close() }

    /// Closes the state and frees its memory. Idempotent.
    public func close() {
        guard let L = raw else { return }
        raw = nil
        rlua_close(L)
        hostFunctions.removeAll()
    }

    public var isClosed: Bool { raw == nil }

    /// Bytes the state holds now (its allocator's count).
    public var memoryInUse: Int { rlua_memory_in_use(control.pointer) }
    /// Most bytes the state has held at once.
    public var memoryPeak: Int { rlua_memory_peak(control.pointer) }
    /// Lua's own count (`collectgarbage("count")`, in bytes).
    public var gcCount: Int { raw.map { rlua_gc_count($0) } ?? 0 }
    /// Runs a full garbage collection.
    public func collectGarbage() { if let raw { rlua_gc_collect(raw) } }
    /// Instructions counted by the last top-level call (to the hook interval).
    public var instructionsUsedByLastCall: UInt64 { rlua_instructions_used(control.pointer) }

    /// A handle another thread may use to stop this state's running or next
    /// call. Cancellation is sticky: the state refuses further calls.
    public var cancellation: LuaCancellation { LuaCancellation(control: control) }

    func live() throws(LuaError) -> OpaquePointer {
        guard let raw else {
            throw LuaError(kind: .host(.closedState), message: "the Lua state is closed")
        }
        return raw
    }

    func check(_ f: LuaFunction) throws(LuaError) {
        guard f.owner == id else {
            throw LuaError(kind: .host(.foreignHandle), message: "function handle belongs to another Lua state")
        }
    }

    /// Translates a C status into a thrown error (no-op for OK / yielded).
    func check(status: Int32) throws(LuaError) {
        guard status != RLUA_OK, status != RLUA_YIELDED else { return }
        throw LuaState.lastError(control.pointer, status: status)
    }

    /// Encodes `values` and passes the bytes to `body`, in storage kept
    /// between calls. The storage is taken out of the state for the call:
    /// a host function that calls back into Lua meanwhile (after C has read
    /// these bytes) encodes into storage of its own.
    func withEncoded<R>(_ values: [LuaValue], _ body: (UnsafePointer<UInt8>?, Int) -> R) throws(LuaError) -> R {
        var bytes: [UInt8] = []
        swap(&bytes, &argumentScratch)
        defer { swap(&bytes, &argumentScratch) }
        try LuaCodec.encode(values, owner: id, replacing: &bytes)
        return bytes.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }

    /// The crossing buffer's values; `root` and `field` as in ``LuaCodec/decode(_:owner:maxHostBytes:root:field:)``.
    func output(root: Int = 1, field: LuaKey? = nil) throws(LuaError) -> [LuaValue] {
        var len = 0
        guard let p = rlua_output(control.pointer, &len), len > 0 else { return [] }
        return try LuaCodec.decode(UnsafeRawBufferPointer(start: p, count: len), owner: id, maxHostBytes: limits.hostBytesPerCrossing,
                                   root: root, field: field)
    }

    static func lastError(_ block: OpaquePointer, status: Int32) -> LuaError {
        let e = rlua_last_error(block)!.pointee
        var message = cString(e.message)
        let kind: LuaError.Kind
        switch status {
        case RLUA_E_SYNTAX: kind = .syntax
        case RLUA_E_MEMORY:
            kind = .memoryLimit
            let cap = rlua_control_limits(block)!.pointee.memory_bytes
            message = "memory limit exceeded (\(cap / 1024) KiB per session)"
        case RLUA_E_INSTRUCTIONS: kind = .budgetExceeded(.instructions)
        case RLUA_E_DEADLINE: kind = .budgetExceeded(.wallClock)
        case RLUA_E_CANCELLED: kind = .budgetExceeded(.cancelled)
        case RLUA_E_VALUE: kind = .host(.invalidValue)
        case RLUA_E_MISUSE: kind = .host(.misuse)
        default: kind = .runtime
        }
        if message.contains("unknown or was released") { return LuaError(kind: .host(.releasedHandle), message: message) }
        let frames = withUnsafeBytes(of: e.frames) { raw in
            raw.bindMemory(to: rlua_frame.self).prefix(Int(e.frame_count)).map { f in
                LuaFrame(source: cString(f.source), line: f.line > 0 ? Int(f.line) : nil, function: cString(f.name))
            }
        }
        let chunk = cString(e.chunk)
        return LuaError(kind: kind, message: message, chunk: chunk.isEmpty ? nil : chunk,
                        line: e.line > 0 ? Int(e.line) : nil, frames: frames)
    }
}

/// Reads a fixed-size C char array as a String (lossy on invalid UTF-8).
func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Owns the C control block; outlives the lua_State so that cancellation
/// from another thread never touches freed memory.
final class ControlBlock: @unchecked Sendable {
    // The only field touched from other threads is the atomic cancel flag.
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { rlua_control_free(pointer) }
}

/// Stops a state's running or next call from any thread.
public struct LuaCancellation: Sendable {
    let control: ControlBlock
    /// The call in progress ends with `.budgetExceeded(.cancelled)` at its next
    /// budget check; later calls fail the same way.
    public func cancel() { rlua_cancel(control.pointer) }
}

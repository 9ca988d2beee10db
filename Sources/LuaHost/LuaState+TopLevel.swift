extension LuaState {
    /// Runs a loaded chunk's top-level code (or any function) to its end
    /// and returns its results: ``call(_:_:)`` with every error placed.
    ///
    /// Lua raises a memory error without running the message handler, so a
    /// plain call unwinds the stack before anyone can read where the
    /// allocation failed: a chunk's top-level code that fills the memory
    /// cap would be reported without a line. Here the function runs as a
    /// coroutine, whose stack stays as it was when it failed; every error,
    /// a memory error included, carries the chunk and line of the innermost
    /// Lua frame, as errors inside a flow step do.
    ///
    /// Contract: the same budget as ``call(_:_:)`` from the host's top level
    /// (a fresh one). Legal only from the host's top level, not from inside
    /// a host function. The code is not meant to yield: a `coroutine.yield`
    /// reached outside any coroutine it made itself is a `.runtime` error
    /// at the yield's line, as a plain call reports it. The coroutine is
    /// released before this returns or throws.
    public func callTopLevel(_ function: LuaFunction, _ arguments: [LuaValue] = []) throws(LuaError) -> [LuaValue] {
        let coroutine = try makeCoroutine(function)
        defer { release(coroutine) }
        switch try resume(coroutine, with: arguments) {
        case .returned(let values):
            return values
        case .yielded:
            throw LuaError(kind: .runtime, message: "attempt to yield from outside a coroutine", line: suspendedLine(coroutine))
        }
    }
}

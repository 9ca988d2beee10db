import CLuaSandbox

extension LuaState {
    /// Calls a function and returns its results.
    ///
    /// From the host's top level this is a top-level call with a fresh
    /// budget; from inside a host function it runs on the calling coroutine
    /// and shares the running call's budget. Errors never escape as anything
    /// but a thrown ``LuaError``.
    @discardableResult
    public func call(_ function: LuaFunction, _ arguments: [LuaValue] = []) throws(LuaError) -> [LuaValue] {
        let L = try activeThread()
        try check(function)
        let status = try withEncoded(arguments) { bytes, count in rlua_call(L, function.id, bytes, count) }
        try check(status: status)
        return try output()
    }

    /// The thread to run on: the innermost one that called into the host, or
    /// the main thread.
    func activeThread() throws(LuaError) -> OpaquePointer {
        let L = try live()
        if !openArguments.isEmpty { settleArguments() } // Lua is about to run: the crossing buffer is reused
        return activeThreads.last ?? L
    }
}

import CLuaSandbox

extension LuaState {
    /// Compiles a chunk of Lua source under a display name.
    ///
    /// The name is what every error about this chunk shows
    /// (`flows/reflection/negative.lua:12: ...`): pass a path relative to the
    /// content root, never an absolute one. The chunk gets its own fresh
    /// environment; nothing runs until the returned function is called.
    /// Binary chunks (starting with `\u{1B}`) are refused with a `.syntax`
    /// error.
    public func load(_ source: String, as chunkName: String) throws(LuaError) -> LuaFunction {
        let L = try live()
        var handle: Int64 = 0
        var source = source
        let status = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                rlua_load(L, chars.baseAddress, chars.count, chunkName, &handle)
            }
        }
        try check(status: status)
        return LuaFunction(id: handle, owner: id)
    }

    /// Releases a function or coroutine handle. Using it afterwards throws
    /// `.host(.releasedHandle)`.
    public func release(_ function: LuaFunction) {
        guard function.owner == id, let raw else { return }
        rlua_release(raw, function.id)
    }

    /// Keeps a function that reached a host function as an argument.
    ///
    /// Such a handle is valid only until the host function returns (as
    /// values on the stack are in Lua's own C API), so that a flow passing
    /// closures in a loop cannot fill the state with handles. Retain it to
    /// use it later; it then lives until released or until the state closes.
    /// Functions returned by `load`, `call` or `resume` need no retaining.
    public func retain(_ function: LuaFunction) throws(LuaError) {
        guard function.owner == id else {
            throw LuaError(kind: .host(.foreignHandle), message: "function handle belongs to another Lua state")
        }
        try check(status: rlua_retain(try live(), function.id))
    }

    /// Releases a coroutine handle, with what the coroutine returned if
    /// that was kept (``resumeInPlace(_:passing:)``). Using the handle (or
    /// that ``LuaReturned``) afterwards throws `.host(.releasedHandle)`,
    /// also once a later coroutine has taken its place.
    public func release(_ coroutine: LuaCoroutine) {
        guard coroutine.owner == id, let raw else { return }
        rlua_release(raw, coroutine.id)
    }
}

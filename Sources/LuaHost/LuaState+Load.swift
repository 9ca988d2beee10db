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

    public func release(_ coroutine: LuaCoroutine) {
        guard coroutine.owner == id, let raw else { return }
        rlua_release(raw, coroutine.id)
    }
}

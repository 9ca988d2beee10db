import CLuaSandbox

/// What a resumed coroutine did.
public enum LuaResumeResult: Equatable, Sendable {
    /// It yielded these values and can be resumed again.
    case yielded([LuaValue])
    /// It returned these values and is finished.
    case returned([LuaValue])
}

extension LuaState {
    /// Creates a coroutine that will run `function` on its first resume.
    public func makeCoroutine(_ function: LuaFunction) throws(LuaError) -> LuaCoroutine {
        let L = try activeThread()
        try check(function)
        var handle: Int64 = 0
        try check(status: rlua_coroutine(L, function.id, &handle))
        return LuaCoroutine(id: handle, owner: id)
    }

    /// Resumes a coroutine with values (the arguments of its function on the
    /// first resume, the results of its pending `yield` afterwards).
    ///
    /// Legal only while the coroutine is suspended: resuming a finished,
    /// failed or running coroutine throws `.host(.misuse)`. An error inside
    /// leaves it dead; its frames are in the thrown error.
    ///
    /// Nothing or one value crosses as ``resume(_:passing:)`` does (no codec
    /// for a scalar argument or result, a string result checked once), with
    /// the same outcome as the general crossing, which carries the rest.
    public func resume(_ coroutine: LuaCoroutine, with arguments: [LuaValue] = []) throws(LuaError) -> LuaResumeResult {
        if arguments.count <= 1 { return try resume(coroutine, passing: arguments.first).general }
        return try resumeEncoded(coroutine, with: arguments)
    }

    /// The general crossing: every value through the codec, both ways.
    func resumeEncoded(_ coroutine: LuaCoroutine, with arguments: [LuaValue]) throws(LuaError) -> LuaResumeResult {
        let L = try activeThread()
        guard coroutine.owner == id else {
            throw LuaError(kind: .host(.foreignHandle), message: "coroutine handle belongs to another Lua state")
        }
        let status = try withEncoded(arguments) { bytes, count in rlua_resume(L, coroutine.id, bytes, count) }
        if status == RLUA_E_MISUSE, rlua_coroutine_status(L, coroutine.id) < 0 {
            throw LuaError(kind: .host(.releasedHandle), message: "coroutine handle is unknown or was released")
        }
        try check(status: status)
        let values = try output()
        return status == RLUA_YIELDED ? .yielded(values) : .returned(values)
    }

    /// The line where a suspended coroutine yielded (its innermost Lua
    /// function's current line), for an error about what it yielded; nil
    /// when it is not suspended or the line is unknown.
    public func suspendedLine(_ coroutine: LuaCoroutine) -> Int? {
        guard coroutine.owner == id, let raw else { return nil }
        let line = rlua_coroutine_line(raw, coroutine.id)
        return line > 0 ? Int(line) : nil
    }

    /// Whether `resume` is legal now.
    public func isSuspended(_ coroutine: LuaCoroutine) -> Bool {
        guard coroutine.owner == id, let raw else { return false }
        return rlua_coroutine_status(raw, coroutine.id) == 0
    }
}

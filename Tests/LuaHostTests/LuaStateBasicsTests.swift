import Testing
@testable import LuaHost

@Suite("LuaState basics", .hangGuard)
struct LuaStateBasicsTests {
    @Test("values convert both ways: nil, boolean, integer, number, string, table, function")
    func valuesRoundTrip() throws {
        let lua = try LuaState()
        let echo = try lua.load("return function(...) return ... end", as: "echo.lua")
        let fn = try #require(lua.call(echo).first?.functionValue)
        let table = LuaValue.table(LuaTable(sequence: ["a", 2], named: ["k": .number(1.5), "nested": .table(LuaTable(named: ["x": true]))]))
        let input: [LuaValue] = [.nil, true, 42, 2.5, "héllo ✓", table]
        let output = try lua.call(fn, input)
        #expect(output == input)
    }

    @Test("a returned function is a handle that can be called later")
    func functionHandles() throws {
        let lua = try LuaState()
        let chunk = try lua.load("local n = 0; return function() n = n + 1; return n end", as: "counter.lua")
        let counter = try #require(lua.call(chunk).first?.functionValue)
        #expect(try lua.call(counter) == [1])
        #expect(try lua.call(counter) == [2])
        lua.release(counter)
        #expect(throws: LuaError.self) { try lua.call(counter) }
    }

    @Test("a Swift function is callable from Lua, and its errors carry the caller's line")
    func hostFunctions() throws {
        let lua = try LuaState()
        let add = try lua.makeFunction("add") { call in
            let a = try call.integer(1, in: -1000...1000), b = try call.integer(2, in: -1000...1000)
            return .values([.integer(a + b)])
        }
        try lua.define("add", .function(add), .global)
        let ok = try lua.load("return add(2, 3)", as: "flows/add.lua")
        #expect(try lua.call(ok) == [5])
        let bad = try lua.load("local x = 1\nreturn add(2, 'x')", as: "flows/add.lua")
        let error = try #require(throws: LuaError.self) { try lua.call(bad) }
        #expect(error.kind == LuaError.Kind.runtime)
        #expect(error.chunk == "flows/add.lua")
        #expect(error.line == 2)
        #expect(error.message.contains("bad argument #2 to 'add'"))
    }

    @Test("coroutines yield to the host and receive answers; a host function can yield")
    func coroutines() throws {
        let lua = try LuaState()
        let ask = try lua.makeFunction("ask") { call in .yield([call.argument(1)]) }
        try lua.define("ask", .function(ask), .global)
        let chunk = try lua.load("""
            return function(name)
              local a = ask("Hi " .. name .. ", how are you?")
              local b = coroutine.yield("You said " .. a)
              return a .. "/" .. b
            end
            """, as: "flows/ask.lua")
        let body = try #require(lua.call(chunk).first?.functionValue)
        let co = try lua.makeCoroutine(body)
        #expect(try lua.resume(co, with: ["Sam"]) == .yielded(["Hi Sam, how are you?"]))
        #expect(try lua.resume(co, with: ["fine"]) == .yielded(["You said fine"]))
        #expect(try lua.resume(co, with: ["ok"]) == .returned(["fine/ok"]))
        #expect(!lua.isSuspended(co))
        let again = try #require(throws: LuaError.self) { try lua.resume(co) }
        #expect(again.kind == .host(.misuse))
    }

    @Test("a memory error inside a coroutine step names the line where memory ran out")
    func memoryErrorInCoroutine() throws {
        let lua = try LuaState()
        let body = try #require(lua.call(lua.load("""
            return function()
              local t = {}
              for i = 1, 1e7 do t[i] = { i } end
            end
            """, as: "flows/bomb.lua")).first?.functionValue)
        let error = try #require(throws: LuaError.self) { try lua.resume(lua.makeCoroutine(body)) }
        #expect(error.kind == .memoryLimit)
        #expect(error.chunk == "flows/bomb.lua")
        #expect(error.line == 3)
    }

    @Test("a memory error in a chunk's top-level code names the line where memory ran out; the state stays usable")
    func memoryErrorAtTopLevel() throws {
        let lua = try LuaState()
        let chunk = try lua.load("""
            local t = {}
            for i = 1, 1e7 do t[i] = { i } end
            return t
            """, as: "flows/bomb.lua")
        let error = try #require(throws: LuaError.self) { try lua.callTopLevel(chunk) }
        #expect(error.kind == .memoryLimit)
        #expect(error.chunk == "flows/bomb.lua")
        #expect(error.line == 2)
        let after = try lua.load("return 6 * 7", as: "flows/after.lua")
        #expect(try lua.callTopLevel(after) == [LuaValue.integer(42)])
    }

    @Test("callTopLevel returns what the code returns, with a fresh budget; a yield outside any coroutine it made is an error at its line")
    func topLevelContract() throws {
        var limits = SandboxLimits.default
        limits.instructionsPerCall = 200_000
        let lua = try LuaState(limits: limits)
        let sum = try lua.load("""
            local a, b = ...
            local n = 0
            for i = 1, 30000 do n = n + 1 end
            return a + b, "done"
            """, as: "flows/sum.lua")
        // Each call spends most of the budget: a shared one would trip.
        for _ in 0..<3 {
            #expect(try lua.callTopLevel(sum, [.integer(2), .integer(3)]) == [LuaValue.integer(5), .string("done")])
        }
        let yielding = try lua.load("""
            local x = 1
            coroutine.yield(x)
            return x
            """, as: "flows/yield.lua")
        let error = try #require(throws: LuaError.self) { try lua.callTopLevel(yielding) }
        #expect(error.kind == LuaError.Kind.runtime)
        #expect(error.message.contains("yield from outside a coroutine"))
        #expect(error.line == 2)
        let inner = try lua.load("""
            local co = coroutine.wrap(function() coroutine.yield(1) return 2 end)
            return co() + co()
            """, as: "flows/inner.lua")
        #expect(try lua.callTopLevel(inner) == [LuaValue.integer(3)])
    }

    @Test("a library function called through pcall is named in its argument error, as standard Lua names it", arguments: [
        ("pcall(string.rep)", "bad argument #1 to 'string.rep' (string expected, got no value)"),
        ("pcall(math.floor, 'x')", "bad argument #1 to 'math.floor' (number expected, got string)"),
        ("pcall(table.insert, 1, 2)", "bad argument #1 to 'table.insert' (table expected, got number)"),
        ("pcall(utf8.char, 'x')", "bad argument #1 to 'utf8.char' (number expected, got string)"),
        ("pcall(coroutine.resume, 1)", "bad argument #1 to 'coroutine.resume' (thread expected, got number)"),
        ("pcall(setmetatable, 1)", "bad argument #1 to 'setmetatable' (table expected, got number)"),
        ("local s = string; s.format = nil; return pcall(s.rep)", "bad argument #1 to 'string.rep' (string expected, got no value)"),
    ])
    func argumentErrorNames(code: String, message: String) throws {
        let lua = try LuaState()
        let chunk = try lua.load(code.hasPrefix("local") ? code : "return \(code)", as: "flows/names.lua")
        #expect(try lua.callTopLevel(chunk) == [LuaValue.boolean(false), .string(message)])
    }

    @Test("a syntax error names the display path and line")
    func syntaxError() throws {
        let lua = try LuaState()
        let error = try #require(throws: LuaError.self) {
            try lua.load("local a = 1\nlocal b = = 2\n", as: "flows/reflection/broken.lua")
        }
        #expect(error.kind == .syntax)
        #expect(error.chunk == "flows/reflection/broken.lua")
        #expect(error.line == 2)
        #expect(error.description.hasPrefix("flows/reflection/broken.lua:2: "))
    }

    @Test("top-level declarations are globals of their chunk only")
    func chunkGlobals() throws {
        let lua = try LuaState()
        let a = try lua.load("shared = 1; function get() return shared end; return get()", as: "a.lua")
        #expect(try lua.call(a) == [1])
        let b = try lua.load("return shared", as: "b.lua")
        let error = try #require(throws: LuaError.self) { try lua.call(b) }
        #expect(error.message.contains("unknown global 'shared'"))
    }

    @Test("print goes to the host's handler")
    func printGoesToHost() throws {
        let lines = LockedLines()
        let lua = try LuaState(print: { lines.append($0) })
        try lua.call(lua.load("print('hello', 42, nil)", as: "p.lua"))
        #expect(lines.all == ["hello\t42\tnil"])
    }

    @Test("print of several values whose text passes 1 KB hands the host exactly that text")
    func printLongValues() throws {
        let lines = LockedLines()
        let lua = try LuaState(print: { lines.append($0) })
        try lua.call(lua.load("""
            print(("x"):rep(2000), "y", ("z"):rep(3000), 5)
            print(("a"):rep(1020), "b", setmetatable({}, { __tostring = function() return ("t"):rep(1500) end }), "end")
            """, as: "p.lua"))
        #expect(lines.all == [String(repeating: "x", count: 2000) + "\ty\t" + String(repeating: "z", count: 3000) + "\t5",
                              String(repeating: "a", count: 1020) + "\tb\t" + String(repeating: "t", count: 1500) + "\tend"])
    }
}

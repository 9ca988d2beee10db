import Testing
@testable import LuaHost

// SANDBOX.md's hostile-script checklist, cases 1–36 (37–40 need sessions and
// live in ReflectEngineTests/SandboxSessionChecklistTests.swift). Each test is
// named after its checklist number. The suite's time limit is the "nothing
// hangs" guard; the sandbox's own deadline is what actually stops scripts.

@Suite("SANDBOX.md checklist: loading", .hangGuard)
struct SandboxLoadingTests {
    @Test("S01 load(string.dump(f)) is impossible and binary chunks are rejected")
    func s01() throws {
        let h = try SandboxHarness()
        let e = try h.error("return load(string.dump(function() end))")
        #expect(e.kind == .runtime)
        #expect(e.message.contains("dump"))
        let r = try h.hostile.call(h.hostile.load(
            #"local f, msg = load("\27LuaT\0\25\147\r\n\26\n"); return f == nil, msg"#, as: "flows/hostile.lua"))
        #expect(r.first == true)
        #expect(r.last?.stringValue?.contains("binary chunk") == true)
        let e2 = try h.error(#"return load("return 1", "x", "b")"#)
        #expect(e2.message.contains("binary chunks are not allowed"))
        try h.assertContained()
    }

    @Test("S02 a flow file starting with ESC (bytecode) is refused at load")
    func s02() throws {
        let h = try SandboxHarness()
        let e = try #require(throws: LuaError.self) {
            try h.hostile.load("\u{1B}LuaT\u{0}\u{19}garbage", as: "flows/bytecode.lua")
        }
        #expect(e.kind == .syntax)
        #expect(e.message.contains("binary chunk"))
        #expect(e.chunk == "flows/bytecode.lua")
        try h.assertContained()
    }

    @Test("S03 load('return os')() and load('return _G')() never reach real globals")
    func s03() throws {
        let h = try SandboxHarness()
        for name in ["os", "_G", "io", "debug", "package"] {
            let e = try h.error("return load('return \(name)')()")
            #expect(e.kind == .runtime)
            #expect(e.message.contains("unknown global '\(name)'"), "\(name): \(e.message)")
        }
        // load() compiles into the caller's own sandboxed environment.
        let same = try h.hostile.call(h.hostile.load("return load('return string')() == string", as: "flows/x.lua"))
        #expect(same == [true])
        try h.assertContained()
    }

    @Test("S04 load(src, name, 'bt', env) cannot choose binary mode or another environment")
    func s04() throws {
        let h = try SandboxHarness()
        #expect(try h.error(#"return load("return 1", "x", "bt", _G)"#).message.contains("unknown global '_G'"))
        #expect(try h.error(#"return load("return 1", "x", "bt")"#).message.contains("binary chunks are not allowed"))
        #expect(try h.error(#"return load("return os", "x", "t", {os = 1})"#).message.contains("custom environment"))
        try h.assertContained()
    }

    @Test("S05 require('os'), require('../../etc/passwd') and package.loadlib are not permitted")
    func s05() throws {
        let h = try SandboxHarness()
        for name in ["os", "../../etc/passwd", "io", "socket"] {
            let e = try h.error("return require('\(name)')")
            #expect(e.kind == .runtime)
            #expect(e.message.contains("module '\(name)' not found"))
        }
        #expect(try h.error("return package.loadlib('libc.so.6', 'system')").message.contains("unknown global 'package'"))
        try h.assertContained()
    }

    @Test("S06 dofile, loadfile, io, os and debug functions are unavailable, host keeps running")
    func s06() throws {
        let h = try SandboxHarness()
        let calls = ["dofile('/etc/passwd')", "loadfile('/etc/passwd')", "io.open('/etc/passwd')",
                     "os.execute('touch /tmp/reflect-pwned')", "os.exit(1)", "os.getenv('HOME')",
                     "debug.getinfo(1)", "debug.sethook()"]
        for call in calls {
            let e = try h.error("return \(call)")
            #expect(e.kind == .runtime, "\(call)")
            #expect(e.message.contains("unknown global"), "\(call): \(e.message)")
            #expect(e.line == 1)
        }
        try h.assertContained()
    }
}

@Suite("SANDBOX.md checklist: environment", .hangGuard)
struct SandboxEnvironmentTests {
    @Test("S07 the string metatable is locked: getmetatable('').__index.format = evil fails")
    func s07() throws {
        let h = try SandboxHarness()
        #expect(try h.hostile.call(h.hostile.load("return getmetatable('')", as: "flows/x.lua")) == [false])
        let e = try h.error("getmetatable('').__index.format = function() return 'evil' end")
        #expect(e.kind == .runtime)
        #expect(try h.hostile.call(h.hostile.load("return ('%d'):format(5)", as: "flows/y.lua")) == ["5"])
        try h.assertContained()
    }

    @Test("S08 string.format = evil affects only this chunk")
    func s08() throws {
        let h = try SandboxHarness()
        let evil = try h.hostile.load("string.format = function() return 'evil' end; return string.format('%d', 1)", as: "flows/evil.lua")
        #expect(try h.hostile.call(evil) == ["evil"])
        let other = try h.hostile.load("return string.format('%d', 1), ('%d'):format(2)", as: "flows/other.lua")
        #expect(try h.hostile.call(other) == ["1", "2"])
        try h.assertContained()
    }

    @Test("S09 setmetatable(_ENV, ...) and rawset(_ENV, ...) are blocked")
    func s09() throws {
        let h = try SandboxHarness()
        #expect(try h.error("setmetatable(_ENV, {})").message.contains("protected metatable"))
        #expect(try h.error("rawset(_ENV, 'x', 1)").message.contains("protected"))
        #expect(try h.hostile.call(h.hostile.load("return getmetatable(_ENV)", as: "flows/x.lua")) == [false])
        try h.assertContained()
    }

    @Test("S10 reading or writing an undeclared global names it with file:line")
    func s10() throws {
        let h = try SandboxHarness()
        let read = try h.error("local function f()\n  return answr\nend\nreturn f()", chunk: "flows/typo.lua")
        #expect(read.message == "unknown global 'answr'")
        #expect(read.chunk == "flows/typo.lua")
        #expect(read.line == 2)
        let write = try h.error("local function f()\n\n  totl = 3\nend\nf()", chunk: "flows/typo.lua")
        #expect(write.message.contains("undeclared global 'totl'"))
        #expect(write.line == 3)
        try h.assertContained()
    }

    @Test("S11 the host API table is read-only")
    func s11() throws {
        let h = try SandboxHarness()
        let hello = try h.hostile.makeFunction("hello") { _ in .values(["hi"]) }
        let api = LuaTable(named: ["hello": .function(hello), "version": 1,
                                   "steps": .table(LuaTable(sequence: ["a", "b"]))])
        try h.hostile.define("reflect", .table(api), [.global, .module, .readOnly])
        #expect(try h.hostile.call(h.hostile.load(
            "local r = require('reflect'); return r.hello(), reflect.version, #reflect.steps, r == reflect",
            as: "flows/x.lua")) == ["hi", 1, 2, true])
        let attacks = ["reflect.hello = nil", "reflect.extra = 1", "rawset(reflect, 'hello', print)",
                       "reflect.steps[3] = 'c'", "table.insert(reflect.steps, 'c')",
                       "setmetatable(reflect, {})", "rawset(reflect.steps, 1, 'x')"]
        for attack in attacks {
            let e = try h.error(attack)
            #expect(e.kind == .runtime, "\(attack)")
            #expect(e.message.contains("read-only") || e.message.contains("protected"), "\(attack): \(e.message)")
        }
        #expect(try h.hostile.call(h.hostile.load("return reflect.hello(), reflect.steps[1]", as: "flows/x.lua")) == ["hi", "a"])
        try h.assertContained()
    }
}

@Suite("SANDBOX.md checklist: CPU", .hangGuard)
struct SandboxCPUTests {
    func expectBudget(_ e: LuaError, line: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(e.kind == .budgetExceeded(.instructions) || e.kind == .budgetExceeded(.wallClock),
                "\(e.kind): \(e.message)", sourceLocation: sourceLocation)
        if let line { #expect(e.line == line, sourceLocation: sourceLocation) }
        #expect(e.chunk == "flows/hostile.lua", sourceLocation: sourceLocation)
    }

    @Test("S12 while true do end stops with a budget error naming file:line")
    func s12() throws {
        let h = try SandboxHarness()
        let e = try h.error("local x = 1\nwhile true do end")
        expectBudget(e, line: 2)
        // Which limit comes first depends on the machine's speed (a loaded one reaches 0.5 s first).
        #expect(["instruction budget exceeded", "time limit exceeded"].contains { e.description.hasPrefix("flows/hostile.lua:2: \($0)") },
                "\(e.description)")
        try h.assertContained()
    }

    @Test("S13 the same inside pcall in a loop still terminates")
    func s13() throws {
        let h = try SandboxHarness()
        expectBudget(try h.error("while true do pcall(function() while true do end end) end"))
        try h.assertContained()
    }

    @Test("S14 xpcall with a handler still terminates")
    func s14() throws {
        let h = try SandboxHarness()
        expectBudget(try h.error("while true do xpcall(function() while true do end end, function(m) return m end) end"))
        try h.assertContained()
    }

    @Test("S15 coroutine.wrap(function() while true do end end)() terminates")
    func s15() throws {
        let h = try SandboxHarness()
        expectBudget(try h.error("coroutine.wrap(function() while true do end end)()"))
        try h.assertContained()
    }

    @Test("S16 a coroutine created at load time and resumed in a step terminates")
    func s16() throws {
        let h = try SandboxHarness()
        let chunk = try h.hostile.load("""
            local co = coroutine.create(function() while true do end end)
            return function() return coroutine.resume(co) end
            """, as: "flows/hostile.lua")
        let step = try #require(h.hostile.call(chunk).first?.functionValue)
        let e = try #require(throws: LuaError.self) { try h.hostile.call(step) }
        expectBudget(e)
        try h.assertContained()
    }

    @Test("S17 resuming a forever-yielding coroutine in a loop terminates")
    func s17() throws {
        let h = try SandboxHarness()
        expectBudget(try h.error("""
            local co = coroutine.wrap(function() while true do coroutine.yield() end end)
            while true do co() end
            """))
        try h.assertContained()
    }

    @Test("S18 an infinite tail call terminates")
    func s18() throws {
        let h = try SandboxHarness()
        expectBudget(try h.error("local function f() return f() end\nreturn f()"), line: 1)
        try h.assertContained()
    }

    @Test("S19 deep recursion is a stack overflow error, not a crash")
    func s19() throws {
        let h = try SandboxHarness()
        let e = try h.error("local function f(n) return 1 + f(n + 1) end\nreturn f(1)")
        #expect(e.kind == .runtime, "\(e.kind): \(e.message)")
        #expect(e.message.contains("stack overflow"))
        #expect(e.line == 1)
        try h.assertContained()
    }

    @Test("S20 catastrophic patterns are rejected before they run; ordinary ones work")
    func s20() throws {
        let h = try SandboxHarness()
        let attacks = ["return ('a'):rep(200):find('a-a-a-a-b')",
                       "return string.match(('a'):rep(200), 'a-a-a-a-b')",
                       "return (('a'):rep(200)):gsub('a*a*a*a*b', '')",
                       "for m in ('a'):rep(200):gmatch('a-a-a-a-b') do end",
                       "return ('x'):rep(100000):find('x-y')"]
        for attack in attacks {
            let e = try h.error(attack)
            #expect(e.kind == .runtime, "\(attack)")
            #expect(e.message.contains("too costly") || e.message.contains("too long"), "\(attack): \(e.message)")
        }
        let ok = try h.hostile.call(h.hostile.load("""
            local s = "   I always mess things up.  "
            return s:match("^%s*(.-)%s*$"), select(2, s:gsub("%a+", "")), (("a.b"):find(".", 1, true))
            """, as: "flows/ok.lua"))
        #expect(ok == ["I always mess things up.", 5, 2])
        try h.assertContained()
    }

    @Test("S21 a host function calling back into Lua does not reset the budget")
    func s21() throws {
        // A deadline no loaded machine reaches first: only the instruction
        // budget, shared with the callbacks, can stop these loops (with a
        // budget reset at each callback they would run until the deadline).
        // A tenth of the default budget keeps the test short in a debug build.
        var limits = SandboxLimits.default
        limits.secondsPerCall = 120
        limits.instructionsPerCall = 2_000_000
        let h = try SandboxHarness(limits: limits)
        var callbacks = 0
        let each = try h.hostile.makeFunction("each") { call in
            callbacks += 1
            guard let f = call.argument(1).functionValue else { throw call.badArgument(1, "function expected") }
            return .values(try call.call(f, [.integer(Int64(callbacks))]))
        }
        try h.hostile.define("each", .function(each), .global)
        // Each callback is cheap; only the shared budget can stop the loop.
        #expect(try h.error("while true do each(function(i) return i end) end").kind == .budgetExceeded(.instructions))
        #expect(callbacks > 1000)
        // A callback that loops forever is stopped as well.
        #expect(try h.error("each(function() while true do end end)").kind == .budgetExceeded(.instructions))
        try h.assertContained()
    }
}

@Suite("SANDBOX.md checklist: memory", .hangGuard)
struct SandboxMemoryTests {
    @Test("S22 string.rep('x', 2^31) and a huge table.concat hit the memory limit; host usable")
    func s22() throws {
        let h = try SandboxHarness()
        let e = try h.error("local n = 2^31\nreturn string.rep('x', n)")
        #expect(e.kind == .memoryLimit)
        #expect(e.chunk == "flows/hostile.lua")
        #expect(e.line == 2)
        let e2 = try h.error("local t, s = {}, ('x'):rep(100000) for i = 1, 1000 do t[i] = s end return table.concat(t)")
        #expect(e2.kind == .memoryLimit)
        h.hostile.collectGarbage()
        #expect(h.hostile.memoryInUse < 256 * 1024, "memory not back near baseline: \(h.hostile.memoryInUse)")
        try h.assertContained()
    }

    @Test("S23 filling a table forever hits the memory limit")
    func s23() throws {
        let h = try SandboxHarness()
        let e = try h.error("local t, i = {}, 0 while true do i = i + 1; t[i] = {i} end")
        #expect(e.kind == .memoryLimit)
        #expect(h.hostile.memoryPeak <= h.hostile.limits.memoryBytes)
        try h.assertContained()
    }

    @Test("S24 collectgarbage is not available (memory figures are not deterministic); churn stays bounded")
    func s24() throws {
        let h = try SandboxHarness()
        for call in ["collectgarbage('stop')", "collectgarbage('count')", "collectgarbage()"] {
            let e = try h.error(call)
            #expect(e.kind == .runtime)
            #expect(e.message.contains("collectgarbage is not available"), "\(call): \(e.message)")
        }
        let r = try h.hostile.call(h.hostile.load("""
            local ok = pcall(collectgarbage, "stop")
            for i = 1, 100000 do local t = { i, tostring(i) } end
            return ok
            """, as: "flows/churn.lua"))
        #expect(r == [false])
        #expect(h.hostile.memoryPeak <= h.hostile.limits.memoryBytes)
        try h.assertContained()
    }

    @Test("S25 a million coroutines or closures hit a limit")
    func s25() throws {
        let h = try SandboxHarness()
        let e1 = try h.error("local t = {} for i = 1, 1e6 do t[i] = coroutine.create(function() end) end")
        #expect(e1.kind == .memoryLimit)
        let e2 = try h.error("local t = {} for i = 1, 1e6 do t[i] = function() return i end end")
        #expect(e2.kind == .memoryLimit)
        try h.assertContained()
    }

    @Test("S26 table.unpack({}, 1, 1e8), select(1e8, ...) and string.format('%99999999d', 1) do not crash")
    func s26() throws {
        let h = try SandboxHarness()
        #expect(try h.error("return table.unpack({}, 1, 1e8)").message.contains("too many results"))
        #expect(try h.error("return string.format('%99999999d', 1)").message.contains("invalid conversion"))
        // select past the end is Lua's documented "nothing": harmless, no error.
        #expect(try h.hostile.call(h.hostile.load("return select('#', select(1e8, 1, 2, 3))", as: "flows/x.lua")) == [0])
        try h.assertContained()
    }
}

@Suite("SANDBOX.md checklist: finalizers", .hangGuard)
struct SandboxFinalizerTests {
    @Test("S27 a __gc finalizer is rejected (an unguarded one would hang lua_close)")
    func s27() throws {
        let h = try SandboxHarness()
        let e = try h.error("setmetatable({}, {__gc = function() while true do end end})")
        #expect(e.kind == .runtime)
        #expect(e.message.contains("'__gc' finalizers are not allowed"))
        try h.assertContained() // closes the state: would hang if a finalizer had been set
    }

    @Test("S28 a __gc calling host functions is rejected and never runs")
    func s28() throws {
        let h = try SandboxHarness()
        var called = 0
        let note = try h.hostile.makeFunction("note") { _ in called += 1; return .none }
        try h.hostile.define("note", .function(note), .global)
        let e = try h.error("local mt = {__gc = function() note() end}; setmetatable({}, mt)")
        #expect(e.message.contains("__gc"))
        // A metatable whose own __index would answer '__gc' is read raw.
        let sneaky = try h.hostile.call(h.hostile.load("""
            local mt = setmetatable({}, {__index = function() return function() note() end end})
            setmetatable({}, mt)
            return true
            """, as: "flows/sneaky.lua"))
        #expect(sneaky == [true])
        try h.assertContained()
        #expect(called == 0)
    }

    @Test("S29 a <close> variable cannot get a __close metamethod, so none can loop")
    func s29() throws {
        let h = try SandboxHarness()
        let e = try h.error("""
            do
              local x <close> = setmetatable({}, {__close = function() while true do end end})
            end
            """)
        #expect(e.kind == .runtime)
        #expect(e.message.contains("'__close'"), "\(e.message)")
        #expect(e.line == 2)
        // Added after setmetatable: the sealed metatable never sees it, so the
        // variable is refused as not closable, before any body runs.
        let late = try h.error("""
            local mt = {}
            local o = setmetatable({}, mt)
            mt.__close = function() while true do end end
            do local x <close> = o end
            """)
        #expect(late.kind == .runtime)
        #expect(late.message.contains("non-closable value"), "\(late.message)")
        #expect(late.line == 4)
        try h.assertContained()
    }
}

@Suite("SANDBOX.md checklist: errors", .hangGuard)
struct SandboxErrorTests {
    @Test("S30 an error object with a looping __tostring is reported as <error: table>")
    func s30() throws {
        let h = try SandboxHarness()
        var ran = 0
        let note = try h.hostile.makeFunction("note") { _ in ran += 1; return .none }
        try h.hostile.define("note", .function(note), .global)
        let e = try h.error("error(setmetatable({}, {__tostring = function() note() while true do end end}))")
        #expect(e.kind == .runtime)
        #expect(e.message == "<error: table>")
        #expect(ran == 0)
        try h.assertContained()
    }

    @Test("S31 error({code=1}), error(nil), error(42), error(huge) are normalized and truncated")
    func s31() throws {
        let h = try SandboxHarness()
        #expect(try h.error("error({code = 1})").message == "<error: table>")
        #expect(try h.error("error(nil)").message == "<error: nil>")
        #expect(try h.error("error(42)").message == "42")
        #expect(try h.error("error(4.5)").message == "4.5")
        let big = try h.error("error(('x'):rep(1e6))")
        #expect(big.message.utf8.count < 1100)
        #expect(big.message.hasSuffix("…"))
        try h.assertContained()
    }

    @Test("S32 an error on line N of flows/x.lua shows flows/x.lua:N plus frames")
    func s32() throws {
        let h = try SandboxHarness()
        let e = try h.error("""
            local function inner() error("boom") end
            local function outer() inner() end
            outer()
            """, chunk: "flows/x.lua")
        #expect(e.description == "flows/x.lua:1: boom")
        let lua = e.frames.filter { $0.source == "flows/x.lua" }.compactMap(\.line)
        #expect(lua == [1, 2, 3])
        #expect(e.report.contains("flows/x.lua:2: in local 'outer'"))
        #expect(!e.report.contains("/work/"))
        try h.assertContained()
    }
}

@Suite("SANDBOX.md checklist: values", .hangGuard)
struct SandboxValueTests {
    @Test("S33 _ENV, cyclic tables, 10,000-deep nesting and hostile metatables do not break the converter")
    func s33() throws {
        let h = try SandboxHarness()
        // _ENV (our _G) holds utf8.charpattern, which has a NUL byte: a typed
        // error that names the path, not a crash.
        let env = try h.error("return _ENV")
        #expect(env.kind == .host(.invalidValue))
        #expect(env.message.contains("utf8.charpattern"))
        let strings = try h.hostile.call(h.hostile.load("return { format = string.format, tab = table }", as: "flows/x.lua"))
        #expect(strings.first?.tableValue?["format"].functionValue != nil)
        let cyclic = try h.error("local t = {}; t.self = t; return t")
        #expect(cyclic.kind == .host(.invalidValue))
        #expect(cyclic.message.contains("cyclic"))
        let deep = try h.error("local t = {} local c = t for i = 1, 10000 do c.n = {} c = c.n end return t")
        #expect(deep.kind == .host(.invalidValue))
        #expect(deep.message.contains("nested too deeply"))
        let hostile = try h.hostile.call(h.hostile.load("""
            local boom = function() error("metamethod ran") end
            return setmetatable({ a = 1 }, { __index = boom, __pairs = boom, __len = boom })
            """, as: "flows/x.lua"))
        #expect(hostile == [.table(LuaTable(named: ["a": 1]))])
        try h.assertContained()
    }

    @Test("S34 invalid UTF-8 and NUL bytes are typed errors, not crashes")
    func s34() throws {
        let h = try SandboxHarness()
        let e = try h.error(#"return "\255\254""#)
        #expect(e.kind == .host(.invalidValue))
        #expect(e.message.contains("not valid UTF-8"))
        #expect(try h.error(#"return "a\0b""#).message.contains("NUL"))
        let echo = try h.hostile.makeFunction("echo") { call in .values(call.arguments) }
        try h.hostile.define("echo", .function(echo), .global)
        let e2 = try h.error(#"return echo("ok", "\255")"#)
        #expect(e2.kind == .runtime)
        #expect(e2.message.contains("bad argument to 'echo'"))
        #expect(e2.line == 1)
        try h.assertContained()
    }

    @Test("S35 0/0, math.huge and 2^63 are rejected where an index or intensity is expected")
    func s35() throws {
        let h = try SandboxHarness()
        let intensity = try h.hostile.makeFunction("intensity") { call in
            .values([.integer(try call.integer(1, in: 0...10))])
        }
        try h.hostile.define("intensity", .function(intensity), .global)
        for bad in ["0/0", "math.huge", "-math.huge", "2^63", "10.5", "11", "'7'"] {
            let e = try h.error("return intensity(\(bad))")
            #expect(e.kind == .runtime, "\(bad)")
            #expect(e.message.contains("bad argument #1 to 'intensity'"), "\(bad): \(e.message)")
        }
        #expect(try h.hostile.call(h.hostile.load("return intensity(7.0)", as: "flows/x.lua")) == [7])
        #expect(LuaValue.number(.nan).integerValue == nil)
        #expect(LuaValue.number(9.223372036854775808e18).integerValue == nil)
        try h.assertContained()
    }

    @Test("S36 a handle kept after its session closed is a typed error")
    func s36() throws {
        let h = try SandboxHarness()
        let f = try #require(h.hostile.call(h.hostile.load("return function() return 1 end", as: "flows/x.lua")).first?.functionValue)
        let co = try h.hostile.makeCoroutine(f)
        #expect(throws: LuaError(kind: .host(.foreignHandle), message: "function handle belongs to another Lua state")) {
            try h.bystander.call(f)
        }
        try h.assertContained() // closes the hostile state
        let e = try #require(throws: LuaError.self) { try h.hostile.call(f) }
        #expect(e.kind == .host(.closedState))
        let e2 = try #require(throws: LuaError.self) { try h.hostile.resume(co) }
        #expect(e2.kind == .host(.closedState))
    }
}

import Testing
@testable import LuaHost

/// A chunk's copies of the libraries are made when it first reaches for
/// them (docs/sandbox.md). No flow may be able to tell: every way of looking
/// at an environment must see it as if all five copies had been made when
/// the chunk was loaded.
@Suite("Lazy library copies")
struct LazyLibraryCopyTests {
    /// What a script shows through the global `out`: one line per call.
    final class Shown: @unchecked Sendable {
        var lines: [String] = []
    }

    static func describe(_ v: LuaValue) -> String {
        switch v {
        case .nil: return "nil"
        case .boolean(let b): return "\(b)"
        case .integer(let i): return "\(i)"
        case .number(let d): return "\(d)"
        case .string(let s): return "'\(s)'"
        case .function: return "function"
        case .table(let t):
            // Keys only: function values become handles, which are numbered per state.
            let keys = t.fields.keys.map { k -> String in
                switch k {
                case .integer(let i): return "\(i)"
                case .string(let s): return s
                }
            }.sorted()
            let seq = t.sequence.map { $0.stringValue ?? $0.typeName }
            return "{" + keys.joined(separator: ",") + "|" + seq.joined(separator: ",") + "}"
        }
    }

    /// Runs `source` in a fresh state and returns what it showed, and its
    /// error if it failed.
    static func run(_ source: String) throws -> [String] {
        let lua = try LuaState()
        let shown = Shown()
        let out = try lua.makeFunction("out") { call in
            shown.lines.append(call.arguments.map(describe).joined(separator: " "))
            return .none
        }
        try lua.define("out", .function(out), .global)
        do {
            try lua.call(lua.load(source, as: "flows/lazy.lua"))
        } catch {
            shown.lines.append("error: \(error)")
        }
        lua.close()
        return shown.lines
    }

    static let names = ["string", "table", "math", "utf8", "coroutine", "print"]

    /// One line of script doing something an environment's contents could
    /// show through, with the global `n`.
    static func operation(_ k: Int, _ n: String) -> String {
        switch k {
        case 0: return "out(pcall(function() return type(\(n)) end))"
        case 1: return "out(rawget(_ENV, '\(n)') ~= nil, type(rawget(_ENV, '\(n)')))"
        case 2: return "\(n) = nil"
        case 3: return "out(pcall(function() \(n) = {} end))"
        case 4: return "out(pcall(function() \(n) = nil end))"
        case 5: return "do local ks = {} for k in pairs(_ENV) do ks[#ks + 1] = k end out(ks) end"
        case 6: return "do local k, c = next(_ENV), 0 while k ~= nil do c = c + 1 k = next(_ENV, k) end out(c) end"
        case 7: return "out(pcall(function() \(n).extra = 1 return \(n).extra end))"
        case 8: return "out(_ENV)"
        case 9: return "out(pcall(function() return load('return type(\(n))')() end))"
        case 10: return "out(pcall(function() return rawequal(\(n), rawget(_ENV, '\(n)')) end))"
        case 11: return "out(pcall(function() local t = setmetatable({}, {__index = _ENV}) return type(t.\(n)) end))"
        case 12: return "out(pcall(function() return select('#', next(_ENV, '\(n)')) end))"
        default: return "\(n) = \(n)"
        }
    }

    @Test("scripts see the same environment whether its libraries were copied up front or on first use")
    func lazyMatchesEager() throws {
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return Int(x % UInt64(bound))
        }
        for _ in 0..<300 {
            var lines: [String] = []
            for _ in 0..<(1 + next(12)) { lines.append(Self.operation(next(14), Self.names[next(Self.names.count)])) }
            let body = lines.joined(separator: "\n")
            // Line 1 copies every library first (pairs walks the whole
            // environment), or does nothing: line numbers in messages match.
            let eager = try Self.run("for _ in pairs(_ENV) do end\n" + body)
            let lazy = try Self.run("local _ = 0\n" + body)
            #expect(lazy == eager, "\(body)")
        }
    }

    @Test("before any use, raw reads and traversals already see all five libraries")
    func untouchedEnvironment() throws {
        let shown = try Self.run("""
            out(type(rawget(_ENV, 'math')), type(rawget(_ENV, 'utf8')))
            local seen = {}
            for k, v in pairs(_ENV) do if type(v) == 'table' then seen[#seen + 1] = k end end
            out(seen)
            """)
        #expect(shown == ["'table' 'table'", "{1,2,3,4,5|coroutine,math,string,table,utf8}"])
    }

    @Test("a library can be replaced from inside a function before it was ever used, like any existing global")
    func assignBeforeUse() throws {
        let shown = try Self.run("""
            local function f() math = 5 end
            f()
            out(math)
            local function g() utf8 = nil end
            g()
            out(pcall(function() return utf8 end))
            """)
        #expect(shown == ["5", "false 'flows/lazy.lua:6: unknown global 'utf8''"])
    }
}

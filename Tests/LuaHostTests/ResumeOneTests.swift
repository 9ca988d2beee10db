import Testing
@testable import LuaHost

/// ``LuaState/resume(_:passing:)`` (the crossing without arrays or the codec
/// for nothing or one value, which ``LuaState/resume(_:with:)`` also takes
/// for at most one argument) against `resumeEncoded` (the general one, the
/// codec both ways): on many random values, both give the same values, the
/// same errors and leave the coroutine in the same state.
@Suite("Resume with at most one value", .hangGuard)
struct ResumeOneTests {
    /// xorshift64: the same cases on every run.
    struct Random {
        var x: UInt64
        mutating func next() -> UInt64 {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return x
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// A crossing allowance small enough for strings right at it.
    static let limits: SandboxLimits = {
        var l = SandboxLimits.default
        l.hostBytesPerCrossing = 64 * 1024
        l.instructionsPerCall = 500_000 // the runaway cases stop soon
        return l
    }()
    static var allowance: Int { limits.hostBytesPerCrossing }

    /// A Lua string literal holding exactly `bytes`.
    static func literal(_ bytes: [UInt8]) -> String {
        "\"" + bytes.map { "\\\($0)" }.joined() + "\""
    }

    /// A Lua expression list (what `return <list>` yields): nothing, one
    /// value of every kind, strings of random bytes (NULs, bad and good
    /// UTF-8), strings at the host allowance, several values, tables,
    /// functions, values that cannot cross, and errors.
    static func expression(_ r: inout Random) -> String {
        let pieces: [[UInt8]] = [
            Array("plain words ".utf8), [0], [0xC3, 0xA9], [0xE2, 0x80, 0xA6], [0xF0, 0x9F, 0x98, 0x80],
            [0xFF], [0x80], [0xE2, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80], Array("x".utf8),
        ]
        let limit = allowance - LuaCodec.hostBytesPerValue
        switch r.below(24) {
        case 0: return ""
        case 1: return "nil"
        case 2: return r.below(2) == 0 ? "true" : "false"
        case 3: return ["0", "-1", "math.maxinteger", "math.mininteger", "42", "1 << 62"][r.below(6)]
        case 4: return ["0.5", "-0.0", "1/0", "-1/0", "0/0", "2^63", "1e308", "3.0"][r.below(8)]
        case 5, 6, 7, 8, 9:
            var bytes: [UInt8] = []
            for _ in 0..<r.below(8) { bytes += pieces[r.below(pieces.count)] }
            return literal(bytes)
        case 10:
            // At the allowance: one byte either side of what may cross.
            let n = [limit - 1, limit, limit + 1, allowance - 5, allowance - 4, allowance][r.below(6)]
            let tails: [[UInt8]] = [[], [0], [0xFF], [0xC3, 0xA9]]
            let tail = tails[r.below(4)]
            return "string.rep('a', \(n - tail.count)) .. \(literal(tail))"
        case 11: return "'héllo ✓ 안녕'"
        case 12: return "1, 2"
        case 13: return "'a', nil, 'b'"
        case 14: return "nil, nil"
        case 15: return "{}"
        case 16: return "{1, 'two', x = {y = true}}"
        case 17: return "function() end"
        case 18: return "coroutine.create(function() end)"
        case 19: return "{coroutine.running()}"
        case 20: return "error('no ' .. 'luck')"
        case 21: return "(function() while true do end end)()"
        case 22: return "string.rep('é', 20000)"
        default: return "{\(literal([0xFF]))}"
        }
    }

    /// What a resume did, comparable between the two crossings.
    enum Outcome: Equatable, CustomStringConvertible {
        case values(LuaResumeResult)
        case failed(LuaError.Kind, String)

        var description: String {
            switch self {
            case .values(let r): "\(r)".prefix(300).description
            case .failed(let k, let m): "failed \(k): \(m.prefix(300))"
            }
        }
    }

    static func general(_ lua: LuaState, _ co: LuaCoroutine, _ argument: LuaValue?) -> Outcome {
        do { return .values(try lua.resumeEncoded(co, with: argument.map { [$0] } ?? [])) } catch { return .failed(error.kind, error.description) }
    }

    static func fast(_ lua: LuaState, _ co: LuaCoroutine, _ argument: LuaValue?) -> Outcome {
        do {
            let r = try lua.resume(co, passing: argument)
            // The shape is the one that fits: never an array of 0 or 1 values.
            switch r {
            case .yielded(.many(let vs)), .returned(.many(let vs)): #expect(vs.count >= 2)
            default: break
            }
            return .values(r.general)
        } catch {
            return .failed(error.kind, error.description)
        }
    }

    /// Compared without what differs by construction: each coroutine makes
    /// its own functions (other handles), and NaN is not equal to itself.
    static func same(_ a: Outcome, _ b: Outcome) -> Bool {
        func plain(_ v: LuaValue) -> LuaValue {
            switch v {
            case .function: return "a function"
            case .number(let d) where d.isNaN: return "NaN"
            case .table(let t): return .table(LuaTable(t.fields.mapValues(plain)))
            default: return v
            }
        }
        func plain(_ o: Outcome) -> Outcome {
            switch o {
            case .values(.yielded(let vs)): .values(.yielded(vs.map(plain)))
            case .values(.returned(let vs)): .values(.returned(vs.map(plain)))
            case .failed: o
            }
        }
        return plain(a) == plain(b)
    }

    @Test("values a coroutine yields or returns: the same through both crossings, and the same coroutine afterwards")
    func resultsAgree() throws {
        let lua = try LuaState(limits: Self.limits)
        let chunk = try lua.load("""
            return function(expr)
              while true do
                expr = coroutine.yield(load("return " .. expr)())
              end
            end
            """, as: "flows/echo.lua")
        let body = try #require(lua.call(chunk).first?.functionValue)
        var r = Random(x: 0x9E37_79B9_7F4A_7C15)
        var a = try lua.makeCoroutine(body), b = try lua.makeCoroutine(body)
        var saw = (values: false, invalid: false, runtime: false, budget: false)
        for _ in 0..<1500 {
            let expr = Self.expression(&r)
            let ga = Self.general(lua, a, .string(expr))
            let fb = Self.fast(lua, b, .string(expr))
            #expect(Self.same(ga, fb), "return \(expr.prefix(80))")
            #expect(lua.isSuspended(a) == lua.isSuspended(b), "return \(expr.prefix(80))")
            switch ga {
            case .values: saw.values = true
            case .failed(.host(.invalidValue), _): saw.invalid = true
            case .failed(.runtime, _): saw.runtime = true
            case .failed(.budgetExceeded, _): saw.budget = true
            default: break
            }
            if !lua.isSuspended(a) || !lua.isSuspended(b) {
                a = try lua.makeCoroutine(body)
                b = try lua.makeCoroutine(body)
            }
        }
        // The cases reached what they are meant to: values, refused values, errors, budgets.
        #expect(saw.values && saw.invalid && saw.runtime && saw.budget)
    }

    @Test("strings near the host allowance: what may cross crosses whole, one byte more is refused with the general error")
    func allowanceBoundary() throws {
        let lua = try LuaState(limits: Self.limits)
        let chunk = try lua.load("return function(n) while true do n = coroutine.yield(string.rep('a', n)) end end", as: "flows/rep.lua")
        let body = try #require(lua.call(chunk).first?.functionValue)
        let limit = Self.allowance - LuaCodec.hostBytesPerValue
        let co = try lua.makeCoroutine(body)
        _ = try lua.resume(co, passing: .integer(1))
        guard case .yielded(.one(.string(let s))) = try lua.resume(co, passing: .integer(Int64(limit))) else {
            Issue.record("a string of \(limit) bytes did not cross")
            return
        }
        #expect(s.utf8.count == limit && s.utf8.allSatisfy { $0 == UInt8(ascii: "a") })
        let fast = try #require(throws: LuaError.self) { try lua.resume(co, passing: .integer(Int64(limit + 1))) }
        let general = try #require(throws: LuaError.self) { try lua.resumeEncoded(co, with: [.integer(Int64(limit + 1))]) }
        #expect(fast == general)
        #expect(fast.kind == .host(.invalidValue))
        #expect(lua.isSuspended(co))
    }

    /// A random argument: every kind of value a host passes.
    static func argument(_ r: inout Random, _ function: LuaFunction) -> LuaValue? {
        let texts = ["", "a", "héllo ✓", "nul\0inside", "\0", String(repeating: "long answer ", count: 40), "안녕하세요", "\u{10FFFF}"]
        switch r.below(12) {
        case 0: return nil
        case 1: return .nil
        case 2: return .boolean(r.below(2) == 0)
        case 3: return .integer([0, -1, .max, .min, 7][r.below(5)])
        case 4: return .number([0.5, -0.0, .infinity, -.infinity, .nan, 1e308, 3][r.below(7)])
        case 5, 6, 7: return .string(texts[r.below(texts.count)] + texts[r.below(texts.count)])
        case 8: return .table(LuaTable(sequence: ["a", 2], named: ["k": .number(1.5)]))
        case 9: return .function(function)
        case 10: return .string(String(repeating: "x", count: r.below(70_000)))
        default: return .table(LuaTable())
        }
    }

    @Test("values passed to a coroutine: it receives the same through both crossings")
    func argumentsAgree() throws {
        let lua = try LuaState(limits: Self.limits)
        // Describes what it received, in Lua, as one string (the fast result path).
        let chunk = try lua.load("""
            local function describe(...)
              local out = { tostring(select('#', ...)) }
              for i = 1, select('#', ...) do
                local v = select(i, ...)
                local t = type(v)
                if t == 'string' then
                  local q = #v > 1000 and (string.format('%q', v:sub(1, 40)) .. '...' .. v:sub(-1)) or string.format('%q', v)
                  out[#out + 1] = 'string ' .. #v .. ' ' .. q
                elseif t == 'number' then out[#out + 1] = math.type(v) .. ' ' .. string.format('%q', v)
                elseif t == 'table' then
                  local keys = {}
                  for k, x in pairs(v) do keys[#keys + 1] = tostring(k) .. '=' .. tostring(x) end
                  out[#out + 1] = 'table ' .. table.concat(keys, ',')
                elseif t == 'function' then out[#out + 1] = 'function ' .. tostring(v() )
                else out[#out + 1] = t .. ' ' .. tostring(v) end
              end
              return table.concat(out, ' | ')
            end
            return function(...)
              local args = table.pack(...)
              while true do
                args = table.pack(coroutine.yield(describe(table.unpack(args, 1, args.n))))
              end
            end, function() return 'called' end
            """, as: "flows/describe.lua")
        let made = try lua.call(chunk)
        let body = try #require(made.first?.functionValue)
        let function = try #require(made.last?.functionValue)
        var r = Random(x: 0x2545_F491_4F6C_DD1D)
        let a = try lua.makeCoroutine(body), b = try lua.makeCoroutine(body)
        for _ in 0..<1500 {
            let arg = Self.argument(&r, function)
            let ga = Self.general(lua, a, arg)
            let fb = Self.fast(lua, b, arg)
            #expect(ga == fb, "\(String(describing: arg).prefix(80))")
            guard case .values(.yielded(let got)) = fb, got.count == 1, got[0].stringValue != nil else {
                Issue.record("no description for \(String(describing: arg).prefix(80)): \(fb)")
                return
            }
        }
    }

    /// One step of `argumentAtTheLimits`: what the resume gave, whether the
    /// coroutine can still be resumed, and what the call was charged.
    struct LimitStep: Equatable, CustomStringConvertible {
        var outcome: Outcome
        var suspended: Bool
        var instructions: UInt64
        var description: String { "\(outcome) suspended=\(suspended) instructions=\(instructions)" }
    }

    /// Runs the same steps in a fresh state, resuming with one crossing or
    /// the other: hold `heldKiB` KiB, then resume with strings growing by
    /// 7 KiB (a new coroutine once one is dead), cancelling before the
    /// last `cancelledSteps`.
    static func limitSteps(fast: Bool, limits: SandboxLimits, heldKiB: Int, cancelledSteps: Int) throws -> [LimitStep] {
        let lua = try LuaState(limits: limits)
        let made = try lua.call(lua.load("""
            local held = {}
            return function(first)
              local got = first
              while true do got = coroutine.yield(#got) end
            end, function(kib)
              for i = 1, kib do held[i] = string.rep(string.char(65 + i % 26), 1024 - 40) end
            end
            """, as: "flows/limits.lua"))
        let body = try #require(made.first?.functionValue)
        _ = try lua.call(try #require(made.last?.functionValue), [.integer(Int64(heldKiB))])
        var co = try lua.makeCoroutine(body)
        var steps: [LimitStep] = []
        let count = 48
        for i in 0..<count {
            if i == count - cancelledSteps { lua.cancellation.cancel() }
            if !lua.isSuspended(co) { co = try lua.makeCoroutine(body) }
            let arg: LuaValue = .string(String(repeating: "é", count: (i * 7 * 1024 + 3) / 2))
            let outcome = fast ? Self.fast(lua, co, arg) : Self.general(lua, co, arg)
            steps.append(LimitStep(outcome: outcome, suspended: lua.isSuspended(co), instructions: lua.instructionsUsedByLastCall))
        }
        return steps
    }

    @Test("a string argument near the memory cap, past a small instruction budget or after a cancellation: the same outcome, coroutine and charge through both crossings",
          arguments: [(512, 1_000_000, 300, 0), (512, 1_000_000, 60, 0), (512, 2_500, 20, 0), (512, 1_000_000, 100, 5), (2048, 1_000_000, 0, 2)])
    func argumentAtTheLimits(memoryKiB: Int, instructions: UInt64, heldKiB: Int, cancelledSteps: Int) throws {
        var limits = SandboxLimits.default
        limits.memoryBytes = memoryKiB * 1024
        limits.instructionsPerCall = instructions
        let general = try Self.limitSteps(fast: false, limits: limits, heldKiB: heldKiB, cancelledSteps: cancelledSteps)
        let fast = try Self.limitSteps(fast: true, limits: limits, heldKiB: heldKiB, cancelledSteps: cancelledSteps)
        for (i, (g, f)) in zip(general, fast).enumerated() {
            #expect(g == f, "step \(i): general \(g), one-value \(f)")
        }
        // The steps reach what they are about: a refusal of each kind.
        let kinds = Set(fast.compactMap { step -> String? in
            if case .failed(let kind, _) = step.outcome { return "\(kind)" }
            return nil
        })
        if cancelledSteps > 0 { #expect(kinds.contains("\(LuaError.Kind.budgetExceeded(.cancelled))")) }
        if instructions < 100_000 { #expect(kinds.contains("\(LuaError.Kind.budgetExceeded(.instructions))")) }
        if heldKiB >= 300 { #expect(kinds.contains("\(LuaError.Kind.memoryLimit)")) }
        #expect(fast.contains { if case .values = $0.outcome { true } else { false } })
    }

    @Test("making coroutines up to the memory cap, and on a cancelled state: refused with the limit's error, and every one made still runs")
    func makingAtTheLimits() throws {
        var limits = SandboxLimits.default
        limits.memoryBytes = 384 * 1024
        let lua = try LuaState(limits: limits)
        let made = try lua.call(lua.load("""
            local held = {}
            return function(n) return coroutine.yield(n + 1) end, function(kib)
              for i = 1, kib do held[i] = string.rep(string.char(65 + i % 26), 1024 - 40) end
            end
            """, as: "flows/many.lua"))
        let body = try #require(made.first?.functionValue)
        _ = try lua.call(try #require(made.last?.functionValue), [.integer(240)])
        var coroutines: [LuaCoroutine] = []
        var refused: LuaError?
        for _ in 0..<2000 {
            do { coroutines.append(try lua.makeCoroutine(body)) } catch {
                refused = error
                break
            }
        }
        #expect(refused?.kind == .memoryLimit, "\(String(describing: refused))")
        #expect(coroutines.count > 10)
        // The coroutines made run, each with its own argument (released
        // from the last, so that the state has room again).
        for (i, co) in coroutines.enumerated().reversed() {
            if i % 37 == 0 {
                #expect(try lua.resume(co, passing: .integer(Int64(i))) == .yielded(.one(.integer(Int64(i) + 1))))
            }
            lua.release(co)
        }
        lua.cancellation.cancel()
        let cancelled = try #require(throws: LuaError.self) { try lua.makeCoroutine(body) }
        #expect(cancelled.kind == .budgetExceeded(.cancelled))
    }

    @Test("misuse is reported the same: a finished coroutine, a released handle, another state's handle")
    func misuseAgrees() throws {
        let lua = try LuaState()
        let other = try LuaState()
        let chunk = try lua.load("return function() return 'done' end", as: "flows/once.lua")
        let body = try #require(lua.call(chunk).first?.functionValue)
        let co = try lua.makeCoroutine(body)
        #expect(try lua.resume(co, passing: nil) == .returned(.one("done")))
        #expect(Self.general(lua, co, nil) == Self.fast(lua, co, nil))
        guard case .failed(.host(.misuse), _) = Self.fast(lua, co, nil) else {
            Issue.record("resuming a finished coroutine is not misuse")
            return
        }
        let released = try lua.makeCoroutine(body)
        lua.release(released)
        #expect(Self.general(lua, released, "x") == Self.fast(lua, released, "x"))
        let foreign = try lua.makeCoroutine(body)
        #expect(Self.general(other, foreign, nil) == Self.fast(other, foreign, nil))
        lua.close()
        #expect(Self.general(lua, foreign, nil) == Self.fast(lua, foreign, nil))
    }
}

/// An error inside a coroutine leaves it dead (resuming it is misuse),
/// whichever way it failed. Before, the error message stayed on the
/// coroutine's stack and passed for a function not started yet: the
/// coroutine looked suspended and resuming it "called" the message.
@Suite("A failed coroutine is dead", .hangGuard)
struct FailedCoroutineTests {
    @Test("after a runtime error, a budget error or a memory error: not suspended, and resuming is misuse", arguments: [
        "error('no luck')", "while true do end", "local t = {} for i = 1, 1e7 do t[i] = { i } end",
    ])
    func deadAfterError(body: String) throws {
        var limits = SandboxLimits.default
        limits.instructionsPerCall = 500_000
        limits.memoryBytes = 4 << 20
        let lua = try LuaState(limits: limits)
        let f = try #require(lua.call(lua.load("return function() \(body) end", as: "flows/fail.lua")).first?.functionValue)
        for passing in [false, true] {
            let co = try lua.makeCoroutine(f)
            let resume = { () throws(LuaError) in
                if passing { _ = try lua.resume(co, passing: nil) } else { _ = try lua.resume(co) }
            }
            #expect(throws: LuaError.self) { try resume() }
            #expect(!lua.isSuspended(co))
            let again = try #require(throws: LuaError.self) { try resume() }
            #expect(again.kind == LuaError.Kind.host(.misuse))
            #expect(again.message == "cannot resume a finished coroutine")
        }
    }
}

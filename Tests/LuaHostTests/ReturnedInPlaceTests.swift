import Testing
@testable import LuaHost

/// ``LuaState/resumeInPlace(_:passing:)`` and the in-place reads of what a
/// finished coroutine returned (``LuaState/returnedValue(_:at:)``,
/// ``LuaState/returnedValue(_:at:field:)``): each value or field read gives
/// what the whole copy (``LuaState/resume(_:passing:)``) gives for it, with
/// the same checks and errors, until the coroutine is released.
@Suite("What a coroutine returned, read in place", .hangGuard)
struct ReturnedInPlaceTests {
    typealias Random = ResumeOneTests.Random

    /// A value or the error reading it, comparable (functions and NaN as in
    /// ``ResumeOneTests/same(_:_:)``).
    enum Read: Equatable {
        case value(LuaValue)
        case failed(LuaError.Kind, String)
    }

    static func plain(_ v: LuaValue) -> LuaValue {
        switch v {
        case .function: return "a function"
        case .number(let d) where d.isNaN: return "NaN"
        case .table(let t): return .table(LuaTable(t.fields.mapValues(plain)))
        default: return v
        }
    }

    static func read(_ body: () throws(LuaError) -> LuaValue) -> Read {
        do { return .value(plain(try body())) } catch { return .failed(error.kind, error.message) }
    }

    @Test("each value and field read in place is what the whole copy gives, and fails as it fails")
    func readsAgreeWithTheCopy() throws {
        let lua = try LuaState(limits: ResumeOneTests.limits)
        let chunk = try lua.load("return function(expr) return load('return ' .. expr)() end", as: "flows/give.lua")
        let body = try #require(lua.call(chunk).first?.functionValue)
        var r = Random(x: 0x6A09_E667_F3BC_C908)
        var saw = (values: false, fields: false, invalid: false)
        for _ in 0..<1500 {
            let expr = ResumeOneTests.expression(&r)
            let a = try lua.makeCoroutine(body), b = try lua.makeCoroutine(body)
            defer { lua.release(a); lua.release(b) }
            let copy: [LuaValue]
            var copyError: LuaError?
            do {
                guard case .returned(let vs) = try lua.resume(a, passing: .string(expr)) else {
                    Issue.record("return \(expr.prefix(80)) did not return")
                    continue
                }
                copy = vs.array
            } catch {
                copy = []
                copyError = error
            }
            let kept: LuaReturned
            do {
                guard case .returned(let k) = try lua.resumeInPlace(b, passing: .string(expr)) else {
                    Issue.record("return \(expr.prefix(80)) did not return in place")
                    continue
                }
                kept = k
            } catch {
                // It failed while running (not while crossing): the same error either way.
                #expect(copyError == error, "return \(expr.prefix(80))")
                continue
            }
            #expect(!lua.isSuspended(b))
            if let copyError, copyError.kind != .host(.invalidValue) {
                Issue.record("return \(expr.prefix(80)): the copy failed (\(copyError)) but the coroutine returned")
                continue
            }
            // Value by value: equal to the copy's up to the one the copy refused, which fails the same way.
            var refused = false
            for i in 1...max(kept.count, 1) {
                let got = Self.read { () throws(LuaError) in try lua.returnedValue(kept, at: i) }
                if let copyError, !refused, case .failed(let kind, let message) = got {
                    #expect(kind == copyError.kind && message == copyError.message, "return \(expr.prefix(80)) #\(i)")
                    refused = true
                    saw.invalid = true
                } else if copyError == nil {
                    let want: LuaValue = i <= copy.count ? Self.plain(copy[i - 1]) : .nil
                    #expect(got == .value(want), "return \(expr.prefix(80)) #\(i)")
                    saw.values = true
                }
                // Field by field, for a table the copy holds.
                guard copyError == nil, i <= copy.count, case .table(let t) = copy[i - 1] else { continue }
                t.forEachField { key, value in
                    let got = Self.read { () throws(LuaError) in try lua.returnedValue(kept, at: i, field: key) }
                    #expect(got == .value(Self.plain(value)), "return \(expr.prefix(80)) #\(i) \(key)")
                    saw.fields = true
                }
                #expect(Self.read { () throws(LuaError) in try lua.returnedValue(kept, at: i, field: "absent") } == .value(.nil))
            }
            if copyError != nil { #expect(refused, "return \(expr.prefix(80)): the copy was refused, no read was") }
            #expect(kept.count == (copyError == nil ? copy.count : kept.count))
        }
        #expect(saw.values && saw.fields && saw.invalid)
    }

    @Test("a field of a returned table crosses alone, with the copy's checks: a bad string in it is refused, its neighbours are not")
    func fieldChecks() throws {
        let lua = try LuaState()
        let chunk = try lua.load("""
            return function()
              return { 'fine', 'nul\\0inside', '\\255', answer = 'yes', nested = { deep = { 1, 2 } }, f = coroutine.running() }, 7
            end
            """, as: "flows/mixed.lua")
        let co = try lua.makeCoroutine(#require(lua.call(chunk).first?.functionValue))
        guard case .returned(let r) = try lua.resumeInPlace(co, passing: nil) else {
            Issue.record("no return")
            return
        }
        #expect(r.count == 2)
        #expect(try lua.returnedValue(r, at: 1, field: 1) == "fine")
        #expect(try lua.returnedValue(r, at: 1, field: "answer") == "yes")
        #expect(try lua.returnedValue(r, at: 1, field: "nested") == .table(LuaTable(["deep": .table(LuaTable(sequence: [1, 2]))])))
        #expect(try lua.returnedValue(r, at: 2) == 7)
        #expect(try lua.returnedValue(r, at: 3) == .nil)
        let nul = try #require(throws: LuaError.self) { try lua.returnedValue(r, at: 1, field: 2) }
        #expect(nul.kind == .host(.invalidValue) && nul.message.hasPrefix("value #1[2]: "))
        let utf8 = try #require(throws: LuaError.self) { try lua.returnedValue(r, at: 1, field: 3) }
        #expect(utf8.kind == .host(.invalidValue))
        let thread = try #require(throws: LuaError.self) { try lua.returnedValue(r, at: 1, field: "f") }
        #expect(thread.kind == .host(.invalidValue))
        // The whole table is refused, as the copy refuses it.
        #expect(throws: LuaError.self) { try lua.returnedValue(r, at: 1) }
        let notTable = try #require(throws: LuaError.self) { try lua.returnedValue(r, at: 2, field: 1) }
        #expect(notTable.kind == .host(.misuse))
    }

    @Test("kept values live until the coroutine is released; the handle and the values are refused afterwards, also once its slot is reused")
    func lifetime() throws {
        let lua = try LuaState()
        let chunk = try lua.load("return function(x) return { x = x } end", as: "flows/one.lua")
        let body = try #require(lua.call(chunk).first?.functionValue)
        let co = try lua.makeCoroutine(body)
        guard case .returned(let r) = try lua.resumeInPlace(co, passing: "kept") else {
            Issue.record("no return")
            return
        }
        lua.collectGarbage()
        #expect(try lua.returnedValue(r, field: "x") == "kept")
        // Finished: not resumable.
        #expect(!lua.isSuspended(co))
        let again = try #require(throws: LuaError.self) { try lua.resumeInPlace(co, passing: nil) }
        #expect(again.kind == .host(.misuse))
        lua.release(co)
        let stale = try #require(throws: LuaError.self) { try lua.returnedValue(r, field: "x") }
        #expect(stale.kind == .host(.releasedHandle))
        // The next coroutine takes the released slot under another handle.
        let next = try lua.makeCoroutine(body)
        #expect(next != co)
        #expect(lua.isSuspended(next))
        #expect(!lua.isSuspended(co))
        #expect(throws: LuaError.self) { try lua.returnedValue(r, field: "x") }
        let old = try #require(throws: LuaError.self) { try lua.resume(co, passing: "x") }
        #expect(old.kind == .host(.releasedHandle))
        guard case .returned(let r2) = try lua.resumeInPlace(next, passing: "new") else {
            Issue.record("no return")
            return
        }
        #expect(try lua.returnedValue(r2, field: "x") == "new")
        #expect(throws: LuaError.self) { try lua.returnedValue(r, field: "x") }
        lua.close()
        let closed = try #require(throws: LuaError.self) { try lua.returnedValue(r2, field: "x") }
        #expect(closed.kind == .host(.closedState))
    }

    @Test("a coroutine that returned with its values kept is dead to Lua too: it cannot be resumed from a flow")
    func deadToLua() throws {
        let lua = try LuaState()
        let chunk = try lua.load("""
            local saved = {}
            return function() saved.co = coroutine.running(); return function() return 'ran again' end end,
                   function() return coroutine.status(saved.co), coroutine.resume(saved.co) end
            """, as: "flows/saved.lua")
        let made = try lua.call(chunk)
        let co = try lua.makeCoroutine(#require(made.first?.functionValue))
        guard case .returned(let r) = try lua.resumeInPlace(co, passing: nil) else {
            Issue.record("no return")
            return
        }
        #expect(r.count == 1)
        let seen = try lua.call(#require(made.last?.functionValue))
        #expect(seen == ["dead", false, "cannot resume dead coroutine"])
    }

    @Test("released coroutine handles are reused: many sessions in one state keep its handles and memory bounded")
    func slotsReused() throws {
        let lua = try LuaState()
        let chunk = try lua.load("return function(x) coroutine.yield(x); return { x } end", as: "flows/short.lua")
        let body = try #require(lua.call(chunk).first?.functionValue)
        var seen: Set<LuaCoroutine> = []
        var first: LuaCoroutine?
        var baseline = 0
        for i in 0..<3000 {
            let co = try lua.makeCoroutine(body)
            #expect(seen.insert(co).inserted, "handle \(i) given twice")
            if let first { #expect(!lua.isSuspended(first)) }
            _ = try lua.resumeInPlace(co, passing: .integer(Int64(i)))
            guard case .returned(let r) = try lua.resumeInPlace(co, passing: nil) else {
                Issue.record("no return")
                return
            }
            #expect(try lua.returnedValue(r, field: 1) == .integer(Int64(i)))
            lua.release(co)
            if i == 0 { first = co }
            if i == 100 {
                lua.collectGarbage()
                baseline = lua.memoryInUse
            }
        }
        lua.collectGarbage()
        #expect(lua.memoryInUse <= baseline + 4096, "grew by \(lua.memoryInUse - baseline) bytes over 2,900 sessions")
    }
}

import Testing
@testable import LuaHost

/// ``LuaHostCall/isCalled(on:)``: a host function tells the coroutine it
/// was called on from every other thread.
@Suite("Host call thread", .hangGuard)
struct CoroutineIdentityTests {
    @Test("true only on the coroutine itself: not on the main thread, nor in a coroutine it runs, nor for another coroutine")
    func identity() throws {
        let lua = try LuaState()
        var flow: LuaCoroutine?
        var other: LuaCoroutine?
        var seen: [Bool] = []
        let probe = try lua.makeFunction("probe") { call in
            seen.append(flow.map(call.isCalled(on:)) ?? false)
            seen.append(other.map(call.isCalled(on:)) ?? false)
            return .none
        }
        try lua.define("probe", .function(probe), .global)
        let chunk = try lua.load("""
            return function()
              probe()
              coroutine.wrap(function() probe() end)()
              local inner = coroutine.create(function() probe(); coroutine.yield() end)
              coroutine.resume(inner)
              probe()
            end, function() probe() end
            """, as: "flows/threads.lua")
        let made = try lua.call(chunk)
        let body = try #require(made.first?.functionValue)
        let top = try #require(made.last?.functionValue)
        flow = try lua.makeCoroutine(body)
        other = try lua.makeCoroutine(top)
        _ = try lua.resume(#require(flow))
        #expect(seen == [true, false, false, false, false, false, true, false])
        seen = []
        try lua.call(top)
        #expect(seen == [false, false])
        seen = []
        _ = try lua.resume(#require(other))
        #expect(seen == [false, true])
    }
}

import Testing
@testable import LuaHost

/// Runs hostile code the way SANDBOX.md's checklist asks: in its own state,
/// next to a bystander state created first. After the hostile run it checks
/// that the hostile state still answers, that the bystander is unaffected,
/// and that closing the hostile state returns every byte it held.
struct SandboxHarness {
    let hostile: LuaState
    let bystander: LuaState
    private let bystanderProbe: LuaFunction

    init(limits: SandboxLimits = .default) throws {
        bystander = try LuaState(seed: 7)
        bystanderProbe = try bystander.load(
            "return function() return string.format('%d-%s', 7, ('ab'):upper()), math.random(1, 1000) end",
            as: "flows/bystander.lua")
        hostile = try LuaState(limits: limits)
    }

    /// Loads and calls `source` in the hostile state; returns the error it
    /// raised, or nil and its results.
    @discardableResult
    func run(_ source: String, chunk: String = "flows/hostile.lua") -> Result<[LuaValue], LuaError> {
        do {
            let f = try hostile.load(source, as: chunk)
            return .success(try hostile.call(f))
        } catch {
            return .failure(error)
        }
    }

    func error(_ source: String, chunk: String = "flows/hostile.lua") throws -> LuaError {
        switch run(source, chunk: chunk) {
        case .failure(let e): return e
        case .success(let v):
            Issue.record("expected an error, got \(v)")
            throw LuaError(kind: .runtime, message: "no error")
        }
    }

    /// The containment checks every case ends with.
    func assertContained(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let probe = try hostile.load("return 1 + 1, ('x'):rep(3)", as: "flows/probe.lua")
        #expect(try hostile.call(probe) == [2, "xxx"], "hostile state no longer usable", sourceLocation: sourceLocation)

        let fresh = try LuaState(seed: 7)
        let expected = try fresh.call(try #require(fresh.call(fresh.load(
            "return function() return string.format('%d-%s', 7, ('ab'):upper()), math.random(1, 1000) end",
            as: "flows/bystander.lua")).first?.functionValue))
        let probeFn = try #require(try bystander.call(bystanderProbe).first?.functionValue)
        #expect(try bystander.call(probeFn) == expected, "bystander state was affected", sourceLocation: sourceLocation)

        hostile.close()
        #expect(hostile.memoryInUse == 0, "closing the state left \(hostile.memoryInUse) bytes", sourceLocation: sourceLocation)
    }
}

import LuaHost
import ReflectCore

/// The Lua API a flow sees (documented in docs/flow-api.md):
///
/// - `flow { id, version, run [, total] }` — declares the flow; checks its
///   fields where the author wrote them.
/// - in `run(s)`: `s:ask`, `s:intensity`, `s:yesno`, `s:message` — each takes
///   `{ id = "step_id", text = "..." }`, shows one prompt and returns the
///   validated answer (string, integer 0–10, boolean, nil);
///   `s:now()` — the injected clock's local time as a table;
///   `s:random(m, n)` — a seeded integer in [m, n].
///
/// The session table is read-only. Everything here runs under the sandbox's
/// per-call budget.
struct FlowAPI {
    /// Receives prompts and serves clock and random draws for one session.
    protocol Host: AnyObject {
        func prompt(_ step: StepID, kind: PromptKind, text: String) throws(LuaHostError)
        var clock: FlowClock { get }
        func random(in range: ClosedRange<Int64>) -> Int64
    }

    static let sessionModule = "reflect.session"

    /// Defines `flow` (global) and the session table (module
    /// `reflect.session`) in `lua`.
    static func install(in lua: LuaState, host: any Host) throws(LuaError) {
        let flow = try lua.makeFunction("flow") { call in
            let def = try call.table(1)
            guard let id = def["id"].stringValue, FlowDefinition.isValidID(id) else {
                throw LuaHostError("flow: 'id' must be a dotted lowercase name such as \"reflection.negative\"")
            }
            guard let v = def["version"].integerValue, v >= 1 else {
                throw LuaHostError("flow '\(id)': 'version' must be a positive integer")
            }
            guard def["run"].functionValue != nil else {
                throw LuaHostError("flow '\(id)': 'run' must be a function(s)")
            }
            return .values([.table(def)])
        }
        try lua.define("flow", .function(flow), .global)

        weak let weakHost = host
        func promptFunction(_ name: String, _ kind: PromptKind) throws(LuaError) -> LuaFunction {
            try lua.makeFunction(name) { call in
                guard let host = weakHost else { throw LuaHostError("the session has ended") }
                let spec = try call.table(2)
                guard let raw = spec["id"].stringValue, let step = StepID(raw) else {
                    throw LuaHostError("\(name): 'id' must be a step id (lowercase letters, digits, _ - .), got \(spec["id"].typeName)")
                }
                guard let text = spec["text"].stringValue, !text.isEmpty else {
                    throw LuaHostError("\(name) '\(step)': 'text' must be a non-empty string")
                }
                try host.prompt(step, kind: kind, text: text)
                return .yield([])
            }
        }
        let now = try lua.makeFunction("now") { _ in
            guard let host = weakHost else { throw LuaHostError("the session has ended") }
            let t = host.clock.local
            return .values([.table(LuaTable(named: [
                "year": .integer(Int64(t.year)), "month": .integer(Int64(t.month)), "day": .integer(Int64(t.day)),
                "hour": .integer(Int64(t.hour)), "minute": .integer(Int64(t.minute)),
                "weekday": .integer(Int64(t.weekday)), "iso": .string(host.clock.iso8601),
            ]))])
        }
        let random = try lua.makeFunction("random") { call in
            guard let host = weakHost else { throw LuaHostError("the session has ended") }
            let bound: ClosedRange<Int64> = -(1 << 53)...(1 << 53)
            let m = try call.integer(2, in: bound), n = try call.integer(3, in: bound)
            guard m <= n else { throw LuaHostError("random: interval is empty (\(m) > \(n))") }
            return .values([.integer(host.random(in: m...n))])
        }
        let session = LuaTable(named: [
            "ask": .function(try promptFunction("ask", .text)),
            "intensity": .function(try promptFunction("intensity", .intensity)),
            "yesno": .function(try promptFunction("yesno", .yesNo)),
            "message": .function(try promptFunction("message", .message)),
            "now": .function(now),
            "random": .function(random),
        ])
        try lua.define(sessionModule, .table(session), [.module, .readOnly])
    }

    /// Lua value a validated answer is returned to the flow as.
    static func luaValue(_ answer: AnswerValue) -> LuaValue {
        switch answer {
        case .text(let s): .string(s)
        case .integer(let i): .integer(Int64(i))
        case .boolean(let b): .boolean(b)
        case .acknowledged: .nil
        }
    }
}

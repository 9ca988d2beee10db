// reflect-bench: the host's hot work, as workloads that mirror the C
// anchors in ../shared/anchors (lua_host.c), so both can be measured in one
// run under callgrind: (Ir(N) − Ir(0)) / N instructions per item.
//
//   reflect-bench fresh N FLOW.lua   per session: a sandboxed LuaState, load the
//                                    flow, a coroutine, 6 resumes, close
//                                    (anchor: lua_host fresh_min N)
//   reflect-bench state N            per session: a sandboxed LuaState, close
//                                    (anchor: lua_host state N)
//   reflect-bench reuse N FLOW.lua   one state; per session a coroutine and
//                                    6 resumes (anchor: lua_host reuse N)
//   reflect-bench mem FLOW.lua       GCCOUNT and allocator bytes of fresh states
import Foundation
import LuaHost

let answers: [LuaValue] = [
    "My manager criticised my report in front of the whole team",
    "embarrassed, 80",
    "I always mess things up and everyone noticed",
    "Only one slide had an error; the rest was praised",
    "One mistake does not define my work",
]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("reflect-bench: \(message)\n".utf8))
    exit(1)
}

func flowSource(_ path: String) -> String {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    // flow.lua declares global functions; hand `flow` back to the host.
    return text + "\nreturn flow"
}

func loadFlow(_ lua: LuaState, _ source: String) throws -> LuaFunction {
    guard let f = try lua.call(lua.load(source, as: "flow.lua")).first?.functionValue else { fail("flow.lua returned no function") }
    return f
}

func runSession(_ lua: LuaState, _ flow: LuaFunction, _ checksum: inout Int) throws {
    let co = try lua.makeCoroutine(flow)
    guard case .yielded(let q1) = try lua.resume(co, with: ["Alex"]) else { fail("no first question") }
    checksum += q1.first?.stringValue?.utf8.count ?? 0
    for (i, answer) in answers.enumerated() {
        let r = try lua.resume(co, with: [answer])
        switch r {
        case .yielded(let q) where i < 4: checksum += q.first?.stringValue?.utf8.count ?? 0
        case .returned(let v) where i == 4: checksum += v.first?.tableValue?[5].stringValue?.utf8.count ?? 0
        default: fail("unexpected resume result at step \(i + 1)")
        }
    }
    lua.release(co)
}

let args = CommandLine.arguments
guard args.count >= 2 else { fail("usage: reflect-bench fresh|state|reuse N [FLOW.lua] | mem FLOW.lua") }
let mode = args[1]
var checksum = 0
do {
    switch mode {
    case "fresh", "reuse", "state":
        guard args.count >= 3, let n = Int(args[2]) else { fail("\(mode) needs N") }
        let source = mode == "state" ? "" : flowSource(args.count > 3 ? args[3] : "flow.lua")
        let start = Date()
        if mode == "state" {
            for _ in 0..<n { try LuaState().close() }
        } else if mode == "fresh" {
            for _ in 0..<n {
                let lua = try LuaState()
                try runSession(lua, try loadFlow(lua, source), &checksum)
                lua.close()
            }
        } else {
            let lua = try LuaState()
            let flow = try loadFlow(lua, source)
            for _ in 0..<n { try runSession(lua, flow, &checksum) }
            lua.close()
        }
        let dt = Date().timeIntervalSince(start)
        print("mode=\(mode) sessions=\(n) checksum=\(checksum) loop=\(String(format: "%.3f", dt)) s")
    case "mem":
        let source = flowSource(args.count > 2 ? args[2] : "flow.lua")
        let lua = try LuaState()
        lua.collectGarbage()
        print("sandboxed state, fresh:            \(lua.gcCount) bytes GCCOUNT, \(lua.memoryInUse) bytes allocated")
        let flow = try loadFlow(lua, source)
        lua.collectGarbage()
        print("sandboxed state + flow.lua:        \(lua.gcCount) bytes GCCOUNT, \(lua.memoryInUse) bytes allocated")
        let co = try lua.makeCoroutine(flow)
        _ = try lua.resume(co, with: ["Alex"])
        for a in answers.prefix(4) { _ = try lua.resume(co, with: [a]) }
        lua.collectGarbage()
        print("+ one session suspended at Q5:     \(lua.gcCount) bytes GCCOUNT, \(lua.memoryInUse) bytes allocated")
        lua.close()
    default:
        fail("unknown mode \(mode)")
    }
} catch {
    fail("\(error)")
}

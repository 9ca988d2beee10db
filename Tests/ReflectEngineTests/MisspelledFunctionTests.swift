import Testing
import ReflectCore
@testable import ReflectEngine

/// A flow that calls a session function by a wrong name is told which one
/// it probably meant, at the calling line.
@Suite("a misspelled session function names the one meant")
struct MisspelledFunctionTests {
    func failure(_ text: String) -> EngineError? {
        do {
            let s = try FlowSession.open(source("flows/test/x.lua", text), language: try english(), options: options())
            _ = try s.submit(.text("first"))
            return nil
        } catch let e as EngineError { return e } catch { return nil }
    }

    @Test("s:intensty, s.yesnoo(s, …) and s:chose: the error at the line, with the function meant")
    func nearMisses() throws {
        for (call, meant) in [("s:intensty { id = \"b\", text = \"B?\" }", "intensity"),
                              ("s.yesnoo(s, { id = \"b\", text = \"B?\" })", "yesno"),
                              ("s:chose { id = \"b\", text = \"B?\", options = { \"x\" } }", "choose")] {
            let error = try #require(failure("""
                return flow { id = "test.x", version = 1, run = function(s)
                  s:ask { id = "a", text = "A?" }
                  \(call)
                end }
                """), "\(call)")
            #expect(error.code == "lua.runtime")
            #expect(error.line == 3, "\(error)")
            #expect(error.message.hasSuffix("(did you mean s:\(meant)?)"), "\(error.message)")
        }
    }

    @Test("a name near no session function, or a function of the flow's own table, gets no guess")
    func noGuess() throws {
        let far = try #require(failure("""
            return flow { id = "test.x", version = 1, run = function(s)
              s:ask { id = "a", text = "A?" }
              s:completely_unknown()
            end }
            """))
        #expect(far.message.contains("attempt to call a nil value (method 'completely_unknown')"), "\(far.message)")
        #expect(!far.message.contains("did you mean"), "\(far.message)")
        let other = try #require(failure("""
            return flow { id = "test.x", version = 1, run = function(s)
              s:ask { id = "a", text = "A?" }
              local n = nil
              n = n + 1
            end }
            """))
        #expect(!other.message.contains("did you mean"), "\(other.message)")
    }

    @Test("the names suggested are exactly the session table's functions")
    func namesAreTheSessionTable() throws {
        let session = try FlowSession.open(source("flows/test/x.lua", """
            return flow { id = "test.x", version = 1, run = function(s)
              local names = {}
              for k in pairs(s) do names[#names + 1] = k end
              table.sort(names)
              s:ask { id = "a", text = table.concat(names, ",") }
            end }
            """), language: try english(), options: options())
        #expect(session.current?.text == FlowAPI.sessionFunctionNames.sorted().joined(separator: ","))
    }
}

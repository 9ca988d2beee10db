import Foundation
import Testing
import ReflectCore
@testable import ReflectAuthoring
@testable import ReflectEngine

/// Content saved with Windows line endings (CRLF, as Git's autocrlf checks
/// it out) is checked line by line as LF content is.
@Suite("content with CRLF line endings")
struct CRLFContentTests {
    static let rules = """
        -- Celebration rules.
        return {
          after = function(s, step, answer)
            if step == "reset" then
              s:celebrate { tier = "tiny", reason = "reset_dun" }
            end
          end,
        }
        """

    @Test("a misspelled reason in a celebrations.lua with CRLF endings is reported at its line, as with LF")
    func celebrationRules() {
        let lf = CelebrationRulesCheck.check(Self.rules, file: "flows/coach/celebrations.lua")
        let crlf = CelebrationRulesCheck.check(Self.rules.replacingOccurrences(of: "\n", with: "\r\n"), file: "flows/coach/celebrations.lua")
        #expect(lf.map(\.line) == [5] && lf.first?.message.contains("reset_dun") == true, "\(lf)")
        #expect(crlf.map(\.line) == lf.map(\.line) && crlf.map(\.message) == lf.map(\.message), "\(crlf)")
    }

    @Test("a flow with CRLF endings: a syntax error's column is found on its line")
    func syntaxColumn() {
        let source = "return flow {\r\n  id = \"x\",\r\n  version = = 1,\r\n}\r\n"
        #expect(ContentChecker.column(of: "flows/x.lua:3: unexpected symbol near '='", line: 3, in: source) == 11)
    }
}

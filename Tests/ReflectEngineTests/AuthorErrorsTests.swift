import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// Issue 18, item 11: what an author reads when a flow is wrong.
@Suite("author errors name the cause")
struct AuthorErrorsTests {
    func open(_ text: String) throws -> FlowSession {
        try FlowSession.open(source("flows/test/x.lua", text), language: try english(), options: options())
    }

    func failure(_ text: String, answering: [AnswerInput] = []) -> EngineError? {
        do {
            let s = try open(text)
            for a in answering { _ = try s.submit(a) }
            return nil
        } catch let e as EngineError { return e } catch { return nil }
    }

    @Test("a misspelled field in flow { } or in a prompt is an error with the field it probably meant")
    func misspelledFields() throws {
        let flowTypo = failure("""
            return flow { id = "test.x", version = 1, titel = "Hello",
              run = function(s) s:ask { id = "a", text = "A?" } end }
            """)
        #expect(flowTypo?.message.contains("unknown field 'titel' (did you mean 'title'?)") == true, "\(String(describing: flowTypo))")
        let promptTypo = failure("""
            return flow { id = "test.x", version = 1,
              run = function(s)
                s:ask { id = "a", text = "A?", requried = false }
              end }
            """)
        #expect(promptTypo?.message.contains("unknown field 'requried' (did you mean 'required'?)") == true, "\(String(describing: promptTypo))")
        #expect(promptTypo?.line == 3, "\(String(describing: promptTypo))")
        // options belong to choices only.
        let stray = failure("""
            return flow { id = "test.x", version = 1,
              run = function(s) s:ask { id = "a", text = "A?", options = {} } end }
            """)
        #expect(stray?.message.contains("unknown field 'options'") == true)
    }

    @Test("a raw coroutine.yield, a generation id or a related-entries id used twice name the line that did it")
    func yieldLines() throws {
        let raw = failure("""
            return flow { id = "test.x", version = 1,
              run = function(s)
                s:ask { id = "a", text = "A?" }
                coroutine.yield({ kind = "prompt" })
              end }
            """, answering: [.text("fine")])
        #expect(raw?.code == "flow.invalid" && raw?.line == 4, "\(String(describing: raw))")
        let rawFirst = failure("""
            return flow { id = "test.x", version = 1,
              run = function(s)
                coroutine.yield("garbage")
              end }
            """)
        #expect(rawFirst?.line == 3, "\(String(describing: rawFirst))")
        let generated = failure("""
            return flow { id = "test.x", version = 1,
              run = function(s)
                local x = s:ask { id = "a", text = "A?" }
                s:generate { id = "g", purpose = "final_question", inputs = { x }, fallback = "Next?" }
                s:generate { id = "g", purpose = "final_question", inputs = { x }, fallback = "Next?" }
              end }
            """, answering: [.text("fine")])
        #expect(generated?.message.contains("generates 'g' twice") == true && generated?.line == 5, "\(String(describing: generated))")
        let related = failure("""
            return flow { id = "test.x", version = 1,
              run = function(s)
                local x = s:ask { id = "a", text = "A?" }
                s:related { id = "r", text = x }
                s:related { id = "r", text = x }
              end }
            """, answering: [.text("fine")])
        #expect(related?.message.contains("related entries 'r' twice") == true && related?.line == 5, "\(String(describing: related))")
    }

    @Test("a step id asked twice names the line that asks it again")
    func duplicateStepLine() throws {
        let e = failure("""
            return flow { id = "test.x", version = 1,
              run = function(s)
                s:ask { id = "a", text = "A?" }
                s:ask { id = "b", text = "B?" }
                s:ask { id = "a", text = "A again?" }
              end }
            """, answering: [.text("one"), .text("two")])
        #expect(e?.message.contains("asks step 'a' twice") == true, "\(String(describing: e))")
        #expect(e?.line == 5, "\(String(describing: e))")
    }

    @Test("a misspelled locale key or flow id gets a 'did you mean'; a family without --mood says to add it")
    func didYouMean() throws {
        let key = failure("""
            return flow { id = "test.x", version = 1,
              run = function(s) s:ask { id = "a", text = "reflection.negative.q1x" } end }
            """)
        #expect(key?.message.contains("did you mean 'reflection.negative.q1'?") == true, "\(String(describing: key))")
        let catalog = ContentLibrary(root: ContentRoot(repositoryRoot)).catalog
        #expect(throws: EngineError.self) { try catalog.source(for: "demo.chek-in") }
        do { _ = try catalog.source(for: "demo.chek-in") } catch {
            #expect(error.message.contains("did you mean 'demo.check-in'?"), "\(error.message)")
        }
        do { _ = try catalog.source(for: "reflection", mood: nil) } catch {
            #expect(error.message.contains("add --mood"), "\(error.message)")
        }
    }
}

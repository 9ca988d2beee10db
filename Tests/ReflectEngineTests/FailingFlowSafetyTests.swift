import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// A crisis answer is met with the safety notice whatever the flow does
/// next: when the flow fails right after taking the answer (a runtime
/// error, its instruction budget, its memory cap), the answer is kept and
/// the events it showed (`saved`, `safety`) are there for the host to show
/// before the error (``FlowSession/shownBeforeFailure``).
@Suite("a flow that fails after a crisis answer still shows the notice")
struct FailingFlowSafetyTests {
    static let endings: [(String, String)] = [
        ("runtime", "local t = nil; s:message { id = \"m\", text = \"x\" .. t.field }"),
        ("budget", "while true do end"),
        ("memory", "local str = \"x\"; local t = {}; for i = 1, 100 do str = str .. str; t[i] = str end"),
    ]

    static func flow(_ ending: String) -> FlowSource {
        source("flows/test/failing.lua", """
            return flow {
              id = "test.failing", version = 1,
              run = function(s)
                local what = s:ask { id = "what", text = "What is on your mind?" }
                \(ending)
              end,
            }
            """)
    }

    @Test("the notice and saved come before the error, for every way the flow can fail", arguments: [0, 1, 2])
    func noticeBeforeFailure(_ which: Int) throws {
        let (name, ending) = FailingFlowSafetyTests.endings[which]
        let session = try FlowSession.open(FailingFlowSafetyTests.flow(ending), language: try english(), options: options())
        let journal = MemoryJournal()
        session.journal = journal
        #expect(throws: EngineError.self, "\(name)") { try session.submit(.text("I want to kill myself")) }
        let shown = session.shownBeforeFailure
        #expect(shown.count == 2, "\(name): \(shown)")
        guard case .saved(_, let step)? = shown.first else { Issue.record("\(name): no saved first: \(shown)"); return }
        #expect(step == "what")
        guard case .safety(let notice)? = shown.last else { Issue.record("\(name): no safety notice: \(shown)"); return }
        #expect(notice.category == .suicide)
        #expect(!notice.resources.isEmpty)
        #expect(journal.answers.map(\.value) == [.text("I want to kill myself")], "the answer is kept")
    }

    @Test("a benign answer before a failure shows saved only; a submit that does not fail leaves nothing behind")
    func benign() throws {
        let failing = try FlowSession.open(FailingFlowSafetyTests.flow(FailingFlowSafetyTests.endings[0].1), language: try english(), options: options())
        failing.journal = MemoryJournal()
        #expect(throws: EngineError.self) { try failing.submit(.text("I had a long day at work")) }
        #expect(failing.shownBeforeFailure.count == 1)
        if case .saved? = failing.shownBeforeFailure.first {} else { Issue.record("\(failing.shownBeforeFailure)") }

        let fine = try FlowSession.open(FailingFlowSafetyTests.flow("s:message { id = \"m\", text = \"Thank you.\" }"),
                                        language: try english(), options: options())
        let events = try fine.submit(.text("I want to kill myself"))
        #expect(events.contains { if case .safety = $0 { true } else { false } })
        #expect(fine.shownBeforeFailure.isEmpty)
    }
}

import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// A message or an action takes no words (docs/flow-api.md): Enter, the
/// language's "done" or the button's label goes on; anything else typed is
/// refused (`ack_expected`) rather than silently dropped, and, being the
/// person's words all the same, passes the crisis gate like an answer
/// (docs/safety.md): the notice first, the verdict journalled, the text kept
/// nowhere.
@Suite("text typed where no words are taken is refused, and screened")
struct RefusedTextTests {
    final class Journal: SessionJournal {
        private(set) var answers: [RecordedAnswer] = []
        private(set) var flagged: [(SafetyCategory, StepID)] = []
        func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws { answers.append(answer) }
        func flaggedAtPause(_ category: SafetyCategory, step: StepID) throws { flagged.append((category, step)) }
        func wentBack(from step: StepID) throws {}
        func detected(_ type: DistortionType, step: StepID) throws {}
        func probed(step: StepID) throws {}
        func finished(_ summary: DoneSummary) throws {}
    }

    static let flow = source("flows/test/letter.lua", """
        return flow {
          id = "test.letter", version = 1,
          run = function(s)
            s:message { id = "intro", text = "First, read this slowly." }
            s:action { id = "breathe", text = "Take three slow breaths.", button = "Start My Day" }
            s:ask { id = "letter", text = "Write your letter." }
          end,
        }
        """)

    func open() throws -> (FlowSession, Journal) {
        let session = try FlowSession.open(RefusedTextTests.flow, language: try english(), options: options())
        let journal = Journal()
        session.journal = journal
        return (session, journal)
    }

    @Test("words typed at a message are refused with ack_expected and the message stands; Enter or 'done' goes on")
    func messageRefusesText() throws {
        let (session, journal) = try open()
        let events = try session.submit(.text("Dear part of me that wants comfort food"))
        #expect(events.compactMap { if case .invalid(let step, let code, _) = $0 { "\(step) \(code)" } else { nil } } == ["intro ack_expected"])
        #expect(session.current?.step == "intro")
        #expect(journal.answers.isEmpty)
        _ = try session.submit(.text("done"))
        #expect(session.current?.step == "breathe")
        // An action takes its button's label as shown, not other words.
        _ = try session.submit(.text("not yet"))
        #expect(session.current?.step == "breathe")
        _ = try session.submit(.text("start my day"))
        #expect(session.current?.step == "letter")
        #expect(journal.answers.map(\.value) == [.acknowledged, .acknowledged])
    }

    @Test("a crisis typed at a message: the notice with the region's lines, the verdict journalled against the step, never the text; the message still stands")
    func crisisAtMessage() throws {
        let (session, journal) = try open()
        let events = try session.submit(.text("I want to kill myself"))
        guard case .safety(let notice)? = events.first else { Issue.record("no notice first: \(events)"); return }
        #expect(notice.category == .suicide && notice.step == "intro" && !notice.resources.isEmpty)
        #expect(events.contains { if case .invalid(_, "ack_expected", _) = $0 { true } else { false } })
        #expect(journal.flagged.map(\.0) == [.suicide] && journal.flagged.map(\.1) == ["intro"])
        #expect(journal.answers.isEmpty)
        #expect(session.current?.step == "intro")
        // Ordinary refused words raise no notice.
        let calm = try session.submit(.text("ok whatever"))
        #expect(!calm.contains { if case .safety = $0 { true } else { false } })
        #expect(journal.flagged.count == 1)
    }
}

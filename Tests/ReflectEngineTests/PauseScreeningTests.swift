import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// The library API of the crisis pause: an app that shows a notice's
/// offer to pause and lets the person type there passes that text to
/// ``FlowSession/screenAtPause(_:after:)``, which screens it with the
/// session's gate, journals a crisis as a category-and-time event and
/// returns the notice to show again (docs/safety.md, "Text typed at the pause").
@Suite("the library screens text typed at the crisis pause")
struct PauseScreeningEngineTests {
    final class PauseJournal: SessionJournal {
        private(set) var answers: [RecordedAnswer] = []
        private(set) var atPause: [(SafetyCategory, StepID)] = []
        func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws { answers.append(answer) }
        func flaggedAtPause(_ category: SafetyCategory, step: StepID) throws { atPause.append((category, step)) }
        func wentBack(from step: StepID) throws {}
        func detected(_ type: DistortionType, step: StepID) throws {}
        func probed(step: StepID) throws {}
        func finished(_ summary: DoneSummary) throws {}
    }

    static let flow = source("flows/test/pause.lua", """
        return flow {
          id = "test.pause", version = 1,
          run = function(s)
            local what = s:ask { id = "what", text = "What is on your mind?" }
            local next = s:ask { id = "next", text = "What would help a little?" }
          end,
        }
        """)

    @Test("a crisis at the pause: the notice for its category, journalled against the notice's step; the prompt still waits")
    func crisisAtPause() throws {
        let session = try FlowSession.open(PauseScreeningEngineTests.flow, language: try english(), options: options())
        let journal = PauseJournal()
        session.journal = journal
        let events = try session.submit(.text("I want to kill myself"))
        guard case .safety(let shown)? = events.first(where: { if case .safety = $0 { true } else { false } }) else {
            Issue.record("no notice: \(events)"); return
        }
        let again = try #require(try session.screenAtPause("my boyfriend hits me every night", after: shown))
        #expect(again.category == .abuse)
        #expect(again.step == "what")
        #expect(!again.resources.isEmpty && !again.pause.isEmpty)
        #expect(journal.atPause.map(\.0) == [.abuse] && journal.atPause.map(\.1) == ["what"])
        #expect(journal.answers.map(\.value) == [.text("I want to kill myself")], "the text at the pause is not an answer")
        #expect(session.current?.step == "next")
        #expect(try session.screenAtPause("not right now, thanks", after: shown) == nil)
        #expect(try session.screenAtPause("I would never kill myself", after: shown) == nil, "the gate's negation rule applies there too")
        #expect(journal.atPause.count == 1)
    }
}

import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

// An answer the journal refuses is not taken: the session is back at the
// same prompt with its save exactly as before (`submit` puts back what it
// changed: the answer, the step's draft, the flow's version, and what the
// flow recorded on the way: generated texts, related entries, celebrations).

/// A journal that refuses every answer while `refusing` is set.
private final class RefusingJournal: SessionJournal {
    struct Refused: Error {}
    var refusing = true
    private(set) var taken: [StepID] = []
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, outcome: AnswerOutcome) throws {
        if refusing { throw Refused() }
        taken.append(answer.step)
    }
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws {}
    func wentBack(from step: StepID) throws {}
    func detected(_ type: DistortionType, step: StepID) throws {}
    func probed(step: StepID) throws {}
    func finished(_ summary: DoneSummary) throws {}
}

/// A host search that always finds one entry.
private final class OneEntry: RelatedEntrySource, @unchecked Sendable {
    func relatedEntries(to text: String, now: String, excluding: String, limit: Int) throws -> [RelatedEntry] {
        [RelatedEntry(day: "2026-10-02", text: "A calm walk helped", flow: "journal.check-in", session: "s-1", step: "note", score: 0.9)]
    }
}

/// Every answer earns a celebration, the first one looks for related
/// entries and has a text generated, the last asks for feedback; answering
/// "fail" to `two` makes the flow fail after taking it.
private let undoFlow = FlowSource(name: "flows/test/undo.lua", text: """
    return flow {
      id = "test.undo", version = 2,
      run = function(s)
        local one = s:ask { id = "one", text = "What happened?" }
        s:related { id = "related", text = { one } }
        local question = s:generate { id = "gen", purpose = "test_question", inputs = { one },
                                      fallback = "What would you tell a friend?" }
        local two = s:ask { id = "two", text = question }
        if two == "fail" then error("the flow fails after this answer") end
        local three = s:ask { id = "three", text = "Anything else?" }
        s:feedback { inputs = { two, three } }
      end,
    }
    """, celebrationRules: RulesSource(name: "flows/test/celebrations.lua", text: """
    return { after = function(s, step, answer) s:celebrate { tier = "tiny", reason = "win" } end }
    """))

@Suite("A refused answer leaves the save as it was", .hangGuard)
struct RefusedAnswerTests {
    private func open(resuming save: SessionSave? = nil) throws -> (FlowSession, RefusingJournal) {
        var o = options()
        o.relatedEntries = OneEntry()
        o.generator = TemplateGenerator(language: try english())
        let session = try FlowSession.open(undoFlow, language: try english(), options: o, resuming: save)
        let journal = RefusingJournal()
        session.journal = journal
        return (session, journal)
    }

    /// Submits `input` to a refusing journal: a journal error, and the
    /// session as it was (save, prompt); then the same answer is taken.
    private func refusedThenTaken(_ session: FlowSession, _ journal: RefusingJournal, _ input: AnswerInput) throws {
        let save = session.save, prompt = session.current
        journal.refusing = true
        #expect(throws: EngineError.self) { try session.submit(input) }
        #expect(session.save == save, "the save is exactly as before the refused answer")
        #expect(session.current == prompt)
        journal.refusing = false
        try session.submit(input)
        #expect(session.save.answers.count == save.answers.count + 1)
    }

    @Test("refused answers put back the answer, generated texts, related entries, celebrations and feedback")
    func refusedAtEachStep() throws {
        let (session, journal) = try open()
        try refusedThenTaken(session, journal, .text("A quarrel at home"))
        // What taking it recorded (the undo had all of this to put back).
        #expect(session.save.generated.map(\.id) == ["gen"])
        #expect(session.save.recalled.map(\.id) == ["related"])
        #expect(session.save.celebrations.count == 1)
        try refusedThenTaken(session, journal, .text("I said something unkind"))
        let texts = session.save.generated.count
        try refusedThenTaken(session, journal, .text("I will apologise"))
        #expect(session.isFinished)
        #expect(session.save.generated.count > texts, "the feedback's texts were recorded with the last answer")
        #expect(journal.taken == ["one", "two", "three"])
    }

    @Test("a refused answer puts back the draft it replaced and the flow's version")
    func refusedDraftAndVersion() throws {
        let (first, journal) = try open()
        journal.refusing = false
        try first.answer(.text("A quarrel at home"), .text("I said something unkind"), .command(.back))
        #expect(first.current?.step == "two")
        #expect(first.save.drafts.map(\.step) == ["two"])
        // A save written by an older version of the flow.
        var older = first.save
        older.flowVersion = 1
        let (session, resumedJournal) = try open(resuming: older)
        #expect(session.current?.draft == .text("I said something unkind"))
        try refusedThenTaken(session, resumedJournal, .text("I raised my voice"))
        #expect(session.save.drafts.isEmpty)
        #expect(session.save.flowVersion == 2)
    }

    @Test("when the flow fails after an answer the journal then refuses, the save is as before")
    func refusedAfterFlowFailure() throws {
        let (session, journal) = try open()
        journal.refusing = false
        try session.answer(.text("A quarrel at home"))
        let save = session.save, prompt = session.current
        journal.refusing = true
        #expect(throws: EngineError.self) { try session.submit(.text("fail")) }
        #expect(session.save == save)
        #expect(session.current == prompt)
        #expect(session.shownBeforeFailure.isEmpty)
    }
}

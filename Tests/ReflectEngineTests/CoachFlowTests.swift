import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// Keeps the coach records a journal receives, in order.
private final class CoachJournal: SessionJournal {
    var records: [(StepID, CoachRecord)] = []
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, outcome: AnswerOutcome) throws {
        records += outcome.coach.map { (answer.step, $0) }
    }
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws {}
    func wentBack(from step: StepID) throws {}
    func detected(_ type: DistortionType, step: StepID) throws {}
    func probed(step: StepID) throws {}
    func finished(_ summary: DoneSummary) throws {}
}

@Suite("The coach flows: Prep Library facts, literal items, records that fire once")
struct CoachFlowTests {
    let library = ContentLibrary(root: ContentRoot(repositoryRoot))

    func open(_ flow: String, facts: UserFacts, clock: FlowClock = evening) throws -> FlowSession {
        var o = options(clock: clock)
        o.facts = facts
        return try FlowSession.open(try library.catalog.source(for: flow), language: try english(), options: o)
    }

    let prep = [
        PrepItem(id: "water", label: .key("coach.prep.item.water"), core: true),
        PrepItem(id: "my-1", label: .literal("water.bottle"), core: false),
        PrepItem(id: "my-2", label: .literal("Lay out my walking shoes"), core: false),
    ]

    @Test("the checklist lists the snapshot's items in order; a custom 'water.bottle' is shown as written, never as a key")
    func literalItems() throws {
        let session = try open("coach.evening", facts: UserFacts(day: "2026-11-22", phase: .evening, prepItems: prep))
        try session.answer(.boolean(true), .text("music"), .text("after work"))
        let prompt = try #require(session.current)
        #expect(prompt.step == "prep")
        #expect(prompt.kind == .checklist)
        #expect(prompt.options.map(\.id) == ["water", "my-1", "my-2"])
        #expect(prompt.options.map(\.text) == ["Put water bottle in fridge or by my bed", "water.bottle", "Lay out my walking shoes"])
    }

    @Test("prep marks and a new item are journalled once, with their answers; going back and answering again replaces, never adds")
    func recordsFireOnce() throws {
        let journal = CoachJournal()
        let session = try open("coach.evening", facts: UserFacts(day: "2026-11-22", phase: .evening, prepItems: prep))
        session.journal = journal
        try session.answer(.boolean(true), .text("music"), .text("after work"),
                           .checklist(["water": "done", "my-1": "partly", "my-2": "skip"]), .text("Fill the kettle"))
        #expect(journal.records.count == 2)
        #expect(journal.records[0].0 == "prep")
        #expect(journal.records[0].1 == .prepMarks([PrepMark(itemID: "my-1", mark: .partly), PrepMark(itemID: "my-2", mark: .skip),
                                                    PrepMark(itemID: "water", mark: .done)]))
        #expect(journal.records[1].0 == "prep_new")
        #expect(journal.records[1].1 == .prepItemAdded(text: "Fill the kettle", slot: "new"))
        // Back twice (replays) adds nothing; the new answers add exactly their records.
        try session.answer(.command(.back), .command(.back))
        #expect(journal.records.count == 2)
        try session.answer(.checklist(["water": "done", "my-1": "done", "my-2": "done"]), .command(.skip), .acknowledge)
        #expect(journal.records.count == 3)
        #expect(journal.records[2].1 == .prepMarks(["my-1", "my-2", "water"].map { PrepMark(itemID: $0, mark: .done) }))
        #expect(session.isFinished)
    }

    @Test("a new item too long for the list is refused with a message, not an error of the flow")
    func longNewItem() throws {
        let journal = CoachJournal()
        let session = try open("coach.evening", facts: UserFacts(day: "2026-11-22", phase: .evening, prepItems: prep))
        session.journal = journal
        try session.answer(.boolean(false), .text("rest"), .text("no"), .checklist(["water": "done", "my-1": "done", "my-2": "done"]),
                           .text(String(repeating: "x", count: 10_000)))
        #expect(session.current?.step == "prep_new_refused")
        #expect(journal.records.count == 1)
    }

    @Test("I Need Help stores one craving note per run, typed by the category, with the branch's choice and the words")
    func cravingNote() throws {
        let journal = CoachJournal()
        let session = try open("coach.need-help", facts: UserFacts(day: "2026-11-22", phase: .day), clock: morning)
        session.journal = journal
        try session.answer(.choose("stress"), .choose("journal"), .text("Too much at once"), .text("Deadline"))
        #expect(session.isFinished)
        #expect(journal.records.map(\.1) == [.cravingNote(CravingNote(kind: .stress, detail: "journal", text: "Too much at once\nDeadline"))])
    }

    @Test("a flow may mark only items of its Prep Library snapshot")
    func unknownMark() throws {
        let flow = source("flows/test/marks.lua", """
            return flow { id = "test.marks", version = 1, run = function(s)
              s:ask { id = "a", text = "Anything?" }
              s:prep_marks { nope = "done" }
            end }
            """)
        var o = options()
        o.facts = UserFacts(prepItems: prep)
        let session = try FlowSession.open(flow, language: try english(), options: o)
        #expect(throws: EngineError.self) { try session.answer(.text("yes")) }
    }

    @Test("an action's button label is its one option; the answer is still 'done'")
    func buttons() throws {
        let session = try open("coach.morning", facts: UserFacts(), clock: morning)
        #expect(session.current?.options.map(\.text) == ["Done"])
        try session.answer(.acknowledge, .text("I am someone who rests"), .text("a walk"), .text("dance"), .command(.skip))
        #expect(session.current?.step == "start_day")
        #expect(session.current?.options.map(\.text) == ["Start My Day"])
    }
}

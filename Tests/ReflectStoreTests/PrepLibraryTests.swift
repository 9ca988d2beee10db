import Foundation
import Testing
import ReflectCore
@testable import ReflectStore

@Suite("Prep Library and coach records in the store")
struct PrepLibraryTests {
    let at = "2026-11-24T21:00:00+01:00"
    let day = CalendarDay("2026-11-24")!

    @Test("a new person has the four default items in order, three of them core")
    func defaults() throws {
        let store = try temporaryStore()
        let items = try store.prepLibrary(user: "default")
        #expect(items.map(\.id) == ["sticky_notes", "produce", "water", "breakfast"])
        #expect(items.map(\.core) == [false, true, true, true])
        #expect(items.allSatisfy { !$0.label.isLiteral })
    }

    @Test("add, rename, move, archive and restore; custom text is kept literally")
    func changes() throws {
        let store = try temporaryStore()
        var items = try store.changePrepLibrary(user: "default", .add(text: "  water.bottle  "), at: at)
        #expect(items.last?.id == "my-5")
        #expect(items.last?.label == .literal("water.bottle"))
        items = try store.changePrepLibrary(user: "default", .move(id: "my-5", position: 1), at: at)
        #expect(items.map(\.id) == ["my-5", "sticky_notes", "produce", "water", "breakfast"])
        items = try store.changePrepLibrary(user: "default", .rename(id: "water", text: "Fill the big bottle"), at: at)
        #expect(items[3].label == .literal("Fill the big bottle"))
        items = try store.changePrepLibrary(user: "default", .archive(id: "sticky_notes"), at: at)
        #expect(PrepLibrary.checklist(items, on: day).map(\.id) == ["my-5", "produce", "water", "breakfast"])
        items = try store.changePrepLibrary(user: "default", .restore(id: "sticky_notes"), at: at)
        #expect(PrepLibrary.checklist(items, on: day).count == 5)
        items = try store.changePrepLibrary(user: "default", .hide(id: "produce", day: day), at: at)
        #expect(PrepLibrary.checklist(items, on: day).map(\.id) == ["my-5", "sticky_notes", "water", "breakfast"])
        #expect(PrepLibrary.checklist(items, on: day.adding(days: 1)).count == 5)
        #expect(try store.prepLibrary(user: "someone-else").count == 4)
    }

    @Test("refused changes name the problem and change nothing")
    func refusals() throws {
        let store = try temporaryStore()
        _ = try store.changePrepLibrary(user: "default", .add(text: "Mine"), at: at)
        let before = try store.prepLibrary(user: "default")
        let cases: [(PrepChange, String)] = [
            (.archive(id: "water"), "prep.core_item"),
            (.rename(id: "nope", text: "x"), "prep.unknown_item"),
            (.add(text: String(repeating: "a", count: 10_000)), "prep.text_too_long"),
            (.add(text: "   "), "prep.empty_text"),
            (.add(text: "two\nlines"), "prep.control_characters"),
            (.move(id: "water", position: 9), "prep.invalid_position"),
            (.restore(id: "water"), "prep.not_archived"),
        ]
        for (change, code) in cases {
            #expect(throws: PrepStoreError.self) { try store.changePrepLibrary(user: "default", change, at: at) }
            do { try store.changePrepLibrary(user: "default", change, at: at) } catch { #expect(error.code == code, "\(change)") }
        }
        #expect(try store.prepLibrary(user: "default") == before)
        #expect(throws: PrepStoreError.self) {
            try store.markPrep(user: "default", day: day, marks: [PrepMark(itemID: "nope", mark: .done)], at: at)
        }
        #expect(try store.prepMarks(user: "default", from: day, to: day).isEmpty)
    }

    @Test("coach records written with an answer: marks replace the day's marks, a new item joins once, one craving note per session")
    func coachRecords() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s1"))
        let marks = [PrepMark(itemID: "water", mark: .done), PrepMark(itemID: "produce", mark: .partly)]
        for _ in 0..<2 {
            try store.recordAnswer(answer("s1", "prep", 0, .text("x")), coach: [.prepMarks(marks), .prepItemAdded(text: "Shoes by the door", slot: "new"),
                                                                              .cravingNote(CravingNote(kind: .habit, detail: "time", text: ""))],
                                   coachDay: day.description)
        }
        let stored = try store.prepMarks(user: "default", from: day, to: day)
        #expect(stored.map(\.itemID) == ["produce", "water"])
        #expect(stored.map(\.mark) == [.partly, .done])
        #expect(try store.prepLibrary(user: "default").filter { $0.label == .literal("Shoes by the door") }.count == 1)
        #expect(try store.cravingNotes(user: "default", from: day, to: day).map(\.type) == [.habit])
    }

    @Test("facts when a session starts: day and phase, today's earlier answers, first today / ever, checklist, last night's marks")
    func facts() throws {
        let store = try temporaryStore()
        let rules = DayRules()
        let first = try store.userFacts(user: "default", flowID: "coach.morning", clock: FlowClock(iso8601: "2026-11-24T07:30:00+01:00")!, rules: rules)
        #expect(first.day == "2026-11-24")
        #expect(first.phase == .day)
        #expect(first.firstEver == true && first.firstToday == true)
        #expect(first.earlierAnswers.isEmpty)
        #expect(first.prepItems.map(\.id) == ["sticky_notes", "produce", "water", "breakfast"])

        var morning = SessionRecord(id: "m1", flowID: "coach.morning", flowVersion: 1, locale: "en", personality: nil, user: "default",
                                    mood: nil, seed: 0, clock: "2026-11-24T07:30:00+01:00", startedAt: "2026-11-24T07:30:00+01:00")
        morning.facts = String(decoding: try JSONEncoder().encode(first), as: UTF8.self)
        try store.beginSession(morning)
        try store.recordAnswer(answer("m1", "stress_response", 0, .text("dance to one song")))
        try store.markPrep(user: "default", day: day.adding(days: -1), marks: [PrepMark(itemID: "water", mark: .done)], at: at)
        // A reflection the same day: its words stay out of the coach's snapshot.
        try store.beginSession(session("r1", started: "2026-11-24T12:00:00+01:00"))
        try store.recordAnswer(answer("r1", "situation", 0, .text("My manager criticised my report")))

        // 00:30 the next calendar day is still the 24th's evening.
        let evening = try store.userFacts(user: "default", flowID: "coach.evening", clock: FlowClock(iso8601: "2026-11-25T00:30:00+01:00")!,
                                          rules: rules)
        #expect(evening.day == "2026-11-24")
        #expect(evening.phase == .evening)
        #expect(evening.earlierAnswers == [EarlierAnswer(flow: "coach.morning", step: "stress_response", value: .text("dance to one song"))])
        #expect(evening.firstEver == true)
        let reflection = try store.userFacts(user: "default", flowID: "reflection.negative",
                                             clock: FlowClock(iso8601: "2026-11-24T22:00:00+01:00")!, rules: rules)
        #expect(reflection.earlierAnswers.map(\.step) == ["situation"])
        #expect(evening.lastNightPrep == [PrepMark(itemID: "water", mark: .done)])
        let again = try store.userFacts(user: "default", flowID: "coach.morning", clock: FlowClock(iso8601: "2026-11-24T12:00:00+01:00")!,
                                        rules: rules)
        #expect(again.firstToday == false && again.firstEver == false)
        let tomorrow = try store.userFacts(user: "default", flowID: "coach.morning", clock: FlowClock(iso8601: "2026-11-25T08:00:00+01:00")!,
                                           rules: rules)
        #expect(tomorrow.firstToday == true && tomorrow.firstEver == false)
        #expect(tomorrow.earlierAnswers.isEmpty)
    }
}

import Foundation
import Testing
@testable import ReflectCore

@Suite("Moments: listing, filters and the link to the source entry")
struct MomentsTests {
    let monday = CalendarDay(year: 2026, month: 11, day: 16) ?? CalendarDay(ordinal: 0)

    func entry(_ id: String, _ flow: String, day offset: Int, at: String, _ answers: [StepID: AnswerValue],
               themes: [StepID: [Theme]] = [:]) -> JournalEntry {
        let d = monday.adding(days: offset)
        return JournalEntry(sessionID: id, flow: flow, day: d, startedAt: "\(d)T\(at):00+01:00", answers: answers, themes: themes)
    }

    func moment(_ id: String, day: Int, at: String, quote: String, source: String, themes: [String] = [], intensity: Int = 5) -> JournalEntry {
        entry(id, JournalFlows.moment, day: day, at: at, ["source": .choice(source), "quote": .text(quote),
                                                           "themes": .choices(themes), "intensity": .integer(intensity)])
    }

    var entries: [JournalEntry] {
        [
            entry("c1", JournalFlows.checkIn, day: 1, at: "08:00", ["note": .text("Honestly, I can ask for help before it gets heavy.")]),
            entry("c2", JournalFlows.checkIn, day: 1, at: "09:00", ["note": .text("Coffee")]),
            entry("d1", "journal.deep-session", day: 2, at: "19:00", ["capture": .text("The deadline moved again"),
                                                                      "next_step": .text("Rehearse once")]),
            moment("m1", day: 1, at: "21:00", quote: "i can ask for  help\nbefore it gets heavy", source: "check-in", themes: ["self"]),
            moment("m2", day: 1, at: "22:00", quote: "Words I wrote on paper", source: "check-in"),
            moment("m3", day: 2, at: "20:00", quote: "The deadline moved", source: "session", themes: ["work"], intensity: 8),
            moment("m4", day: 3, at: "07:00", quote: "Before anything else", source: "check-in"),
        ]
    }

    @Test("the link is the latest entry of the chosen kind, before the moment, that holds the quote (case and spaces ignored)")
    func linkByQuote() throws {
        let list = Moments.list(entries)
        #expect(list.map(\.session) == ["m4", "m3", "m2", "m1"], "newest first")
        let m1 = try #require(list.first { $0.session == "m1" })
        #expect(m1.link == MomentLink(session: "c1", flow: JournalFlows.checkIn, day: monday.adding(days: 1), by: .quote))
        let m3 = try #require(list.first { $0.session == "m3" })
        #expect(m3.link?.session == "d1" && m3.link?.by == .quote)
    }

    @Test("without an entry holding the quote: the latest entry of that kind the same day; else no link")
    func fallbacks() throws {
        let list = Moments.list(entries)
        #expect(list.first { $0.session == "m2" }?.link == MomentLink(session: "c2", flow: JournalFlows.checkIn,
                                                                           day: monday.adding(days: 1), by: .sameDay))
        #expect(try #require(list.first { $0.session == "m4" }).link == nil, "no check-in on that day, none holds the words")
        // A deleted source: the link is gone, the moment stays.
        let withoutC1 = Moments.list(entries.filter { $0.sessionID != "c1" })
        #expect(withoutC1.first { $0.session == "m1" }?.link?.session == "c2")
    }

    @Test("filters: theme (chosen or auto-tagged), source and dates")
    func filters() {
        #expect(Moments.list(entries, filter: .init(theme: .work)).map(\.session) == ["m3"])
        #expect(Moments.list(entries, filter: .init(theme: Theme(rawValue: "self"))).map(\.session) == ["m1"])
        #expect(Moments.list(entries, filter: .init(source: "session")).map(\.session) == ["m3"])
        #expect(Moments.list(entries, filter: .init(from: monday.adding(days: 2), to: monday.adding(days: 2))).map(\.session) == ["m3"])
        #expect(Moments.list(entries, filter: .init(theme: .money)).isEmpty)
    }
}

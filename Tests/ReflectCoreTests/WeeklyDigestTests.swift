import Foundation
import Testing
@testable import ReflectCore

@Suite("The weekly digest")
struct WeeklyDigestTests {
    /// Monday 16 November 2026.
    let monday = CalendarDay(year: 2026, month: 11, day: 16) ?? CalendarDay(ordinal: 0)

    func checkIn(_ offset: Int, mood: Int, note: String? = nil, themes: [Theme] = []) -> JournalEntry {
        let d = monday.adding(days: offset)
        var answers: [StepID: AnswerValue] = ["mood": .integer(mood), "energy": .integer(5), "stress": .integer(4),
                                              "sleep_hours": .number(7.5), "sleep_quality": .integer(6)]
        if let note { answers["note"] = .text(note) }
        return JournalEntry(sessionID: "c\(offset)", flow: JournalFlows.checkIn, day: d, startedAt: "\(d)T21:00:00+01:00",
                            answers: answers, themes: themes.isEmpty ? [:] : ["note": themes])
    }

    func compose(_ entries: [JournalEntry], moods: [MoodDay] = [], week offset: Int = 0) -> WeeklyDigest {
        WeeklyDigest.compose(week: monday.adding(days: offset), entries: entries, moods: moods, streak: nil, daysShowedUp: 0)
    }

    @Test("an empty week is a gentle empty digest: no figures, no highlight, an invitation to begin")
    func empty() {
        let d = compose([checkIn(-3, mood: 5)])
        #expect(d.isEmpty)
        #expect(d.headline.kind == .empty)
        #expect(d.highlight == nil && d.checkIns == nil && d.association == nil)
        #expect(d.intention.kind == .begin)
    }

    @Test("the headline compares this week's mean check-in mood with the week before, only with 3 check-in days in each")
    func headline() {
        let before = [checkIn(-7, mood: 4), checkIn(-6, mood: 4), checkIn(-5, mood: 5)]
        let week = [checkIn(0, mood: 6), checkIn(2, mood: 7), checkIn(4, mood: 8)]
        let both = compose(before + week)
        #expect(both.headline.kind == .moodChange)
        #expect(both.headline.mood == 7 && both.headline.change == 2.7)   // 7 − 4.33
        let onlyThis = compose(Array(before.prefix(2)) + week)
        #expect(onlyThis.headline.kind == .mood && onlyThis.headline.checkIns == 3)
        let few = compose(Array(week.prefix(2)))
        #expect(few.headline.kind == .entries && few.headline.entries == 2 && few.headline.days == 2)
        #expect(few.checkIns == nil && few.checkInDays == 2)
    }

    @Test("the highlight is the best day by mood (ties: the later day) with the person's words; below 2 mood days, the top moment")
    func highlight() throws {
        let week = [checkIn(0, mood: 6, note: "Long meeting"), checkIn(3, mood: 8, note: "A walk after work"),
                    checkIn(4, mood: 8, note: "Dinner with Ana\nand more")]
        let best = try #require(compose(week).highlight)
        #expect(best.kind == .bestDay && best.day == monday.adding(days: 4) && best.weekday == 6)  // Friday
        #expect(best.mood == 8 && best.words == "Dinner with Ana")
        let moment = JournalEntry(sessionID: "m1", flow: JournalFlows.moment, day: monday.adding(days: 1), startedAt: "t",
                                  answers: ["quote": .text("I can ask for help"), "intensity": .integer(7)])
        let one = try #require(compose([checkIn(0, mood: 6), moment]).highlight)
        #expect(one.kind == .moment && one.words == "I can ask for help" && one.day == monday.adding(days: 1))
        #expect(compose([checkIn(0, mood: 6)]).highlight == nil)
        // Equal moods on every day: no best day.
        #expect(compose([checkIn(0, mood: 6), checkIn(1, mood: 6)]).highlight == nil)
        // The mood log counts (doubled) when there is no check-in that day.
        let logged = compose([checkIn(0, mood: 5)], moods: [MoodDay(day: monday.adding(days: 2), mood: .great)])
        #expect(logged.highlight?.day == monday.adding(days: 2) && logged.highlight?.mood == 10)
    }

    @Test("a best day chosen from the mood log quotes the note written with it; a check-in's day quotes the check-in first")
    func bestDayFromTheMoodLogQuotesItsNote() throws {
        let thursday = monday.adding(days: 3)
        let logged = compose([checkIn(0, mood: 5, note: "Long meeting")],
                             moods: [MoodDay(day: thursday, mood: .great, note: "Swam in the lake with Ana\nthen slept")])
        let best = try #require(logged.highlight)
        #expect(best.kind == .bestDay && best.day == thursday)
        #expect(best.words == "Swam in the lake with Ana", "\(best)")
        // A blank note quotes nothing.
        let blank = compose([checkIn(0, mood: 5)], moods: [MoodDay(day: thursday, mood: .great, note: "  ")])
        #expect(blank.highlight?.kind == .bestDay && blank.highlight?.words == nil)
        // A day whose mood is a check-in's quotes the check-in's words, the log's note when it has none.
        let both = compose([checkIn(0, mood: 5), checkIn(3, mood: 9, note: "A walk after work")],
                           moods: [MoodDay(day: thursday, mood: .great, note: "Logged at noon")])
        #expect(both.highlight?.day == thursday && both.highlight?.words == "A walk after work")
        let silent = compose([checkIn(0, mood: 5), checkIn(3, mood: 9)], moods: [MoodDay(day: thursday, mood: .great, note: "Logged at noon")])
        #expect(silent.highlight?.words == "Logged at noon")
    }

    @Test("the intention is the week's latest next step, else the top theme, else a gentle line")
    func intention() {
        let deep = JournalEntry(sessionID: "d1", flow: "journal.deep-session", day: monday.adding(days: 2), startedAt: "t",
                                answers: ["next_step": .text("Rehearse once with Sam"), "themes": .choices(["work"])])
        #expect(compose([checkIn(0, mood: 5), deep]).intention == WeeklyDigest.Intention(kind: .commitment, text: "Rehearse once with Sam"))
        #expect(compose([checkIn(0, mood: 5, themes: [.sleep])]).intention == WeeklyDigest.Intention(kind: .theme, theme: .sleep))
        #expect(compose([checkIn(0, mood: 5)]).intention.kind == .gentle)
    }

    @Test("the association is the strongest theme and mood one of the 12 weeks to the week's end, with 5 days on each side")
    func association() throws {
        var entries: [JournalEntry] = []
        for i in 0..<12 {
            let offset = -11 + i
            entries.append(checkIn(offset, mood: i < 6 ? 4 : 8, themes: i < 6 ? [.sleep] : (i < 9 ? [.work] : [])))
        }
        let a = try #require(compose(entries).association)
        #expect(a.theme == .sleep && a.daysWith == 6 && a.daysWithout == 6 && a.difference == -4)
        #expect(compose(Array(entries.suffix(9))).association == nil, "3 sleep days: under the minimum")
    }

    @Test("the same week gives the same digest: entry order and later weeks change nothing")
    func deterministic() {
        let week = [checkIn(-7, mood: 4), checkIn(-6, mood: 5), checkIn(-5, mood: 5),
                    checkIn(0, mood: 6, note: "Quiet"), checkIn(2, mood: 9, note: "The walk"), checkIn(5, mood: 7)]
        let later = [checkIn(8, mood: 2, note: "Next week"), checkIn(9, mood: 10)]
        let a = compose(week)
        #expect(compose(week.reversed()) == a)
        #expect(compose(week + later, week: 6) == a)
        #expect(compose(later + week, week: 3) == a)
    }
}

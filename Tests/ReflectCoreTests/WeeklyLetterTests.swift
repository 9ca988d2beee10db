import Foundation
import Testing
@testable import ReflectCore

@Suite("The weekly letter")
struct WeeklyLetterTests {
    let monday = CalendarDay(year: 2026, month: 11, day: 16) ?? CalendarDay(ordinal: 0)

    func moment(_ i: Int, _ quote: String, intensity: Int, themes: [String] = []) -> JournalEntry {
        JournalEntry(sessionID: "m\(i)", flow: JournalFlows.moment, day: monday.adding(days: i), startedAt: "t\(i)",
                     answers: ["quote": .text(quote), "intensity": .integer(intensity), "themes": .choices(themes)])
    }

    var week: [JournalEntry] {
        [
            moment(0, "Asked for help early", intensity: 6, themes: ["work"]),
            moment(1, "The walk cleared my head", intensity: 8, themes: ["exercise"]),
            moment(2, "Called my sister", intensity: 6, themes: ["family"]),
            moment(3, "Slept eight hours", intensity: 3),
            JournalEntry(sessionID: "s1", flow: "reflection.negative", day: monday.adding(days: 2), startedAt: "t5",
                         answers: ["action": .text("Block one hour for the slides")], themes: ["situation": [.work, .stress]]),
            JournalEntry(sessionID: "s2", flow: "reflection.negative", day: monday.adding(days: 4), startedAt: "t6",
                         answers: ["next_step": .text("Go to bed by eleven")], themes: ["situation": [.work, .sleep]]),
            // Next week: ignored.
            moment(9, "Not this week", intensity: 10, themes: ["money"]),
        ]
    }

    @Test("top themes, the three most intense moments (ties: most recent first), two questions and the latest next step")
    func contents() {
        let letter = WeeklyLetter.compose(week: monday.adding(days: 3), entries: week, moods: [])
        #expect(letter.start == monday && letter.end == monday.adding(days: 6))
        #expect(letter.entries == 6)
        #expect(letter.themes.map(\.theme) == [.work, .sleep, .family])
        #expect(letter.themes.first?.entries == 3)
        #expect(letter.moments.map(\.quote) == ["The walk cleared my head", "Called my sister", "Asked for help early"])
        #expect(letter.questions == [.helped(.work), .needs(.sleep)])
        #expect(letter.commitment == "Go to bed by eleven")
    }

    @Test("the same week gives the same letter twice, whatever order the entries come in")
    func identical() throws {
        let a = WeeklyLetter.compose(week: monday, entries: week, moods: [])
        let b = WeeklyLetter.compose(week: monday.adding(days: 6), entries: week.reversed(), moods: [])
        #expect(a == b)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(a) == encoder.encode(b))
    }

    @Test("an empty week gives the empty letter; a partial week gives what there is")
    func emptyAndPartial() {
        let empty = WeeklyLetter.compose(week: monday.adding(days: -7), entries: week, moods: [])
        #expect(empty.isEmpty)
        #expect(empty.moments.isEmpty && empty.themes.isEmpty && empty.commitment == nil)
        #expect(empty.questions == [.remember, .carry])
        let partial = WeeklyLetter.compose(week: monday, entries: [moment(3, "Slept eight hours", intensity: 3)], moods: [])
        #expect(partial.moments.count == 1)
        #expect(partial.themes.isEmpty)
        #expect(partial.questions == [.remember, .carry])
        #expect(partial.commitment == nil)
    }

    @Test("a week of mood logs alone is not empty: the letter and the digest follow one rule, and the letter shows the moods")
    func moodLogsAlone() {
        let moods = [MoodDay(day: monday, mood: .good), MoodDay(day: monday.adding(days: 1), mood: .good),
                     MoodDay(day: monday.adding(days: 2), mood: .bad), MoodDay(day: monday.adding(days: 9), mood: .great)]
        let letter = WeeklyLetter.compose(week: monday, entries: [], moods: moods)
        let digest = WeeklyDigest.compose(week: monday, entries: [], moods: moods, streak: nil, daysShowedUp: 3)
        #expect(!letter.isEmpty)
        #expect(letter.isEmpty == digest.isEmpty)
        #expect(letter.moodEntries == 3)
        #expect(letter.moods == [.init(mood: .good, entries: 2), .init(mood: .bad, entries: 1)])
        #expect(letter.questions == [.remember, .carry])
        let quiet = WeeklyLetter.compose(week: monday.adding(days: -7), entries: [], moods: moods)
        #expect(quiet.isEmpty)
        #expect(quiet.isEmpty == WeeklyDigest.compose(week: monday.adding(days: -7), entries: [], moods: moods, streak: nil, daysShowedUp: 0).isEmpty)
    }
}

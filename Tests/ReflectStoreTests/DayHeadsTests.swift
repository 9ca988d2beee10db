import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// The writer connection keeps the last rows of the day sets it wrote
// between journalled answers (DayHeads.swift), so an answer does not read
// them again. What it knows must give way to every other write: another
// connection's or process's, this connection's other transactions, and the
// other writes of days within the answer's own transaction. Each case
// below gives wrong running figures, or a refused answer (the day's row
// already there), when it does not.

@Suite("The writer's known last days")
struct DayHeadsTests {
    static let today = CalendarDay("2026-11-20") ?? CalendarDay(ordinal: 0)

    static func day(_ offset: Int) -> CalendarDay { today.adding(days: offset) }

    /// The showed-up row of `day`: (nth, run, best).
    static func showedUp(_ store: Store, _ day: CalendarDay) throws -> [Int]? {
        try store.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT nth, run, best FROM showed_up_day WHERE user = 'default' AND day = ?",
                             arguments: [day.ordinal]).map { [$0[0], $0[1], $0[2]] }
        }
    }

    @Test("a day another connection writes between two answers counts: the next answer's figures include it, and its own day is not written twice")
    func anotherConnectionsDay() throws {
        let store = try temporaryStore(reading: .serialized)
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "a", 0, .text("first")), activityDay: Self.day(0))
        // Another process (its own connection) logs a mood the next day.
        let other = try Store(path: store.path)
        try other.markActivity([.logged("mood", day: Self.day(1))], user: "default")
        try store.recordAnswer(answer("s1", "b", 1, .text("second")), activityDay: Self.day(2))
        #expect(try Self.showedUp(store, Self.day(2)) == [3, 3, 3])
        let (streak, _) = try store.progressFacts(user: "default", flow: "reflection.negative", today: Self.day(2))
        #expect(streak.current == 3 && streak.longest == 3)
        // The other process writes the day of this process's next answer
        // first: the answer finds it there.
        try other.markActivity([.logged("mood", day: Self.day(3))], user: "default")
        try store.recordAnswer(answer("s1", "c", 2, .text("third")), activityDay: Self.day(3))
        #expect(try Self.showedUp(store, Self.day(3)) == [4, 4, 4])
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM showed_up_day") } == 4)
    }

    @Test("a day this process writes outside an answer (a mood log, a prep mark) counts for the next answer's figures")
    func sameConnectionsOtherWrite() throws {
        let store = try temporaryStore(reading: .serialized)
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "a", 0, .text("first")), activityDay: Self.day(0))
        try store.markActivity([.logged("mood", day: Self.day(1))], user: "default")
        try store.recordAnswer(answer("s1", "b", 1, .text("second")), activityDay: Self.day(2))
        #expect(try Self.showedUp(store, Self.day(2)) == [3, 3, 3])
    }

    @Test("an earlier day written late makes the next answer's figures count it")
    func earlierDayWrittenLate() throws {
        let store = try temporaryStore(reading: .serialized)
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "a", 0, .text("first")), activityDay: Self.day(0))
        try store.recordAnswer(answer("s1", "b", 1, .text("second")), activityDay: Self.day(2))
        // Day 1 arrives late (an import, a clock moved back): days 0–2 are one run.
        try store.recordAnswer(answer("s1", "c", 2, .text("late")), activityDay: Self.day(1))
        #expect(try Self.showedUp(store, Self.day(2)) == [3, 3, 3])
        try store.recordAnswer(answer("s1", "d", 3, .text("next")), activityDay: Self.day(3))
        #expect(try Self.showedUp(store, Self.day(3)) == [4, 4, 4])
    }

    @Test("a completion's mood log in the last answer's own transaction marks the day once, with the answer's marks")
    func dayWrittenInTheSameTransaction() throws {
        let store = try temporaryStore(reading: .serialized)
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "a", 0, .text("first")), activityDay: Self.day(0))
        // The mood log (through MoodLog, not the answer's marks) writes day 1
        // before the answer's own marks do.
        try store.recordAnswer(answer("s1", "b", 1, .text("last")), completion: SessionCompletion(pre: 6, post: 3, at: "2026-11-21T20:10:00+01:00", moodDay: Self.day(1).description),
                               activityDay: Self.day(1))
        #expect(try Self.showedUp(store, Self.day(1)) == [2, 2, 2])
        try store.recordAnswer(answer("s1", "b", 1, .text("edited")), activityDay: Self.day(2))
        #expect(try Self.showedUp(store, Self.day(2)) == [3, 3, 3])
    }

    @Test("random answers, edits and days written late, interleaved with another connection's and this process's other writes: every row's figures are its set's own", arguments: UInt64(1)...4)
    func randomInterleavings(seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        let store = try temporaryStore(reading: .serialized)
        let other = try Store(path: store.path)
        for s in 0..<3 { try store.beginSession(session("s\(s)")) }
        var day = 0
        for i in 0..<160 {
            // Mostly the same day or the next, sometimes a few days on, now
            // and then an earlier day (a clock moved back).
            switch rng.next() % 10 {
            case 0..<5: break
            case 5..<8: day += 1
            case 8: day += 2 + Int(rng.next() % 3)
            default: day = max(0, day - 1 - Int(rng.next() % 4))
            }
            let d = Self.day(day)
            switch rng.next() % 6 {
            case 0:
                try other.markActivity([.logged(rng.next() % 2 == 0 ? "mood" : "prep", day: d)], user: "default")
            case 1:
                try store.markActivity([.logged("craving", day: d)], user: "default")
            default:
                let yes = rng.next() % 3 == 0
                let a = AnswerRecord(sessionID: "s\(rng.next() % 3)", step: StepID(stringLiteral: "q\(rng.next() % 6)"),
                                     position: Int(rng.next() % 6), kind: yes ? .yesNo : .text,
                                     question: "Question?", value: yes ? .boolean(true) : .text("answer \(i)"), answeredAt: "2026-11-20T20:00:00+01:00")
                try store.recordAnswer(a, activityDay: d)
            }
        }
        try Self.expectOwnFigures(store)
    }

    /// Every showed-up and step row's figures are those of its set's days.
    static func expectOwnFigures(_ store: Store) throws {
        let rows = try store.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT user, '', '', '', day, nth, run, best FROM showed_up_day
                UNION ALL SELECT user, flow, step, kind, day, nth, run, best FROM \(stepDaysWithTexts)
                ORDER BY 1, 2, 3, 4, 5
                """)
        }
        #expect(rows.count > 20)
        var key: [String] = [], nth = 0, run = 0, best = 0, last = Int.min
        for row in rows {
            let k: [String] = [row[0], row[1], row[2], row[3]]
            let d: Int = row[4]
            if k != key { (key, nth, run, best, last) = (k, 0, 0, 0, Int.min) }
            nth += 1
            run = last == d - 1 ? run + 1 : 1
            best = max(best, run)
            last = d
            #expect([row[5], row[6], row[7]] as [Int] == [nth, run, best], "\(k) day \(d)")
        }
    }
}

import Foundation
import GRDB
import GRDBSQLite
import Testing
import ReflectCore
@testable import ReflectStore

// Every `reflect run` reads the person's progress facts before its first
// prompt (`Store.progressFacts`): the showed-up streak and each step's
// streak, day count and this week's Yes days. They are read from the days'
// running figures (Store+DayRuns.swift), so twelve years of daily use cost
// the run what a month does. Counted in SQLite's own virtual-machine
// instructions (a progress handler called at every one), which depend on
// the work done and not on the machine.

/// Counts the SQLite VM instructions run on one connection.
private final class InstructionCounter: @unchecked Sendable {
    var count = 0
}

@Suite("Progress facts' cost")
struct ProgressFactsCostTests {
    /// A person who answered five steps of a flow (two of them Yes) and
    /// completed it on each of `days` days up to `today`, with a mood log
    /// each day.
    static func store(days: Int, today: CalendarDay) throws -> Store {
        let store = try temporaryStore(reading: .serialized)
        var marks: [ActivityMark] = []
        for d in 0..<days {
            let day = today.adding(days: -d)
            for step in ["focus", "identity", "reset", "start_day", "stress_response"] {
                marks.append(ActivityMark(day: day, flow: "coach.morning", step: step, kind: .saved))
            }
            marks.append(ActivityMark(day: day, flow: "coach.morning", step: "focus", kind: .positive))
            marks.append(ActivityMark(day: day, flow: "coach.morning", step: "reset", kind: .positive))
            marks.append(.completed(flow: "coach.morning", day: day))
            marks.append(.logged("mood", day: day))
        }
        try store.markActivity(marks.sorted { $0.day < $1.day }, user: "default")
        return store
    }

    /// SQLite VM instructions of one `progressFacts` read (on the writer
    /// connection, where a `.serialized` store reads).
    static func instructions(_ store: Store, today: CalendarDay) throws -> (Int, ProgressFacts) {
        let counter = InstructionCounter()
        let context = Unmanaged.passUnretained(counter).toOpaque()
        try store.writer.writeWithoutTransaction { db in
            sqlite3_progress_handler(db.sqliteConnection, 1, { context in
                guard let context else { return 0 }
                Unmanaged<InstructionCounter>.fromOpaque(context).takeUnretainedValue().count += 1
                return 0
            }, context)
        }
        let (_, facts) = try store.progressFacts(user: "default", flow: "coach.morning", today: today)
        try store.writer.writeWithoutTransaction { db in sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
        return (withExtendedLifetime(counter) { counter.count }, facts)
    }

    @Test("a run's progress facts take as much of SQLite's work with twelve years of daily use as with a month")
    func independentOfHistory() throws {
        let today = try #require(CalendarDay("2026-11-20"))
        let (month, monthFacts) = try Self.instructions(try Self.store(days: 30, today: today), today: today)
        let (years, yearsFacts) = try Self.instructions(try Self.store(days: 4_400, today: today), today: today)
        #expect(monthFacts.completed.streak == 30 && yearsFacts.completed.streak == 4_400)
        #expect(yearsFacts.steps.first { $0.step == "focus" }?.yesDays == 4_400)
        // The same look-ups (the b-trees' depth does not change SQLite's
        // instructions); a read that walks the days would take about 150
        // times as many.
        #expect(years <= month + month / 20, "\(years) instructions with 4,400 days against \(month) with 30")
    }
}

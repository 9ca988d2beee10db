import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// An import marks each added session's days on the session's day: its facts
// snapshot's day, else its clock's local date. The import reads only the
// snapshot's day (not the whole facts it validated): over a random export
// (facts with and without a day, days that are not calendar days, clocks
// around midnight in several offsets), the days it marks are the days the
// whole decoded facts give.

@Suite("Import: the session's day from its facts")
struct ImportSessionDayTests {
    @Test("over a random export, every session's marks are on the day its whole facts give")
    func randomExport() throws {
        var rng = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &rng)
        var random = SplitMix(seed: seed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var sessions: [ExportedSession] = []
        var expected = Set<String>()
        for i in 0..<200 {
            let offsets = ["+00:00", "+01:00", "-05:00", "+09:00", "+13:45"]
            let clock = String(format: "2026-%02d-%02dT%02d:%02d:00", 1 + Int(random.next() % 12), 1 + Int(random.next() % 28),
                               [0, 1, 3, 12, 22, 23][Int(random.next() % 6)], Int(random.next() % 60))
                + offsets[Int(random.next() % UInt64(offsets.count))]
            var facts: String?
            switch random.next() % 4 {
            case 0: facts = nil
            case 1:
                let days = [nil, "2026-11-19", "2025-02-28", "2026-13-45", "20261119", "", "1999-12-31"]
                let f = UserFacts(day: days[Int(random.next() % UInt64(days.count))], phase: random.next() % 2 == 0 ? .day : .evening,
                                  earlierAnswers: [], streak: nil, firstToday: random.next() % 2 == 0, firstEver: false)
                facts = String(decoding: try encoder.encode(f), as: UTF8.self)
            case 2: facts = "{}"
            default: facts = #"{"day":null,"firstToday":true,"phase":"evening"}"#
            }
            let completed = random.next() % 3 != 0
            sessions.append(ExportedSession(
                id: "s\(i)", flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil, user: "u", mood: nil,
                seed: UInt64(i), clock: clock, startedAt: clock, completedAt: completed ? clock : nil, status: completed ? .completed : .active,
                pre: nil, post: nil,
                answers: [ExportedAnswer(step: StepID("q\(i)") ?? "q", position: 0, kind: "text", question: "Q?", value: .text("An answer"), state: .answer,
                                         answeredAt: clock, safety: nil)],
                distortions: [], events: [], facts: facts))
            // The day as the whole facts give it (what the import did before).
            let whole = try facts.map { try JSONDecoder().decode(UserFacts.self, from: Data($0.utf8)) }
            let local = try #require(FlowClock(iso8601: clock)?.local)
            let day = try #require(whole?.day.flatMap(CalendarDay.init) ?? CalendarDay(year: local.year, month: local.month, day: local.day))
            expected.insert("reflection.negative/q\(i)/saved/\(day.ordinal)")
            if completed { expected.insert("reflection.negative//completed/\(day.ordinal)") }
        }
        let store = try Store(path: FileManager.default.temporaryDirectory.appendingPathComponent("reflect-import-day-\(UUID().uuidString).sqlite").path)
        let report = try store.importDocument(ExportDocument(exportedAt: "2026-11-24T00:00:00Z", sessions: sessions, moodEntries: []))
        #expect(report.sessionsAdded == sessions.count)
        let marked = try store.writer.read { db in
            Set(try Row.fetchAll(db, sql: "SELECT flow, step, kind, day FROM \(stepDaysWithTexts) WHERE user = 'u'").map { row -> String in
                let flow: String = row["flow"], step: String = row["step"], kind: String = row["kind"], day: Int = row["day"]
                return "\(flow)/\(step)/\(kind)/\(day)"
            })
        }
        #expect(marked == expected, "seed \(seed)")
    }
}

/// A small seeded generator, so that a failure names its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

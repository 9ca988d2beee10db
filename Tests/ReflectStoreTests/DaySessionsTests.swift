import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Issue 20: a session's logical day is read from its facts snapshot by
/// SQLite (`json_extract`), not by decoding every session's whole facts
/// with JSONDecoder at each run's start. Both readings must place every
/// session Reflect can store on the same day.
@Suite("The day's sessions, placed by their facts")
struct DaySessionsTests {
    /// The reading before issue 20's change: the whole facts decoded as
    /// ``UserFacts``; its day, else the clock under `rules`.
    static func decodedDay(facts: String?, clock: String, rules: DayRules) -> CalendarDay? {
        if let facts, let decoded = try? JSONDecoder().decode(UserFacts.self, from: Data(facts.utf8)),
           let day = decoded.day.flatMap(CalendarDay.init) {
            return day
        }
        return FlowClock(iso8601: clock).map { rules.moment($0).day }
    }

    @Test("on 400 sessions with random facts (well-formed, without a day, malformed, foreign), both readings agree")
    func randomFacts() throws {
        var rng = SystemRandomNumberGenerator()
        let store = try temporaryStore()
        let rules = DayRules()
        let days = ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"]
        let encoder = JSONEncoder()
        func encoded(_ f: UserFacts, sorted: Bool = false, pretty: Bool = false) -> String {
            let e = JSONEncoder()
            e.outputFormatting = [sorted ? .sortedKeys : [], pretty ? .prettyPrinted : []]
            return (try? e.encode(f)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
        var inserted: [(id: String, clock: String, facts: String?)] = []
        for i in 0..<400 {
            let day = days.randomElement(using: &rng) ?? "2026-11-24"
            let hour = Int.random(in: 0..<24, using: &rng)
            let offset = ["+01:00", "-05:00", "+09:00", "Z"].randomElement(using: &rng) ?? "Z"
            // Clocks near the day looked at, so that the query's clock range holds every candidate.
            let clockDay = days.dropFirst().dropLast().randomElement(using: &rng) ?? day
            let clock = "\(clockDay)T\(hour < 10 ? "0" : "")\(hour):15:00\(offset)"
            let full = UserFacts(day: day, phase: .day, earlierAnswers: [EarlierAnswer(flow: "reflection.negative", step: "q1", value: .text("x \(i)"))],
                                 firstToday: Bool.random(using: &rng), firstEver: false)
            let facts: String?
            switch Int.random(in: 0..<14, using: &rng) {
            case 0: facts = nil
            case 1: facts = encoded(full)
            case 2: facts = encoded(full, sorted: true, pretty: true)
            case 3: facts = encoded(UserFacts(day: nil, phase: .evening))
            case 4: facts = encoded(UserFacts(day: ["yesterday", "2026-13-40", "", "2026-11-2"].randomElement(using: &rng)))
            case 5: facts = String(encoded(full).prefix(Int.random(in: 1..<20, using: &rng)))  // truncated
            case 6: facts = "{\"day\": 20261124}"
            case 7: facts = ["[]", "\"2026-11-24\"", "null", "42", "", "not json"].randomElement(using: &rng)
            case 8: facts = "{\"day\": null, \"firstEver\": true}"
            case 9: facts = "{\"day\":\"\(day.replacingOccurrences(of: "-", with: "\\u002d"))\"}"  // escapes
            case 10: facts = "{\"nested\": {\"day\": \"\(day)\"}}"
            case 11: facts = "  {\n \"day\" : \"\(day)\" }  "
            case 12: facts = (try? encoder.encode(UserFacts(day: day, streak: StreakFigures(current: 2, longest: 5, lastSevenDays: 3)))).map { String(decoding: $0, as: UTF8.self) }
            default: facts = "{\"day\": \"\(day)\", \"phase\": \"evening\"}"
            }
            let id = "s\(i)"
            var record = session(id, started: clock)
            record.facts = facts
            try store.beginSession(record)
            inserted.append((id, clock, facts))
        }
        for target in ["2026-11-24"] {
            guard let day = CalendarDay(target) else { Issue.record("bad day \(target)"); continue }
            let got = try store.daySessions(user: "default", from: day, to: day, rules: rules)
            // Ties in started_at keep insertion (rowid) order: a stable sort.
            let expected = inserted.enumerated()
                .filter { DaySessionsTests.decodedDay(facts: $0.element.facts, clock: $0.element.clock, rules: rules) == day }
                .sorted { ($0.element.clock, $0.offset) < ($1.element.clock, $1.offset) }
                .map(\.element.id)
            #expect(got.map(\.id) == expected, "sessions on \(target)")
            #expect(got.allSatisfy { $0.day == day })
        }
    }
}

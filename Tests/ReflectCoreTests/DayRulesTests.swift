import Foundation
import Testing
@testable import ReflectCore

@Suite("Logical day and phase")
struct DayRulesTests {
    func moment(_ iso: String, _ rules: DayRules = DayRules()) throws -> DayMoment {
        rules.moment(try #require(FlowClock(iso8601: iso)))
    }

    @Test("00:30 on Tuesday belongs to Monday's evening with the default 04:00 boundary")
    func afterMidnight() throws {
        let m = try moment("2026-11-24T00:30:00+01:00")
        #expect(m.day.description == "2026-11-23")
        #expect(m.calendarDate.description == "2026-11-24")
        #expect(m.phase == .evening)
        #expect(m.time.description == "00:30")
    }

    @Test("phase: day from the boundary to 17:59, evening from 18:00 to the next boundary")
    func phases() throws {
        let cases: [(String, String, DayPhase)] = [
            ("03:59", "2026-11-23", .evening), ("04:00", "2026-11-24", .day), ("07:30", "2026-11-24", .day),
            ("17:59", "2026-11-24", .day), ("18:00", "2026-11-24", .evening), ("23:59", "2026-11-24", .evening),
        ]
        for (time, day, phase) in cases {
            let m = try moment("2026-11-24T\(time):00Z")
            #expect(m.day.description == day, "\(time)")
            #expect(m.phase == phase, "\(time)")
        }
    }

    @Test("the boundary is an input: with 00:00, 00:30 is already the new day's day phase")
    func boundaryInput() throws {
        let midnight = try #require(ClockTime(parsing: "00:00"))
        let m = try moment("2026-11-24T00:30:00Z", DayRules(boundary: midnight))
        #expect(m.day.description == "2026-11-24")
        #expect(m.phase == .day)
    }

    @Test("a named zone decides the local time, not the offset the instant was written with")
    func namedZone() throws {
        let berlin = try #require(PersonTimeZone.named("Europe/Berlin"))
        // 22:30 UTC is 23:30 in Berlin in winter, 17:30 in New York.
        let m = try moment("2026-11-23T22:30:00Z", DayRules(timeZone: berlin))
        #expect(m.time.description == "23:30")
        #expect(m.day.description == "2026-11-23")
        let ny = try #require(PersonTimeZone.named("America/New_York"))
        let n = try moment("2026-11-23T22:30:00Z", DayRules(timeZone: ny))
        #expect(n.time.description == "17:30")
        #expect(n.phase == .day)
        // Summer time is the zone's: 2026-07-01 22:30 UTC is 00:30 on 2 July in Berlin, still 1 July's evening.
        let summer = try moment("2026-07-01T22:30:00Z", DayRules(timeZone: berlin))
        #expect(summer.calendarDate.description == "2026-07-02")
        #expect(summer.day.description == "2026-07-01")
        #expect(summer.clock.utcOffsetSeconds == 7200)
    }

    @Test("without a named zone the instant's own offset is used")
    func clockOffset() throws {
        #expect(try moment("2026-11-24T07:30:00-08:00").day.description == "2026-11-24")
        #expect(try moment("2026-11-24T07:30:00-08:00").time.description == "07:30")
        #expect(try moment("2026-11-24T15:30:00Z").phase == .day)
    }

    @Test("unknown zones are refused")
    func unknownZones() {
        #expect(PersonTimeZone.named("Mars/Olympus_Mons") == nil)
        #expect(PersonTimeZone.named("") == nil)
        #expect(PersonTimeZone.named("Europe/Berlin") != nil)
        #expect(PersonTimeZone.named("UTC") != nil)
    }

    @Test("calendar days: parse, print, add across months and leap years, weekday")
    func calendarDays() throws {
        let d = try #require(CalendarDay("2024-02-28"))
        #expect(d.adding(days: 1).description == "2024-02-29")
        #expect(d.adding(days: 2).description == "2024-03-01")
        #expect(try #require(CalendarDay("2026-01-01")).adding(days: -1).description == "2025-12-31")
        #expect(CalendarDay("2026-02-29") == nil)
        #expect(CalendarDay("2026-13-01") == nil)
        #expect(CalendarDay("26-01-01") == nil)
        #expect(try #require(CalendarDay("2026-11-24")).weekday == 3) // a Tuesday
        #expect(try #require(CalendarDay("1970-01-01")).ordinal == 0)
    }

    @Test("clock times: HH:MM only, 00:00–23:59")
    func clockTimes() {
        #expect(ClockTime(parsing: "04:00")?.description == "04:00")
        #expect(ClockTime(parsing: "9:05")?.description == "09:05")
        for bad in ["25:00", "24:00", "12:60", "noon", "4", "04:0", "-1:00", "04:00:00", ""] {
            #expect(ClockTime(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("phases stored by older saves (morning … night) still read")
    func olderPhaseNames() throws {
        let decoded = try JSONDecoder().decode([DayPhase].self, from: Data(#"["morning","afternoon","evening","night","day"]"#.utf8))
        #expect(decoded == [.day, .day, .evening, .evening, .day])
        #expect(String(decoding: try JSONEncoder().encode(DayPhase.day), as: UTF8.self) == "\"day\"")
    }
}

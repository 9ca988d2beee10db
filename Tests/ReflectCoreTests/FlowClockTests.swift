import Foundation
import Testing
@testable import ReflectCore

@Suite("FlowClock")
struct FlowClockTests {
    @Test("a +hh:mm offset is kept and the local hour follows it")
    func positiveOffset() throws {
        let clock = try #require(FlowClock(iso8601: "2026-11-22T08:30:00+01:00"))
        #expect(clock.utcOffsetSeconds == 3600)
        #expect(clock.date == Date(timeIntervalSince1970: 1_795_332_600)) // 07:30 UTC
        #expect(clock.local == LocalTime(year: 2026, month: 11, day: 22, hour: 8, minute: 30, weekday: 1)) // a Sunday
    }

    @Test("Z means UTC")
    func zulu() throws {
        let clock = try #require(FlowClock(iso8601: "2026-11-23T04:30:00Z"))
        #expect(clock.utcOffsetSeconds == 0)
        #expect(clock.date == Date(timeIntervalSince1970: 1_795_408_200))
        #expect(clock.local == LocalTime(year: 2026, month: 11, day: 23, hour: 4, minute: 30, weekday: 2))
    }

    @Test("a negative offset can put the local day before the UTC day")
    func negativeOffset() throws {
        let clock = try #require(FlowClock(iso8601: "2026-11-22T23:30:00-05:00"))
        #expect(clock.utcOffsetSeconds == -18_000)
        #expect(clock.date == Date(timeIntervalSince1970: 1_795_408_200)) // same instant as 2026-11-23T04:30Z
        #expect(clock.local.day == 22)
        #expect(clock.local.hour == 23)
        #expect(clock.local.weekday == 1)
    }

    @Test("half-hour offsets keep their minutes")
    func halfHourOffset() throws {
        let clock = try #require(FlowClock(iso8601: "2026-11-22T08:30:00+05:30"))
        #expect(clock.utcOffsetSeconds == 19_800)
        #expect(clock.date == Date(timeIntervalSince1970: 1_795_316_400))
        #expect(clock.local.hour == 8)
        #expect(clock.local.minute == 30)
    }

    @Test("iso8601 prints the instant at its own offset", arguments: [
        "2026-11-22T08:30:00+01:00", "2026-11-22T23:30:00-05:00", "2026-11-22T08:30:00+05:30", "2026-11-23T04:30:00Z",
    ])
    func printsBack(text: String) throws {
        let clock = try #require(FlowClock(iso8601: text))
        #expect(clock.iso8601 == text)
        #expect(FlowClock(iso8601: clock.iso8601) == clock)
    }

    @Test("the local fields of an instant depend only on the offset")
    func localFromDate() {
        let midnightUTC = Date(timeIntervalSince1970: 946_684_800) // 2000-01-01T00:00:00Z, a Saturday
        #expect(FlowClock(date: midnightUTC, utcOffsetSeconds: 0).local
                == LocalTime(year: 2000, month: 1, day: 1, hour: 0, minute: 0, weekday: 7))
        #expect(FlowClock(date: midnightUTC, utcOffsetSeconds: -3600).local
                == LocalTime(year: 1999, month: 12, day: 31, hour: 23, minute: 0, weekday: 6))
        #expect(FlowClock(date: midnightUTC, utcOffsetSeconds: 9 * 3600).local.hour == 9)
    }

    @Test("text that is not an ISO-8601 date with an offset gives nil", arguments: [
        "", "yesterday", "2026-11-22", "2026-11-22T08:30:00", "2026-13-01T00:00:00Z", "2026-11-22T25:00:00Z",
        "08:30:00+01:00", "2026-11-22T08:30:00+01:00 extra",
    ])
    func invalid(text: String) {
        #expect(FlowClock(iso8601: text) == nil)
    }
}

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

    // FlowClock reads, prints and splits timestamps by arithmetic (an ICU
    // formatter per call cost most of an import); Foundation's formatter
    // and calendar are the reference it must agree with exactly.
    static func reference(offset: Int) -> ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(secondsFromGMT: offset)
        return f
    }

    @Test("timestamps print, read back and split into local fields as Foundation's formatter and calendar do")
    func agreesWithFoundation() throws {
        var rng = SeededRandom(seed: 20)
        for i in 0..<400 {
            // Instants from 1601 to 9998 (and near today more often).
            let seconds = i % 2 == 0 ? Int(rng.integer(in: -11_600_000_000...253_300_000_000)) : Int(rng.integer(in: 1_700_000_000...1_900_000_000))
            // Offsets as zones have them (whole, half and three-quarter hours).
            let offset = i % 5 == 0 ? 0 : Int(rng.integer(in: -12...14)) * 3600 + [0, 1800, 2700][Int(rng.integer(in: 0...2))]
            let date = Date(timeIntervalSince1970: TimeInterval(seconds) + (i % 3 == 0 ? 0.75 : 0))
            let reference = FlowClockTests.reference(offset: offset)
            let text = reference.string(from: date)
            let clock = FlowClock(date: date, utcOffsetSeconds: offset)
            #expect(clock.iso8601 == text)
            let read = try #require(FlowClock(iso8601: text))
            #expect(read.date == reference.date(from: text))
            #expect(read.utcOffsetSeconds == offset)
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = try #require(TimeZone(secondsFromGMT: offset))
            let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
            #expect(clock.local == LocalTime(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0, hour: c.hour ?? 0,
                                             minute: c.minute ?? 0, weekday: c.weekday ?? 0))
        }
    }

    @Test("a time Foundation's lenient parser rolls over, or an offset no zone can have, is not a time", arguments: [
        "2026-02-30T10:00:00Z", "2026-02-29T08:00:00Z", "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z",
        "2026-11-25T10:00:00+99:00", "2026-11-25T10:00:00+18:30", "2026-11-25T10:00:00-23:59", "2026-11-25T10:00:00+01:60",
        "1500-02-30T10:00:00Z", "1500-01-01T10:00:00+19:00", "1500-01-01T10:00:00+16:00", "1500-01-01T10:00:00-15:00",
    ])
    func rolledOverOrImpossibleOffset(text: String) {
        #expect(FlowClock(iso8601: text) == nil)
    }

    @Test("a clock made with an offset beyond ±18 h is written out (in UTC) instead of stopping the process")
    func impossibleOffsetWritesOut() {
        let date = Date(timeIntervalSince1970: 1_795_332_600)
        #expect(FlowClock(date: date, utcOffsetSeconds: 99 * 3600).iso8601 == "2026-11-22T07:30:00Z")
        // Outside the years 1600–9999 Foundation's formatter writes the time: not with 15 hours or more.
        let early = Date(timeIntervalSince1970: -62_135_596_800)
        for offset in [15 * 3600, 18 * 3600, -16 * 3600, 20 * 3600] {
            #expect(FlowClock(date: early, utcOffsetSeconds: offset).iso8601 == FlowClockTests.reference(offset: 0).string(from: early))
        }
    }

    @Test("a timestamp is taken exactly when Foundation's formatter takes it with an offset within ±18:00 and it reads back as written", arguments: [
        "2026-02-29T08:00:00Z", "2028-02-29T08:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-11-00T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T23:60:00Z", "2026-11-22T23:59:60Z",
        "2026-11-22T08:30:00+18:00", "2026-11-22T08:30:00-18:00", "2026-11-22T08:30:00+18:30", "2026-11-22T08:30:00+23:59",
        "2026-11-22T08:30:00+01:60", "2026-11-22T08:30:00+0100", "2026-11-22T08:30:00.5Z", "2026-11-22t08:30:00Z",
        "2026-11-22T08:30:00z", "2026-11-22 08:30:00Z", "2026-1-22T08:30:00Z", "+2026-11-22T08:30:00Z", "2026-11-22T08:30:00+01:00Z",
        "0999-12-31T23:59:59Z", "1582-10-10T00:00:00Z", "1600-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-11-22T08:30:0１Z",
    ])
    func acceptsAsFoundationDoes(text: String) {
        let reference = FlowClockTests.reference(offset: 0)
        let tail = text.suffix(6)
        let offsetShaped = text.hasSuffix("Z") || text.hasSuffix("z")
            || (tail.count == 6 && (tail.first == "+" || tail.first == "-") && Int(tail.dropFirst().prefix(2)) != nil && Int(tail.suffix(2)) != nil)
        let offset = text.hasSuffix("Z") || text.hasSuffix("z") ? 0
            : (tail.first == "-" ? -1 : 1) * ((Int(tail.dropFirst().prefix(2)) ?? 99) * 3600 + (Int(tail.suffix(2)) ?? 99) * 60)
        let expected = reference.date(from: text).flatMap { date -> Date? in
            guard offsetShaped, abs(offset) <= 18 * 3600, let zone = TimeZone(secondsFromGMT: offset) else { return nil }
            // The formatter cannot write 15 hours or more: from there, only the
            // arithmetic path (years 1600–9999, checked field by field) takes a time.
            if abs(offset) >= 15 * 3600 { return text.count == 25 && text.prefix(4) >= "1600" ? date : nil }
            // Read back at its own offset, the time must be the one written (no roll-over).
            let back = FlowClockTests.reference(offset: zone.secondsFromGMT()).string(from: date)
            let written = text.hasSuffix("Z") || text.hasSuffix("z") ? text.dropLast() : text.dropLast(6)
            return (back.hasSuffix("Z") ? back.dropLast() : back.dropLast(6)) == written ? date : nil
        }
        #expect(FlowClock(iso8601: text)?.date == expected)
    }
}

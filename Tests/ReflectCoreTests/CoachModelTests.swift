import Foundation
import Testing
@testable import ReflectCore

@Suite("Coach: Today model, deep links, reminders, iCalendar, coach context")
struct CoachModelTests {
    func moment(_ iso: String) throws -> DayMoment { DayRules().moment(try #require(FlowClock(iso8601: iso))) }

    func model(_ iso: String, days: [CalendarDay: TodayModel.DayRecord] = [:]) throws -> TodayModel {
        TodayModel.build(TodayModel.Input(moment: try moment(iso), days: days, library: PrepLibrary.defaults,
                                          text: { "<\($0)>" }, dayLabel: { "d\($0.day)" }))
    }

    @Test("day phase: last night's prep collapsed, dimmed, read-only on top; Morning Focus expanded; end of day hidden")
    func dayPhase() throws {
        let yesterday = try #require(CalendarDay("2026-11-23"))
        let m = try model("2026-11-24T09:00:00+01:00", days: [yesterday: .init(eveningDone: true, prep: [PrepMark(itemID: "water", mark: .done)])])
        #expect(m.phase == .day)
        #expect(m.sections.map(\.id) == [.lastNightPrep, .morningFocus, .endOfDay, .prepTonight])
        #expect(m.sections.map(\.display) == [.collapsed, .expanded, .hidden, .hidden])
        #expect(m.sections[0].dimmed && m.sections[0].readOnly)
        #expect(m.sections[0].label == "<coach.today.last_night_prep>")
        #expect(m.sections[0].marks.map(\.text) == ["<coach.prep.item.water>"])
        #expect(m.needHelp.available && m.needHelp.link == "reflect://needHelp")
    }

    @Test("evening phase: Morning Focus collapsed and dimmed, End-of-Day and Prep Tonight expanded below it")
    func eveningPhase() throws {
        let m = try model("2026-11-24T21:00:00+01:00")
        #expect(m.phase == .evening)
        #expect(m.sections.prefix(3).map(\.id) == [.morningFocus, .endOfDay, .prepTonight])
        #expect(m.sections.prefix(3).map(\.display) == [.collapsed, .expanded, .expanded])
        #expect(m.sections[0].dimmed)
        #expect(!m.sections[1].dimmed && !m.sections[2].readOnly)
    }

    @Test("the last 7 days end today, labelled Today and by date, with morning, evening and prep marks per day")
    func lastSevenDays() throws {
        let d = try #require(CalendarDay("2026-11-20"))
        // As the store returns them (by item id), not in library order.
        let marks = [PrepMark(itemID: "breakfast", mark: .skip), PrepMark(itemID: "produce", mark: .done), PrepMark(itemID: "water", mark: .partly)]
        let m = try model("2026-11-24T00:30:00+01:00", days: [d: .init(morningDone: true, eveningDone: false, prep: marks)])
        #expect(m.day.description == "2026-11-23")
        #expect(m.lastSevenDays.map(\.day.description) == ["2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"])
        #expect(m.lastSevenDays.last?.label == "<coach.today.today>")
        #expect(m.lastSevenDays[3].label == "d20")
        #expect(m.lastSevenDays[3].morningDone && !m.lastSevenDays[3].eveningDone)
        // In the Prep Library's order (the checklist's), each with its item's text.
        #expect(m.lastSevenDays[3].prep.map(\.id) == ["produce", "water", "breakfast"])
        #expect(m.lastSevenDays[3].prep.map(\.mark) == [.done, .partly, .skip])
        #expect(m.lastSevenDays[3].prep.first?.text == "<coach.prep.item.produce>")
    }

    @Test("deep links resolve to their flows; anything else is a clear error")
    func deepLinks() throws {
        #expect(try DeepLink(url: "reflect://needHelp").flowID == "coach.need-help")
        #expect(try DeepLink(url: "reflect://prepTonight/").flowID == "coach.evening")
        #expect(try DeepLink(url: "reflect://reviewPrep").flowID == "coach.morning")
        #expect(try DeepLink(url: "reflect://partsLetter").flowID == "journal.parts-letter")
        for bad in ["reflect://nowhere", "https://example.com", "needHelp", "reflect://"] {
            #expect(throws: DeepLinkError.self) { try DeepLink(url: bad) }
        }
        do { _ = try DeepLink(url: "reflect://nowhere") } catch {
            #expect(error.description == "unknown link 'reflect://nowhere' (links: reflect://prepTonight, reflect://reviewPrep, reflect://needHelp, reflect://partsLetter)")
        }
    }

    @Test("reminders: morning review and evening prep by default, midday help when set; times from the settings")
    func schedule() throws {
        var s = Settings()
        #expect(Reminder.schedule(s).map(\.id) == [.morningReview, .eveningPrep])
        #expect(Reminder.schedule(s).map(\.time.description) == ["08:00", "21:00"])
        try s.setting(.middayReminder, to: "12:30")
        try s.setting(.eveningReminder, to: "20:15")
        #expect(Reminder.schedule(s).map(\.id) == [.morningReview, .middayHelp, .eveningPrep])
        #expect(Reminder.schedule(s).map(\.link) == [.reviewPrep, .needHelp, .prepTonight])
        #expect(Reminder.schedule(s)[0].bodyKey(.rude) == "coach.reminder.morning_review.rude")
        // The weekly parts letter comes after the daily ones, whatever its time.
        try s.setting(.partsLetterReminder, to: "sun 07:00")
        #expect(Reminder.schedule(s).map(\.id) == [.morningReview, .middayHelp, .eveningPrep, .partsLetter])
        #expect(Reminder.schedule(s).last.map { [$0.schedule, $0.link.url] } == ["sun 07:00", "reflect://partsLetter"])
        #expect(Reminder.schedule(s).dropLast().allSatisfy { $0.weekday == nil })
    }

    @Test("iCalendar: CRLF lines of at most 75 octets, folded inside no UTF-8 sequence, TEXT escaped, a daily rule and an alarm per event")
    func ics() throws {
        let long = String(repeating: "Glück, ", count: 30) + "fin; \\ end\nnext"
        let text = ICalendar.calendar([ICalendar.Event(uid: "a@reflect", start: ClockTime(valid: 21, 0), title: "Prep", body: long,
                                                       url: "reflect://prepTonight")],
                                      firstDay: try #require(CalendarDay("2026-11-24")),
                                      stamp: try #require(FlowClock(iso8601: "2026-11-24T07:30:00+01:00")), name: "Reflect")
        #expect(text.hasSuffix("\r\n"))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("DTSTART:20261124T210000\r\n"))
        #expect(unfolded.contains("DTSTAMP:20261124T063000Z\r\n"))
        #expect(unfolded.contains("RRULE:FREQ=DAILY\r\n"))
        #expect(unfolded.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\n"))
        #expect(unfolded.contains("Glück\\, Glück"))
        #expect(unfolded.contains("fin\\; \\\\ end\\nnext"))
    }

    @Test("coach context: why = identity + focus, swap = plan + snack, commit = focus; nudge in the spec's order")
    func context() {
        let earlier = [
            EarlierAnswer(flow: "coach.morning", step: "identity", value: .text("I am someone who rests")),
            EarlierAnswer(flow: "coach.morning", step: "focus", value: .text("a walk after lunch")),
            EarlierAnswer(flow: "coach.morning", step: "stress_response", value: .text("dance to one song")),
            EarlierAnswer(flow: "coach.morning", step: "snack", value: .text("an apple")),
        ]
        let c = CoachContext.make(earlier: earlier, streak: StreakFigures(current: 7, longest: 9, lastSevenDays: 7),
                                  cravings: [.habit, .stress, .stress]) { $0.key }
        #expect(c.todayWhy == "I am someone who rests — a walk after lunch")
        #expect(c.todaySwap == "dance to one song — an apple")
        #expect(c.commitTo == "a walk after lunch" && c.commitFrom == "")
        #expect(c.nudge == "coach.nudge.streak_7")
        #expect(c.cravingTypes.first?.type == .stress && c.cravingTypes.first?.count == 2)
        #expect(Nudge.pick(currentStreak: 8, daysThisWeek: 5) == .fiveDays)
        #expect(Nudge.pick(currentStreak: 8, daysThisWeek: 4) == nil)
        #expect(CoachContext.make(earlier: [], streak: nil, cravings: []) { $0.key }.nudge == nil)
    }
}

import Testing
@testable import ReflectCore

@Suite("Settings")
struct SettingsTests {
    @Test("defaults: auto zone, 04:00 boundary, reminders 08:00 and 21:00, midday off, nice voice, celebrations on")
    func defaults() {
        let s = Settings()
        #expect(s.entries.map { "\($0.key.rawValue)=\($0.value)" } == [
            "time_zone=auto", "day_boundary=04:00", "morning_reminder=08:00", "evening_reminder=21:00",
            "midday_reminder=off", "parts_letter_reminder=off", "voice=nice", "celebrations=on", "personality=default",
            "chat_history_days=off", "llm_url=off", "llm_model=default",
        ])
    }

    @Test("the chat's keys: history days 1–3650 or off, an http(s) server URL or off; anything else is refused")
    func chatKeys() throws {
        var s = Settings()
        try s.setting(.chatHistoryDays, to: "30")
        #expect(s.chatHistoryDays == 30)
        try s.setting(.chatHistoryDays, to: "off")
        #expect(s.chatHistoryDays == nil)
        #expect(throws: SettingsError.self) { try s.setting(.chatHistoryDays, to: "0") }
        try s.setting(.llmURL, to: "http://127.0.0.1:8080/v1")
        #expect(s.text(of: .llmURL) == "http://127.0.0.1:8080/v1")
        #expect(throws: SettingsError.self) { try s.setting(.llmURL, to: "file:///etc/passwd") }
    }

    @Test("the parts letter's weekly reminder: a weekday (three letters or in full, any case) and a time, or off; anything else is refused")
    func weeklyReminder() throws {
        var s = Settings()
        for (text, shown) in [("sun 19:00", "sun 19:00"), ("Sunday 9:30", "sun 09:30"), ("MON 07:05", "mon 07:05"), ("sat\t23:59", "sat 23:59")] {
            try s.setting(.partsLetterReminder, to: text)
            #expect(s.text(of: .partsLetterReminder) == shown)
        }
        #expect(s.partsLetterReminder?.weekday == 7 && s.partsLetterReminder?.calendarDay == "SA")
        for bad in ["19:00", "sun", "sun 25:00", "funday 19:00", "su 19:00", "sun 19:00 weekly", "sonntag 19:00"] {
            #expect(throws: SettingsError.self, "\(bad)") { try s.setting(.partsLetterReminder, to: bad) }
            #expect(s.text(of: .partsLetterReminder) == "sat 23:59", "a refused value changes nothing")
        }
        try s.setting(.partsLetterReminder, to: "off")
        #expect(s.partsLetterReminder == nil)
    }

    @Test("a weekly time's first day on or after any day falls on its weekday, at most six days later")
    func firstWeeklyDay() throws {
        let start = try #require(CalendarDay("2026-11-23")) // a Monday
        for weekday in 1...7 {
            let weekly = try #require(WeeklyTime(weekday: weekday, time: ClockTime(valid: 19, 0)))
            for offset in 0..<14 {
                let day = start.adding(days: offset)
                let first = weekly.firstDay(onOrAfter: day)
                #expect(first.weekday == weekday && first >= day && first < day.adding(days: 7))
            }
        }
    }

    @Test("each value set as text reads back the same")
    func roundTrip() throws {
        var s = Settings()
        try s.setting(.timeZone, to: "Europe/Berlin")
        try s.setting(.dayBoundary, to: "5:30")
        try s.setting(.middayReminder, to: "12:15")
        try s.setting(.partsLetterReminder, to: "Sunday 19:30")
        try s.setting(.voice, to: "rude")
        try s.setting(.celebrations, to: "off")
        try s.setting(.personality, to: "zen")
        var again = Settings()
        for (key, value) in s.entries { try again.setting(key, to: value) }
        #expect(again == s)
        #expect(s.text(of: .dayBoundary) == "05:30")
        #expect(s.dayRules.boundary.description == "05:30")
    }

    @Test("illegal values are refused with the key and what is legal, and change nothing")
    func refusals() {
        var s = Settings()
        let before = s
        let cases: [(SettingKey, String)] = [
            (.dayBoundary, "25:00"), (.dayBoundary, "13:00"), (.timeZone, "Mars/Base"), (.voice, "mean"),
            (.celebrations, "maybe"), (.personality, "../etc"), (.eveningReminder, "9pm"),
        ]
        for (key, value) in cases {
            #expect(throws: SettingsError.self, "\(key) \(value)") { try s.setting(key, to: value) }
            do { try s.setting(key, to: value) } catch {
                #expect(error.description.hasPrefix("\(key.rawValue): '\(value)'"))
                #expect(error.description.contains("Nothing was changed"))
            }
        }
        #expect(s == before)
    }

    @Test("names are taken with dashes or underscores")
    func keyNames() {
        #expect(SettingKey(name: "day-boundary") == .dayBoundary)
        #expect(SettingKey(name: "TIME_ZONE") == .timeZone)
        #expect(SettingKey(name: "colour") == nil)
    }
}

import Foundation
import Testing

/// Issue 14: Today, reminders (.ics checked by a real iCalendar parser),
/// deep links and the coach context, through the command line.
@Suite("reflect today, reminders, open and coach context", .hangGuard)
struct CoachDayCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-coachday-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    func json(_ out: CLIRunner.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any], "\(out.stderr)")
    }

    /// Parses an .ics with Debian's python3-icalendar (installed by
    /// scripts/ensure-system-packages) and prints, per VEVENT: summary,
    /// rrule freq, the alarm's action, the start's hour:minute.
    func parseICS(_ ics: String) throws -> (status: Int32, lines: [String], error: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-\(UUID().uuidString).ics")
        try Data(ics.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import sys, icalendar
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            assert cal.get('VERSION') == '2.0' and cal.get('PRODID'), 'VERSION and PRODID are required'
            for ev in cal.walk('VEVENT'):
                for required in ('UID', 'DTSTAMP', 'DTSTART'):
                    assert ev.get(required) is not None, required + ' missing'
                alarms = ev.walk('VALARM')
                assert len(alarms) == 1 and alarms[0].get('TRIGGER') is not None
                start = ev.decoded('DTSTART')
                print('|'.join([str(ev.get('SUMMARY')), ev.get('RRULE')['FREQ'][0], str(alarms[0].get('ACTION')),
                                '%02d:%02d' % (start.hour, start.minute), str(ev.get('DESCRIPTION')).replace('\\n', ' / ')]))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script, file.path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self).split(separator: "\n").map(String.init), String(decoding: e, as: UTF8.self))
    }

    @Test("reflect reminders --format ics --locale de --voice rude parses as valid iCalendar: 2 daily events, 3 with midday set")
    func icsParses() throws {
        let two = try reflect(["reminders", "--format", "ics", "--locale", "de", "--voice", "rude", "--now", "2026-11-24T07:30:00+01:00"])
        #expect(two.status == 0, "\(two.stderr)")
        #expect(two.stdout.contains("\r\n"))
        let parsed = try parseICS(two.stdout)
        #expect(parsed.status == 0, "\(parsed.error)")
        #expect(parsed.lines.count == 2)
        #expect(parsed.lines.allSatisfy { $0.contains("|DAILY|DISPLAY|") })
        #expect(parsed.lines.first?.hasPrefix("Schau auf deine Vorbereitung|DAILY|DISPLAY|08:00|") == true)
        #expect(parsed.lines.last?.contains("Dein Zukunfts-Ich hat angerufen") == true)

        #expect(try reflect(["settings", "set", "midday_reminder", "12:30", "evening_reminder", "20:45"]).status == 0)
        let three = try parseICS(try reflect(["reminders", "--format", "ics", "--locale", "de", "--voice", "rude"]).stdout)
        #expect(three.status == 0, "\(three.error)")
        #expect(three.lines.map { $0.split(separator: "|").dropFirst(3).first ?? "" } == ["08:00", "12:30", "20:45"])
        // The weekly parts letter: a WEEKLY event that starts on the first Sunday (2026-11-29), not today (a Tuesday).
        #expect(try reflect(["settings", "set", "parts_letter_reminder", "sun 19:00"]).status == 0)
        let ics = try reflect(["reminders", "--format", "ics", "--now", "2026-11-24T07:30:00+01:00"]).stdout
        let four = try parseICS(ics)
        #expect(four.status == 0, "\(four.error)")
        #expect(four.lines.count == 4 && four.lines.last?.hasPrefix("Weekly Parts Letter|WEEKLY|DISPLAY|19:00|") == true, "\(four.lines)")
        #expect(ics.contains("DTSTART:20261129T190000\r\nDURATION:PT5M\r\nRRULE:FREQ=WEEKLY;BYDAY=SU\r\n"), "\(ics)")
        let text = try reflect(["reminders"]).stdout
        #expect(text.hasSuffix("sun 19:00  Weekly Parts Letter — Once this week, if you like: a short letter between two parts of you."
                               + "  (reflect://partsLetter)\n"), "\(text)")
        #expect(text.hasPrefix("08:00      Review Your Prep"), "the times line up: \(text)")
    }

    @Test("reminders as JSON: ids, times, copy per voice, the links they open; rude copy never mentions weight, food or the body")
    func reminderJSON() throws {
        let nice = try reflect(["reminders", "--format", "json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(nice.stdout.utf8)) as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["morning_review", "evening_prep"])
        #expect(items.map { $0["opens"] as? String } == ["reflect://reviewPrep", "reflect://prepTonight"])
        #expect(items.last?["body"] as? String == "30 seconds now makes tomorrow easier.")
        #expect(items.last?["title"] as? String == "Prep Tonight (for Tomorrow)")
        _ = try reflect(["settings", "set", "voice", "rude", "midday_reminder", "13:00", "parts_letter_reminder", "sun 19:00"])
        for locale in ["en", "de", "es", "fr", "ja", "ko", "pt-BR"] {
            let rude = try reflect(["reminders", "--format", "json", "--locale", locale])
            let bodies = try #require(try JSONSerialization.jsonObject(with: Data(rude.stdout.utf8)) as? [[String: Any]])
                .compactMap { $0["body"] as? String }
            #expect(bodies.count == 4)
            if locale == "en" {
                for body in bodies {
                    for word in ["weight", "fat", "food", "eat", "body", "lazy", "fail", "diet", "calorie"] {
                        #expect(!body.lowercased().contains(word), "\(body)")
                    }
                }
            }
        }
    }

    @Test("reflect today: the phase decides the sections; past days are labelled by date; I Need Help is always there")
    func today() throws {
        let day = try json(try reflect(["today", "--now", "2026-11-24T09:00:00+01:00", "--format", "json"]))
        #expect(day["phase"] as? String == "day")
        let sections = try #require(day["sections"] as? [[String: Any]])
        #expect(sections.map { $0["id"] as? String } == ["last_night_prep", "morning_focus", "end_of_day", "prep_tonight"])
        #expect(sections.map { $0["display"] as? String } == ["collapsed", "expanded", "hidden", "hidden"])
        #expect(sections[0]["label"] as? String == "Last Night's Prep (for Today)")
        #expect(sections[0]["read_only"] as? Bool == true && sections[0]["dimmed"] as? Bool == true)
        let week = try #require(day["last_seven_days"] as? [[String: Any]])
        #expect(week.count == 7)
        #expect(week.last?["label"] as? String == "Today")
        #expect(week.first?["label"] as? String == "Wed • Nov 18")
        #expect((day["need_help"] as? [String: Any])?["available"] as? Bool == true)

        let evening = try json(try reflect(["today", "--now", "2026-11-24T21:00:00+01:00", "--format", "json", "--locale", "de"]))
        let es = try #require(evening["sections"] as? [[String: Any]])
        #expect(es.prefix(3).map { $0["id"] as? String } == ["morning_focus", "end_of_day", "prep_tonight"])
        #expect(es.prefix(3).map { $0["display"] as? String } == ["collapsed", "expanded", "expanded"])
        #expect(es[1]["label"] as? String == "Check-in am Abend")

        let text = try reflect(["today", "--now", "2026-11-24T21:00:00+01:00"])
        #expect(text.stdout.contains("▾ End-of-Day Check-In"))
        #expect(text.stdout.contains("I Need Help"))
    }

    @Test("a finished morning and last night's marks show in Today: morning done, marks read-only the next day")
    func todayWithData() throws {
        let morning = [#"{"done": true}"#, #""I am someone who rests""#, #""a walk""#, #""dance to one song""#, "\"\"", #"{"done": true}"#]
        #expect(try reflect(["run", "coach.morning", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T07:30:00+01:00"],
                            stdin: morning.joined(separator: "\n") + "\n").status == 0)
        #expect(try reflect(["prep", "mark", "water", "done", "--now", "2026-11-24T21:30:00+01:00"]).status == 0)
        let today = try json(try reflect(["today", "--now", "2026-11-24T21:40:00+01:00", "--format", "json"]))
        let week = try #require(today["last_seven_days"] as? [[String: Any]])
        #expect(week.last?["morning_done"] as? Bool == true)
        #expect(week.last?["evening_done"] as? Bool == false)
        let next = try json(try reflect(["today", "--now", "2026-11-25T08:00:00+01:00", "--format", "json"]))
        let last = try #require((next["sections"] as? [[String: Any]])?.first)
        #expect(last["id"] as? String == "last_night_prep")
        #expect((last["marks"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Put water bottle in fridge or by my bed"])

        let context = try json(try reflect(["coach", "context", "--now", "2026-11-24T22:00:00+01:00"]))
        #expect(context["today_why"] as? String == "I am someone who rests — a walk")
        #expect(context["today_swap"] as? String == "dance to one song")
        #expect(context["commit_to"] as? String == "a walk")
        #expect(context["commit_from"] as? String == "")
    }

    @Test("reflect open reflect://needHelp starts I Need Help; reviewPrep the morning after last night's marks; an unknown link is a clear error")
    func openLinks() throws {
        let bad = try reflect(["open", "reflect://teleport", "--answers", "-", "--format", "jsonl"], stdin: "\"stress\"\n")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("unknown link 'reflect://teleport' (links: reflect://prepTonight, reflect://reviewPrep, reflect://needHelp, reflect://partsLetter)"))
        #expect(bad.stdout.isEmpty)
        #expect(try reflect(["history"]).stdout.contains("Sessions\n  (none yet)"), "nothing was started")

        let help = try reflect(["open", "reflect://needHelp", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T15:00:00+01:00"],
                               stdin: "\"other\"\n\"Restless\"\n\"\"\n")
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.events.first?["step"] as? String == "category")
        #expect(help.events.last?["event"] as? String == "done")

        let tonight = try reflect(["open", "reflect://prepTonight", "--answers", "-", "--format", "jsonl"], stdin: "")
        #expect(tonight.events.first?["step"] as? String == "care_done")

        let review = try reflect(["open", "reflect://reviewPrep", "--answers", "-", "--format", "jsonl"], stdin: "")
        #expect(review.events.first?["event"] as? String == "prep_summary")
        #expect(review.events.dropFirst().first?["step"] as? String == "reset")

    }
}

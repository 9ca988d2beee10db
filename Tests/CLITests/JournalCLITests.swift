import Foundation
import Testing

/// Check-ins, auto-tagging, `reflect insights` and `reflect letter` through
/// the command line, as a person (or a script) uses them.
@Suite("Journal: check-ins, themes, insights and the weekly letter", .hangGuard)
struct JournalCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-journal-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    /// Every (session, step, theme) in an export, as "id/step/theme".
    func themes(_ export: String) throws -> [String] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: Any])
        return (doc["sessions"] as? [[String: Any]] ?? []).flatMap { s in
            (s["themes"] as? [[String: Any]] ?? []).map { "\(s["id"] ?? "")/\($0["step"] ?? "")/\($0["theme"] ?? "")" }
        }.sorted()
    }

    /// A check-in on 2026-11-(day) at 21:00 Berlin time.
    func checkIn(day: Int, mood: Int, sleep: String, note: String) throws {
        let answers = "\(mood)\n5\n4\n\(sleep)\n6\n\(note)\n{\"done\": true}\n"
        let out = try reflect(["run", "journal.check-in", "--answers", "-", "--format", "jsonl", "--new",
                               "--now", String(format: "2026-11-%02dT21:00:00+01:00", day)], stdin: answers)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.events.last?["event"] as? String == "done", "\(out.stdout)")
    }

    @Test("ten check-ins: numbers and themes are stored, exported and re-imported; insights show associations, never causes")
    func checkInsToInsights() throws {
        for d in 9...18 {
            let note = d % 2 == 0 ? "\"I'm worried about the presentation tomorrow\"" : "\"A quiet evening at home\""
            try checkIn(day: d, mood: d % 2 == 0 ? 4 : 8, sleep: d % 2 == 0 ? "6.25" : "\"7,5\"", note: note)
        }
        let exported = try reflect(["export", "--format", "json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        let sessions = try #require(doc["sessions"] as? [[String: Any]])
        #expect(sessions.count == 10)
        let tagged = sessions.filter { (($0["themes"] as? [[String: Any]]) ?? []).contains { $0["step"] as? String == "note" && $0["theme"] as? String == "work" } }
        #expect(tagged.count == 5)
        let sleep = sessions.compactMap { s in (s["answers"] as? [[String: Any]])?.first { $0["step"] as? String == "sleep_hours" }?["value"] as? Double }
        #expect(Set(sleep) == [6.25, 7.5])

        let json = try reflect(["insights", "--from", "2026-11-09", "--to", "2026-11-18", "--format", "json", "--now", "2026-11-18T22:00:00+01:00"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tagMood = try #require(report["themes"] as? [[String: Any]])
        let work = try #require(tagMood.first { $0["theme"] as? String == "work" })
        #expect(work["mood_with"] as? Double == 4)
        #expect(work["mood_without"] as? Double == 8)
        #expect(work["days_with"] as? Int == 5)

        let text = try reflect(["insights", "--from", "2026-11-09", "--to", "2026-11-18", "--now", "2026-11-18T22:00:00+01:00"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("an association, not a cause"))
        #expect(text.stdout.contains("On days you wrote about Work, your mood averaged 4; on other days 8 (5 and 5 days)."))
        #expect(!text.stdout.lowercased().contains("because"))
        #expect(!text.stdout.lowercased().contains("causes"))

        // Re-imported into an empty database, the themes come back.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-journal-\(UUID().uuidString).json").path
        try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: file))
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-journal-\(UUID().uuidString).sqlite").path
        #expect(try CLIRunner.run(["import", file, "--db", other]).status == 0)
        let again = try CLIRunner.run(["export", "--format", "json", "--db", other])
        #expect(try themes(again.stdout) == themes(exported.stdout))
        #expect(try themes(again.stdout).filter { $0.hasSuffix("/note/work") }.count == 5)
    }

    @Test("too little data: figures are named as not yet shown, not guessed")
    func minimums() throws {
        try checkIn(day: 10, mood: 6, sleep: "7", note: "\"Long day at the office\"")
        let text = try reflect(["insights", "--now", "2026-11-10T22:00:00+01:00"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("7-day averages need at least 3 in 7 days"))
        #expect(text.stdout.contains("Themes and mood: not enough days yet"))
        let empty = try CLIRunner.run(["insights", "--now", "2026-11-10T22:00:00+01:00", "--db",
                                       FileManager.default.temporaryDirectory.appendingPathComponent("reflect-empty-\(UUID().uuidString).sqlite").path],
                                      in: repositoryRoot)
        #expect(empty.stdout.contains("No entries in this period yet."))
    }

    @Test("the weekly letter is identical for the same week twice; an empty week gets a gentle empty letter")
    func letter() throws {
        let moment = "\"check-in\"\n\"I can ask for help before it gets heavy\"\n\"work, self\"\n\"hope\"\n7\n\"Talk to Sam on Monday\"\n{\"done\": true}\n"
        let run = try reflect(["run", "journal.moment", "--answers", "-", "--format", "jsonl", "--now", "2026-11-17T20:00:00+01:00"], stdin: moment)
        #expect(run.status == 0, "\(run.stderr)")
        try checkIn(day: 18, mood: 5, sleep: "6", note: "\"The presentation went fine\"")
        let first = try reflect(["letter", "--week", "2026-11-18", "--now", "2026-11-20T10:00:00+01:00"])
        let second = try reflect(["letter", "--week", "2026-11-16", "--now", "2026-12-24T10:00:00+01:00"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        #expect(first.stdout.contains("Your week, 2026-11-16 – 2026-11-22"))
        #expect(first.stdout.contains("“I can ask for help before it gets heavy” (2026-11-17 · 7/10)"))
        #expect(first.stdout.contains("What you wrote about most: Work, Myself"))
        #expect(first.stdout.contains("On “Work”: what helped you most this week?"))
        let json1 = try reflect(["letter", "--week", "2026-11-18", "--format", "json"])
        let json2 = try reflect(["letter", "--week", "2026-11-22", "--format", "json"])
        #expect(json1.stdout == json2.stdout)

        let empty = try reflect(["letter", "--week", "2026-11-09"])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("This week has no entries, and that is all right."))
        let german = try reflect(["letter", "--week", "2026-11-09", "--locale", "de"])
        #expect(german.stdout.contains("Diese Woche hat keine Einträge"))
    }

    @Test("a week with only mood logs: the letter is not the empty one (as the digest counts them) and names the moods logged")
    func letterOfMoodLogs() throws {
        for (day, mood) in [("2026-11-16", "good"), ("2026-11-17", "good"), ("2026-11-18", "bad")] {
            let log = try reflect(["log", mood, "--date", day, "--now", "2026-11-19T10:00:00+01:00"])
            #expect(log.status == 0, "\(log.stderr)")
        }
        let letter = try reflect(["letter", "--week", "2026-11-18", "--now", "2026-11-19T10:00:00+01:00"])
        #expect(!letter.stdout.contains("This week has no entries"), "\(letter.stdout)")
        #expect(letter.stdout.contains("Moods you logged: good 2 · bad 1"), "\(letter.stdout)")
        #expect(letter.stdout.contains("No moments kept this week."))
        let digest = try reflect(["digest", "--week", "2026-11-18", "--now", "2026-11-19T10:00:00+01:00"])
        #expect(digest.stdout.contains("Entries this week: 3"), "\(digest.stdout)")
        let german = try reflect(["letter", "--week", "2026-11-18", "--locale", "de", "--now", "2026-11-19T10:00:00+01:00"])
        #expect(german.stdout.contains("Deine Stimmungseinträge: gut 2 · schlecht 1"), "\(german.stdout)")
        let json = try reflect(["letter", "--week", "2026-11-18", "--format", "json", "--now", "2026-11-19T10:00:00+01:00"])
        #expect(json.stdout.contains("\"mood_entries\":3"), "\(json.stdout)")
    }

    @Test("the report: Markdown with a week-by-week table, and one self-contained HTML page with both pictures and the person's words escaped")
    func report() throws {
        try checkIn(day: 16, mood: 3, sleep: "5.5", note: "\"<script>alert(1)</script> the deadline & the boss\"")
        try checkIn(day: 17, mood: 7, sleep: "8", note: "\"A walk after work\"")
        let md = try reflect(["report", "--weeks", "2", "--now", "2026-11-18T22:00:00+01:00"])
        #expect(md.status == 0, "\(md.stderr)")
        #expect(md.stdout.hasPrefix("# Report · 2026-11-09 – 2026-11-22"))
        #expect(md.stdout.contains("## Week by week"))
        #expect(md.stdout.contains("| 2026-11-16 | 2 | 5 | 6.8 | Work, Exercise |"))
        #expect(md.stdout.contains("| 2026-11-09 | 0 | – | – |  |"))

        let svgDir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-svg-\(UUID().uuidString)").path
        let html = try reflect(["report", "--weeks", "12", "--format", "html", "--svg", svgDir, "--now", "2026-11-18T22:00:00+01:00"])
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(html.stdout.components(separatedBy: "<svg").count == 3)
        #expect(!html.stdout.contains("<script"), "nothing runs, and the person's text is escaped")
        #expect(!html.stdout.contains("src=") && !html.stdout.contains("href=") && !html.stdout.contains("url("), "self-contained")
        #expect(html.stdout.contains("<title>2026-11-17: 7</title>"))
        for file in ["mood-calendar.svg", "heatmap.svg"] {
            let svg = try String(contentsOfFile: svgDir + "/" + file, encoding: .utf8)
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        }
        let bad = try reflect(["report", "--weeks", "0"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--weeks must be from 1 to 104"))
    }

    @Test("one entry is deleted with its answers and themes; another person's entry or an unknown id is refused and nothing changes")
    func deleteEntry() throws {
        try checkIn(day: 18, mood: 5, sleep: "6", note: "\"The presentation went fine\"")
        try checkIn(day: 19, mood: 6, sleep: "7", note: "\"Lunch with friends\"")
        let export = try reflect(["export", "--format", "json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let ids = try #require(doc["sessions"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids.count == 2)
        let other = try CLIRunner.run(["delete", ids[0], "--db", db, "--user", "someone-else"], in: repositoryRoot)
        #expect(other.status != 0)
        let unknown = try reflect(["delete", "no-such-session"])
        #expect(unknown.status != 0)
        let deleted = try reflect(["delete", ids[0]])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "Deleted journal.check-in (\(ids[0])) and everything stored with it.\n")
        let after = try reflect(["export", "--format", "json"]).stdout
        #expect(!after.contains(ids[0]))
        #expect(!after.contains("The presentation went fine"))
        #expect(try themes(after) == ["\(ids[1])/note/food", "\(ids[1])/note/friends"])
        #expect(try themes(export.stdout).contains("\(ids[0])/note/work"))
    }

    @Test("terminal pictures: a mood calendar and a heatmap, in colour, or with the values themselves under NO_COLOR")
    func terminalPictures() throws {
        try checkIn(day: 16, mood: 3, sleep: "6", note: "\"Tired\"")
        try checkIn(day: 17, mood: 9, sleep: "8", note: "\"Rested\"")
        let args = ["insights", "--pictures", "--now", "2026-11-18T22:00:00+01:00", "--db", db]
        let plain = try CLIRunner.run(args, in: repositoryRoot, environment: ["NO_COLOR": "1"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.stdout.contains("\u{1B}"))
        #expect(plain.stdout.contains("Mood by day"))
        // Weeks start on the locale's first weekday (CLDR): Sunday in English (United States).
        #expect(plain.stdout.contains("Su Mo Tu We Th Fr Sa"), "\(plain.stdout)")
        #expect(plain.stdout.contains("\n  ·  3  9  ·  ·  ·  ·\n"), "the week of Sunday 15: nothing, 3 on Monday, 9 on Tuesday")
        #expect(plain.stdout.contains("\nSu   · · ·"), "the heatmap's first row is Sunday: \(plain.stdout)")
        for (locale, header) in [("de", "Mo Di Mi Do Fr Sa So"), ("en-GB", "Mo Tu We Th Fr Sa Su"), ("fr", "lu ma me je ve sa di")] {
            let monday = try CLIRunner.run(args + ["--locale", locale], in: repositoryRoot, environment: ["NO_COLOR": "1"])
            #expect(monday.status == 0, "\(monday.stderr)")
            #expect(monday.stdout.lowercased().contains(header.lowercased()), "\(locale): \(monday.stdout)")
            #expect(monday.stdout.contains("\n  3  9  ·  ·  ·  ·  ·\n"), "\(locale): the week of Monday 16: 3, then 9 on Tuesday, nothing after")
        }
        for (locale, header) in [("ja", "日 月 火 水 木 金 土"), ("pt-BR", "Dom Seg Ter Qua Qui Sex Sáb"), ("ko", "일 월 화 수 목 금 토")] {
            let sunday = try CLIRunner.run(args + ["--locale", locale], in: repositoryRoot, environment: ["NO_COLOR": "1"])
            #expect(sunday.stdout.contains(header), "\(locale): \(sunday.stdout)")
        }
        #expect(plain.stdout.contains("▒▒") || plain.stdout.contains("░░"))
        let colour = try CLIRunner.run(args, in: repositoryRoot, environment: ["NO_COLOR": ""])
        #expect(colour.stdout.contains("\u{1B}[48;5;208m"), "mood 3 is orange-red")
        #expect(colour.stdout.contains("\u{1B}[48;5;118m"), "mood 9 is green")
    }

    @Test("the CSV export has a theme row for each theme auto-tagging found in an answer")
    func csvThemes() throws {
        try checkIn(day: 18, mood: 5, sleep: "6", note: "\"I'm worried about the presentation tomorrow\"")
        let csv = try reflect(["export", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let themeRows = csv.stdout.components(separatedBy: "\r\n").filter { $0.hasPrefix("theme,") }
        #expect(themeRows.count == 1, "\(csv.stdout)")
        #expect(themeRows.first?.contains(",journal.check-in,") == true)
        #expect(themeRows.first?.contains(",note,") == true)
        #expect(themeRows.first?.hasSuffix(",default,,,work") == true, "\(themeRows)")
    }

    @Test("insights show the streak reflect progress shows: one computation of showed-up days")
    func streakFromProgress() throws {
        // Days logged outside any session (an imported progress section)
        // count for the streak exactly as they do in reflect progress.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-streak-\(UUID().uuidString).json").path
        let days = (12...16).map { "{\"user\":\"default\",\"day\":\"2026-11-\($0)\"}" }.joined(separator: ",")
        try Data("""
            {"format":"reflect.export","version":1,"exported_at":"2026-11-17T12:00:00+01:00","sessions":[],"mood_entries":[],
             "progress":{"showed_up_days":[\(days)],"step_days":[],"achievements":[],"achievement_resets":[],"celebrations":[]}}
            """.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try reflect(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        try checkIn(day: 17, mood: 6, sleep: "7", note: "\"A quiet day\"")
        let now = "2026-11-17T22:00:00+01:00"
        let progress = try reflect(["progress", "--format", "json", "--now", now])
        let p = try #require(try JSONSerialization.jsonObject(with: Data(progress.stdout.utf8)) as? [String: Any])
        let ps = try #require(p["streak"] as? [String: Any])
        let insights = try reflect(["insights", "--format", "json", "--now", now])
        let i = try #require(try JSONSerialization.jsonObject(with: Data(insights.stdout.utf8)) as? [String: Any])
        let streak = try #require(i["streak"] as? [String: Any])
        #expect(streak["current"] as? Int == 6)
        #expect(streak["longest"] as? Int == 6)
        #expect(streak["current"] as? Int == ps["current"] as? Int)
        #expect(streak["longest"] as? Int == ps["longest"] as? Int)
    }

    @Test("the weekly digest: headline, highlight and intention from the week's entries; the same week twice is identical; an empty week is gentle")
    func digest() throws {
        for (d, mood, note) in [(9, 4, "Long day"), (10, 5, "Tired"), (11, 4, "Slept badly"),
                                (16, 6, "Quiet"), (17, 8, "A walk after work"), (19, 7, "Lunch with friends")] {
            try checkIn(day: d, mood: mood, sleep: "7", note: "\"\(note)\"")
        }
        let deep = "\"The talk\"\n6\n\"quiet\"\n\"solo\"\n\"work\"\n{\"command\": \"skip\"}\n\"The deadline moved\"\n"
            + "\"It matters to me\"\n\"Rehearse once with Sam\"\n{\"done\": true}\n"
        let run = try reflect(["run", "journal.deep-session", "--answers", "-", "--format", "jsonl", "--now", "2026-11-18T20:00:00+01:00"], stdin: deep)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events.last?["event"] as? String == "done", "\(run.stdout)")

        let first = try reflect(["digest", "--week", "2026-11-18", "--now", "2026-11-23T10:00:00+01:00"])
        let second = try reflect(["digest", "--week", "2026-11-22", "--now", "2026-12-24T10:00:00+01:00"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        #expect(first.stdout.hasPrefix("Your week in brief, 2026-11-16 – 2026-11-22\n"))
        #expect(first.stdout.contains("Your check-in mood averaged 7 this week, up 2.7 from the week before."), "\(first.stdout)")
        #expect(first.stdout.contains("Your best day was Tuesday (mood 8 of 10) — “A walk after work”"))
        #expect(first.stdout.contains("For next week: “Rehearse once with Sam”"))
        #expect(first.stdout.contains("Days you showed up: 4 of 7 · longest streak: 4"))
        #expect(!first.stdout.lowercased().contains("because"))
        let json1 = try reflect(["digest", "--week", "2026-11-16", "--format", "json", "--now", "2026-11-23T10:00:00+01:00"])
        let json2 = try reflect(["digest", "--week", "2026-11-20", "--format", "json", "--now", "2027-01-05T10:00:00+01:00"])
        #expect(json1.stdout == json2.stdout)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json1.stdout.utf8)) as? [String: Any])
        #expect((doc["headline"] as? [String: Any])?["kind"] as? String == "mood_change")
        #expect((doc["highlight"] as? [String: Any])?["day"] as? String == "2026-11-17")
        let md = try reflect(["digest", "--week", "2026-11-18", "--format", "md", "--now", "2026-11-23T10:00:00+01:00"])
        #expect(md.stdout.hasPrefix("# Your week in brief, 2026-11-16 – 2026-11-22\n"))
        #expect(md.stdout.contains("\n- Days you showed up: 4 of 7"))

        let empty = try reflect(["digest", "--week", "2026-11-02", "--now", "2026-11-23T10:00:00+01:00"])
        #expect(empty.status == 0)
        #expect(empty.stdout == "Your week in brief, 2026-11-02 – 2026-11-08\n\nA quiet week: nothing was written, and that is all right.\n\n"
                + "Whenever you are ready, one short check-in is enough to begin.\n")
        let german = try reflect(["digest", "--week", "2026-11-02", "--locale", "de"])
        #expect(german.stdout.contains("Eine stille Woche"))
        let bad = try reflect(["digest", "--week", "next"])
        #expect(bad.status != 0 && bad.stderr.contains("--week must be a date YYYY-MM-DD"))
    }

    @Test("reflect moments lists kept moments newest first with the entry each came from; filters; a deleted source loses its link")
    func moments() throws {
        try checkIn(day: 17, mood: 6, sleep: "7", note: "\"Honestly, I can ask for help before it gets heavy\"")
        let moment = "\"check-in\"\n\"I can ask for help before it gets heavy\"\n\"self\"\n\"hope\"\n7\n\"Speak up on Monday\"\n{\"done\": true}\n"
        let run = try reflect(["run", "journal.moment", "--answers", "-", "--format", "jsonl", "--now", "2026-11-17T22:00:00+01:00"], stdin: moment)
        #expect(run.status == 0, "\(run.stderr)")
        let export = try reflect(["export", "--format", "json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let checkInID = try #require((doc["sessions"] as? [[String: Any]])?.first { $0["flow_id"] as? String == "journal.check-in" }?["id"] as? String)

        let text = try reflect(["moments"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Moments you kept (1)\n"))
        #expect(text.stdout.contains("2026-11-17 · 7/10 · “I can ask for help before it gets heavy”"))
        #expect(text.stdout.contains("Myself, Hope"))
        #expect(text.stdout.contains("What it asks of you: Speak up on Monday"))
        #expect(text.stdout.contains("From: Daily check-in, 2026-11-17 (\(checkInID))"), "\(text.stdout)")
        let json = try reflect(["moments", "--format", "json", "--theme", "self", "--from", "2026-11-17"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(items.count == 1)
        #expect((items.first?["link"] as? [String: Any])?["session"] as? String == checkInID)
        #expect((items.first?["link"] as? [String: Any])?["by"] as? String == "quote")
        #expect(try reflect(["moments", "--source", "session"]).stdout == "No moments match these filters.\n")
        #expect(try reflect(["moments", "--theme", "money"]).stdout == "No moments match these filters.\n")
        let bad = try reflect(["moments", "--theme", "weather"])
        #expect(bad.status != 0 && bad.stderr.contains("--theme must be one of work, sleep"))

        #expect(try reflect(["delete", checkInID]).status == 0)
        let after = try reflect(["moments"])
        #expect(after.stdout.contains("Its source entry was not found."))
        let empty = try CLIRunner.run(["moments", "--db", FileManager.default.temporaryDirectory
            .appendingPathComponent("reflect-empty-\(UUID().uuidString).sqlite").path], in: repositoryRoot)
        #expect(empty.stdout.hasPrefix("No moments kept yet."))
    }

    @Test("the coach's link reflect://partsLetter opens the weekly parts letter; the adult self's answer quotes the part's need")
    func partsLetterLink() throws {
        let answers = "{\"done\": true}\n\"That the evening will be empty\"\n\"Some warmth after a long day\"\n\"I hear you\"\n{\"done\": true}\n"
        let run = try reflect(["open", "reflect://partsLetter", "--answers", "-", "--format", "jsonl", "--now", "2026-11-22T19:00:00+01:00"],
                              stdin: answers)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events.last?["event"] as? String == "done", "\(run.stdout)")
        #expect(run.stdout.contains("This part needs “Some warmth after a long day”."))
        let history = try reflect(["history"])
        #expect(history.stdout.contains("journal.parts-letter"), "\(history.stdout)")
    }
}

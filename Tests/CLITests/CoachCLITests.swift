import Foundation
import GRDB
import ReflectCore
import Testing

/// Issue 14, "Must show": the coach routines through the command line.
@Suite("The care-first coach through the command line", .hangGuard)
struct CoachCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-coach-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    func rows(_ sql: String) throws -> [Row] {
        try DatabaseQueue(path: db).read { try Row.fetchAll($0, sql: sql) }
    }

    static let morningAnswers = [#"{"done": true}"#, #""I am someone who builds calm and strength in my body""#,
                                 #""moving gently and pausing to breathe before meals""#, #""dance to one song""#,
                                 #""an apple with peanut butter""#, #"{"done": true}"#]
    static let eveningAnswers = ["true", #""The walk after lunch""#, #""After the long meeting""#,
                                 #"{"checklist": {"sticky_notes": "skip", "produce": "done", "water": "done", "breakfast": "partly"}}"#,
                                 #""Lay out my walking shoes""#, #"{"done": true}"#]

    @Test("after seven mornings in a row the coach context has the streak reflect progress shows, and its nudge; five of the last seven get the five-day nudge")
    func coachContextStreak() throws {
        for day in 20...26 {
            let morning = try reflect(["run", "coach.morning", "--answers", "-", "--now", "2026-11-\(day)T07:30:00+01:00"],
                                      stdin: Self.morningAnswers.joined(separator: "\n") + "\n")
            #expect(morning.status == 0, "\(morning.stderr)")
        }
        let noon = "2026-11-26T12:00:00+01:00"
        let context = try reflect(["coach", "context", "--now", noon])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(context.stdout.utf8)) as? [String: Any], "\(context.stdout)")
        #expect(json["current_streak"] as? Int == 7 && json["days_this_week"] as? Int == 7, "\(context.stdout)")
        #expect(json["nudge"] as? String == "Seven days in a row—amazing consistency!", "\(context.stdout)")
        let progress = try reflect(["progress", "--now", noon])
        #expect(progress.stdout.hasPrefix("Days in a row: 7"), "\(progress.stdout)")
        // Two days later, with the 27th and 28th missed: 5 of the last 7, no streak today.
        let later = try reflect(["coach", "context", "--now", "2026-11-28T12:00:00+01:00", "--format", "text"])
        #expect(later.stdout.contains("You’ve showed up on 5 days this week—your future self feels this."), "\(later.stdout)")
    }

    @Test("an earlier answer offered again after :back is shown in the person's language: a choice by its label, yes/no in their words")
    func draftInThePersonsLanguage() throws {
        let needHelp = try reflect(["run", "coach.need-help", "--locale", "de", "--now", "2026-11-24T21:00:00+01:00"],
                                   stdin: "1\n:back\n:quit\n")
        #expect(needHelp.stdout.contains("frühere Antwort: Stress / Gefühle (Enter drücken"), "\(needHelp.stdout)")
        let evening = try reflect(["run", "coach.evening", "--locale", "de", "--now", "2026-11-24T21:00:00+01:00"],
                                  stdin: "ja\nDer Spaziergang\n:back\n:back\n:quit\n")
        #expect(evening.stdout.contains("frühere Antwort: ja (Enter drücken"), "\(evening.stdout)")
        #expect(!evening.stdout.contains("frühere Antwort: yes"), "\(evening.stdout)")
        let english = try reflect(["run", "coach.need-help", "--new", "--now", "2026-11-24T21:00:00+01:00"], stdin: "2\n:back\n:quit\n")
        #expect(english.stdout.contains("earlier answer: Habit / Automatic (press Enter"), "\(english.stdout)")
    }

    @Test("evening after evening, the Yes line comes from the whole pool (each session draws with its own seed), never the same twice in a row")
    func poolLinesVaryAcrossSessions() throws {
        var lines: [String] = []
        for day in 20...26 {
            let evening = try reflect(["run", "coach.evening", "--answers", "-", "--format", "jsonl", "--now", "2026-11-\(day)T21:00:00+01:00"],
                                      stdin: Self.eveningAnswers.joined(separator: "\n") + "\n")
            #expect(evening.status == 0, "\(evening.stderr)")
            let line = evening.events.first { $0["event"] as? String == "celebration" && $0["step"] as? String == "care_done" }?["line"]
            lines.append(try #require(line as? String, "\(evening.stdout)"))
        }
        // With one seed for every session the draw was the same each evening and
        // "not the previous line" made it alternate between two lines of fifteen.
        #expect(Set(lines).count >= 4, "\(lines)")
        #expect(!zip(lines, lines.dropFirst()).contains { $0 == $1 }, "\(lines)")
        // The seed is stored with the session: resuming replays the same draw.
        let stored = try rows("SELECT DISTINCT seed FROM session").count
        #expect(stored == 7)
    }

    @Test("Reset achievements clears the first-time memories: from the next day the first plan is big again (with its achievement) and Yes evenings are medium again")
    func resetClearsFirstTimes() throws {
        func celebrations(_ flow: String, _ answers: [String], _ now: String) throws -> [String: String] {
            let run = try reflect(["run", flow, "--answers", "-", "--format", "jsonl", "--now", now], stdin: answers.joined(separator: "\n") + "\n")
            #expect(run.status == 0, "\(run.stderr)")
            var out: [String: String] = [:]
            for e in run.events where e["event"] as? String == "celebration" {
                out[e["step"] as? String ?? ""] = "\(e["reason"] as? String ?? "") \(e["tier"] as? String ?? "none")"
            }
            return out
        }
        #expect(try celebrations("coach.morning", Self.morningAnswers, "2026-11-17T07:30:00+01:00")["stress_response"] == "first_stress_response big")
        for day in 17...19 {
            #expect(try celebrations("coach.evening", Self.eveningAnswers, "2026-11-\(day)T21:00:00+01:00")["care_done"] == "care_done medium")
        }
        #expect(try celebrations("coach.evening", Self.eveningAnswers, "2026-11-20T21:00:00+01:00")["care_done"] == "care_done tiny")
        #expect(try reflect(["progress", "reset-achievements", "--yes", "--now", "2026-11-21T07:00:00+01:00"]).status == 0)
        // The reset day itself earns nothing new (as its achievements do not).
        #expect(try celebrations("coach.morning", Self.morningAnswers, "2026-11-21T07:30:00+01:00")["stress_response"] == "stress_response tiny")
        // From the next day, first times are first again.
        #expect(try celebrations("coach.morning", Self.morningAnswers, "2026-11-22T07:30:00+01:00")["stress_response"] == "first_stress_response big")
        #expect(try celebrations("coach.evening", Self.eveningAnswers, "2026-11-22T21:00:00+01:00")["care_done"] == "care_done medium")
        let achieved = try rows("SELECT key, achieved_at FROM achievement").map { "\($0["key"] as String) \($0["achieved_at"] as String)" }
        #expect(achieved.contains("first_stress_response 2026-11-22"), "\(achieved)")
    }

    @Test("reflect today names the phase in the person's language")
    func todayPhaseInTheLanguage() throws {
        let de = try reflect(["today", "--locale", "de", "--now", "2026-11-24T21:00:00+01:00"])
        #expect(de.stdout.hasPrefix("Heute · 2026-11-24 · Abend\n"), "\(de.stdout)")
        let ja = try reflect(["today", "--locale", "ja", "--now", "2026-11-24T10:00:00+09:00"])
        #expect(ja.stdout.hasPrefix("今日 · 2026-11-24 · 日中\n"), "\(ja.stdout)")
        let en = try reflect(["today", "--now", "2026-11-24T21:00:00+01:00"])
        #expect(en.stdout.hasPrefix("Today · 2026-11-24 · evening\n"), "\(en.stdout)")
    }

    @Test("reflect today: each past day's label in full in every locale, the rows aligned in display columns, a day's prep marks in checklist order")
    func todayWeekRows() throws {
        let evening = try reflect(["run", "coach.evening", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T21:00:00+01:00"],
                                  stdin: Self.eveningAnswers.joined(separator: "\n") + "\n")
        #expect(evening.status == 0, "\(evening.stderr)")
        for locale in ["en", "de", "es", "fr", "ja", "ko", "pt-BR"] {
            let text = try reflect(["today", "--locale", locale, "--now", "2026-11-28T19:30:00+01:00"])
            let json = try #require(try JSONSerialization.jsonObject(
                with: Data(try reflect(["today", "--locale", locale, "--now", "2026-11-28T19:30:00+01:00", "--format", "json"]).stdout.utf8))
                as? [String: Any])
            let week = try #require(json["last_seven_days"] as? [[String: Any]])
            let rows = text.stdout.split(separator: "\n").map(String.init).filter { $0.contains("☀") }
            #expect(rows.count == 7, "\(text.stdout)")
            // Every label whole (pt-BR's "sáb. • 28 de nov." was cut to 14 characters) ...
            for (row, day) in zip(rows, week) {
                let label = try #require(day["label"] as? String)
                #expect(row.hasPrefix("  \(label)"), "\(locale): \(row)")
            }
            // ... and the ☀ column the same on every row, counted as a terminal shows it.
            let columns = Set(rows.map { row in DisplayWidth.of(String(row[..<(row.range(of: "☀")?.lowerBound ?? row.endIndex)])) })
            #expect(columns.count == 1, "\(locale): \(rows)")
            // The 24th's marks in the checklist's order: sticky notes skipped, produce and water done, breakfast partly.
            let marks = try #require(week.first { $0["day"] as? String == "2026-11-24" }?["prep"] as? [[String: Any]])
            #expect(marks.map { $0["id"] as? String } == ["sticky_notes", "produce", "water", "breakfast"], "\(marks)")
            #expect(rows.contains { $0.hasSuffix("–✓✓◐") }, "\(locale): \(rows)")
        }
    }

    @Test("at the terminal a tiny celebration without a line is a checkmark, never a lone dot")
    func tinyCelebrationAtTheTerminal() throws {
        let morning = try reflect(["run", "coach.morning", "--answers", "-", "--now", "2026-11-24T07:30:00+01:00"],
                                  stdin: Self.morningAnswers.joined(separator: "\n") + "\n")
        #expect(morning.status == 0, "\(morning.stderr)")
        let lines = morning.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.trimmingCharacters(in: .whitespaces) == "·" }, "\(morning.stdout)")
        // The reset's tiny celebration (first reset of the day) comes right after the reset's prompt.
        let reset = try #require(morning.stdout.range(of: "Reset Your State"), "\(morning.stdout)")
        let identity = try #require(morning.stdout.range(of: "Reconnect With Your Identity"), "\(morning.stdout)")
        #expect(morning.stdout[reset.upperBound..<identity.lowerBound].contains("\n  ✓\n"), "\(morning.stdout)")
    }

    @Test("a JSONL morning at 07:30 and evening at 21:00 for a new person: the spec's prompts in order, the plan quoted, the checklist from the Prep Library")
    func morningAndEvening() throws {
        let morning = try reflect(["run", "coach.morning", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T07:30:00+01:00"],
                                  stdin: Self.morningAnswers.joined(separator: "\n") + "\n")
        #expect(morning.status == 0, "\(morning.stderr)")
        let mp = morning.events.filter { $0["event"] as? String == "prompt" }
        #expect(mp.map { $0["step"] as? String } == ["reset", "identity", "focus", "stress_response", "snack", "start_day"])
        #expect(mp.map { $0["kind"] as? String } == ["action", "text", "text", "text", "text", "action"])
        #expect((mp[0]["text"] as? String)?.contains("Take 3 slow breaths.") == true)
        #expect((mp[1]["text"] as? String)?.contains("“I am someone who…”") == true)
        #expect((mp[3]["hint"] as? String)?.hasPrefix("(Examples: dance to one song") == true)
        #expect(((mp[5]["options"] as? [[String: Any]])?.first?["text"] as? String) == "Start My Day")
        #expect(morning.events.last?["event"] as? String == "done")

        let evening = try reflect(["run", "coach.evening", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T21:00:00+01:00"],
                                  stdin: Self.eveningAnswers.joined(separator: "\n") + "\n")
        #expect(evening.status == 0, "\(evening.stderr)")
        let ep = evening.events.filter { $0["event"] as? String == "prompt" }
        #expect(ep.map { $0["step"] as? String } == ["care_done", "calm_helped", "pulled_toward", "prep", "prep_new", "day_complete"])
        #expect(ep.map { $0["kind"] as? String } == ["yes_no", "text", "text", "checklist", "text", "action"])
        #expect((ep[0]["text"] as? String)?.contains("Your plan this morning: “dance to one song”") == true)
        let items = (ep[3]["options"] as? [[String: Any]]) ?? []
        #expect(items.map { $0["id"] as? String } == ["sticky_notes", "produce", "water", "breakfast"])
        #expect(items.first?["text"] as? String == "Put sticky notes where I usually grab the less-healthy choice")
        #expect(evening.events.last?["event"] as? String == "done")

        let marks = try rows("SELECT item_id, mark, day FROM prep_mark ORDER BY item_id")
        #expect(marks.map { $0["item_id"] as String } == ["breakfast", "produce", "sticky_notes", "water"])
        #expect(marks.map { $0["mark"] as String } == ["partly", "done", "skip", "done"])
        #expect(marks.allSatisfy { ($0["day"] as String) == "2026-11-24" })
        // The new item joined the library, after the defaults.
        let list = try reflect(["prep", "list", "--format", "json"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(listed.last?["text"] as? String == "Lay out my walking shoes")
        #expect(listed.last?["custom"] as? Bool == true)
    }

    @Test("reflect prep: add, rename, move, archive, restore; bad input (unknown id, 10,000 characters, a core item) changes nothing")
    func prepCommands() throws {
        #expect(try reflect(["prep", "add", "water.bottle"]).status == 0)
        let listed = try reflect(["prep", "list"]).stdout
        #expect(listed.contains("5. water.bottle  [my-5]"))
        #expect(try reflect(["prep", "move", "my-5", "1"]).stdout.hasPrefix("1. water.bottle"))
        #expect(try reflect(["prep", "rename", "my-5", "Fill the big bottle"]).status == 0)
        #expect(try reflect(["prep", "archive", "sticky_notes"]).stdout.contains("[sticky_notes, archived]"))
        #expect(try reflect(["prep", "restore", "sticky_notes"]).status == 0)
        let before = try reflect(["prep", "list", "--format", "json"]).stdout

        let cases: [([String], String)] = [
            (["rename", "nope", "x"], "no prep item 'nope'"),
            (["archive", "nope"], "[prep.unknown_item]"),
            (["mark", "nope", "done"], "[prep.unknown_item]"),
            (["add", String(repeating: "a", count: 10_000)], "10000 characters is more than 200"),
            (["archive", "water"], "'water' is a core item"),
            (["move", "water", "0"], "position 0 is not 1–5"),
        ]
        for (args, message) in cases {
            let out = try reflect(["prep"] + args)
            #expect(out.status == 1, "\(args.prefix(2))")
            #expect(out.stderr.contains(message), "\(out.stderr)")
            #expect(out.stderr.contains("nothing was changed") || args[0] == "mark")
        }
        #expect(try reflect(["prep", "list", "--format", "json"]).stdout == before)
        #expect(try rows("SELECT * FROM prep_mark").isEmpty)
    }

    @Test("a core item hidden for today leaves today's checklist and comes back tomorrow")
    func hideForToday() throws {
        #expect(try reflect(["prep", "hide", "water", "--now", "2026-11-24T20:00:00+01:00"]).status == 0)
        let today = try reflect(["prep", "list", "--active", "--now", "2026-11-24T20:00:00+01:00"]).stdout
        #expect(!today.contains("[water"))
        let tomorrow = try reflect(["prep", "list", "--active", "--now", "2026-11-25T20:00:00+01:00"]).stdout
        #expect(tomorrow.contains("[water, core]"))
    }

    @Test("SIGKILL in the middle of an evening, then resume: no prep mark, new item or answer lost or duplicated")
    func killEveningAndResume() throws {
        let live = try LiveProcess(["run", "coach.evening", "--db", db, "--answers", "-", "--format", "jsonl",
                                    "--now", "2026-11-24T21:00:00+01:00"], in: repositoryRoot)
        let steps = ["care_done", "calm_helped", "pulled_toward", "prep", "prep_new"]
        for (answer, step) in zip(Self.eveningAnswers, steps) {
            try #require(live.waitFor { $0["event"] as? String == "prompt" && $0["step"] as? String == step } != nil)
            live.send(answer)
            try #require(live.waitFor { $0["event"] as? String == "saved" && $0["step"] as? String == step } != nil)
        }
        live.kill()
        #expect(live.process.terminationReason == .uncaughtSignal)
        let resumed = try reflect(["resume", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T21:05:00+01:00"],
                                  stdin: #"{"done": true}"# + "\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.events.first?["step"] as? String == "day_complete")
        #expect(resumed.events.last?["event"] as? String == "done")
        #expect(try rows("SELECT * FROM prep_mark").count == 4)
        #expect(try rows("SELECT * FROM prep_item WHERE text = 'Lay out my walking shoes'").count == 1)
        let answers = try rows("SELECT step FROM answer WHERE state = 'answer'").map { $0["step"] as String }
        #expect(answers.sorted() == (steps + ["day_complete"]).sorted())
    }

    @Test("SIGKILL in the middle of I Need Help, then resume: exactly one craving note, typed and dated")
    func killHelpAndResume() throws {
        let live = try LiveProcess(["run", "coach.need-help", "--db", db, "--answers", "-", "--format", "jsonl",
                                    "--now", "2026-11-24T15:00:00+01:00"], in: repositoryRoot)
        for (answer, step) in zip([#""habit""#, #""place""#], ["category", "habit_swaps"]) {
            try #require(live.waitFor { $0["event"] as? String == "prompt" && $0["step"] as? String == step } != nil)
            live.send(step == "habit_swaps" ? #"{"done": true}"# : answer)
            try #require(live.waitFor { $0["event"] as? String == "saved" && $0["step"] as? String == step } != nil)
        }
        live.kill()
        #expect(try rows("SELECT * FROM craving_note").isEmpty)
        let resumed = try reflect(["resume", "--answers", "-", "--format", "jsonl"], stdin: "\"place\"\n\"Passing the bakery\"\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let notes = try rows("SELECT type, detail, day, text FROM craving_note")
        #expect(notes.count == 1)
        #expect(notes.first?["type"] as String? == "habit")
        #expect(notes.first?["detail"] as String? == "place")
        #expect(notes.first?["day"] as String? == "2026-11-24")
        #expect(notes.first?["text"] as String? == "Passing the bakery")
    }
}

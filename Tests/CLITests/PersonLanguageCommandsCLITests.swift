import Foundation
import Testing

/// The rest of Reflect's own lines in the person's language: deleting,
/// importing, the Prep Library, the profile and ratings, the answers and
/// safety notes of `reflect show`, `reflect flows`; and `reflect history`
/// and `reflect log` telling the truth (the person's clock, an edit within
/// the same second).
@Suite("Every command's own lines in the person's language", .hangGuard)
struct PersonLanguageCommandsCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-person-cmd-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "", environment: [String: String] = [:]) throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot, environment: environment)
    }

    /// An evening check-in with a yes, a checklist with every mark, a
    /// skipped question and an acknowledged close.
    func evening(locale: String = "de") throws -> String {
        let run = try reflect(["run", "coach.evening", "--locale", locale, "--answers", "-", "--now", "2026-11-19T21:00:00+01:00"], stdin: """
            true
            "Der Spaziergang"
            "Nach der langen Besprechung"
            {"checklist": {"sticky_notes": "skip", "produce": "done", "water": "done", "breakfast": "partly"}}
            {"command": "skip"}
            {"done": true}

            """)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try reflect(["history"]).stdout.split(separator: "\n").dropFirst().first?.split(separator: " ").dropFirst(2).first.map(String.init))
    }

    @Test("reflect show in German: yes, checklist marks, a skipped question and an acknowledgement in German; a safety note by its category's name")
    func showAnswersAndSafety() throws {
        let id = try evening()
        let shown = try reflect(["show", id])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("   → ja\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains(": übersprungen; ") && shown.stdout.contains(": erledigt; ") && shown.stdout.contains(": teilweise\n"),
                "\(shown.stdout)")
        #expect(shown.stdout.contains("   → (übersprungen)\n"), "\(shown.stdout)")
        #expect(shown.stdout.hasSuffix("   → erledigt\n"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("yes") && !shown.stdout.contains("skip") && !shown.stdout.contains("partly"), "\(shown.stdout)")
        // The CSV export keeps its machine words.
        let csv = try reflect(["export", "--format", "csv"])
        #expect(csv.stdout.contains(",yes,") && csv.stdout.contains(": skip;") && csv.stdout.contains(",(skipped),"), "\(csv.stdout)")

        let crisis = try reflect(["run", "journal.moment", "--answers", "-", "--now", "2026-11-20T10:00:00+01:00"],
                                 stdin: "\"check-in\"\n\"I want to kill myself\"\n")
        #expect(crisis.status == 0, "\(crisis.stderr)")
        let latest = try #require(try reflect(["history"]).stdout.split(separator: "\n").dropFirst().first?.split(separator: " ").dropFirst(2).first)
        for (tag, line) in [("de", "Sicherheit: Suizidgedanken um "), ("ja", "安全：自殺念慮（"), ("en", "safety: thoughts of suicide at ")] {
            let page = try reflect(["show", String(latest), "--locale", tag])
            #expect(page.stdout.contains(line), "\(tag): \(page.stdout)")
            #expect(!page.stdout.contains("suicide\n") && !page.stdout.contains(": suicide "), "the id, not the name: \(page.stdout)")
        }
    }

    @Test("reflect delete, delete-all and import speak German; the question names what would go, counted as label and value")
    func deleteImportInGerman() throws {
        let id = try evening()
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-person-export-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: export) }
        #expect(try reflect(["export", "--out", export]).status == 0)
        #expect(try reflect(["log", "good", "--date", "2026-11-18", "--now", "2026-11-19T10:00:00+01:00"]).status == 0)

        let asked = try reflect(["delete-all", "--locale", "de"])
        #expect(asked.status == 1)
        #expect(asked.stderr.contains("Das lässt sich nicht rückgängig machen."), "\(asked.stderr)")
        #expect(asked.stderr.contains("Sitzungen: 1, Antworten: 6, Stimmungseinträge: 1,"), "\(asked.stderr)")
        #expect(asked.stderr.contains("Alles löschen: reflect delete-all --yes --db \(db)"), "\(asked.stderr)")
        #expect(!asked.stderr.contains("session(s)") && !asked.stderr.contains("cannot be undone"), "\(asked.stderr)")

        let deleted = try reflect(["delete", id, "--locale", "de"])
        #expect(deleted.stdout.hasPrefix("Gelöscht: coach.evening (\(id)") && deleted.stdout.hasSuffix(") und alles, was dazu gespeichert war.\n"),
                "\(deleted.stdout) \(deleted.stderr)")

        let imported = try reflect(["import", export, "--locale", "de"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Importiert – Sitzungen: 1, Stimmungseinträge: 0, Coach-Einträge: "), "\(imported.stdout)")
        #expect(imported.stdout.contains("\nSchon vorhanden und unverändert behalten – Sitzungen: 0, "), "\(imported.stdout)")

        let all = try reflect(["delete-all", "--yes", "--locale", "ja"])
        #expect(all.stdout == "\(db) のデータをすべて削除しました。\n", "\(all.stdout) \(all.stderr)")
    }

    @Test("reflect prep, profile and rate in German and Japanese: the list's notes, a mark by its name, the profile's words")
    func prepProfileRate() throws {
        let list = try reflect(["prep", "archive", "sticky_notes", "--locale", "de", "--now", "2026-11-24T09:00:00+01:00"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("[sticky_notes, archiviert]") && list.stdout.contains("[water, fest]"), "\(list.stdout)")
        #expect(!list.stdout.contains("core") && !list.stdout.contains("archived"), "\(list.stdout)")
        let hidden = try reflect(["prep", "hide", "water", "--locale", "de", "--now", "2026-11-24T09:00:00+01:00"])
        #expect(hidden.stdout.contains("[water, fest, heute ausgeblendet]"), "\(hidden.stdout)")
        let mark = try reflect(["prep", "mark", "produce", "partly", "--locale", "ja", "--now", "2026-11-24T21:00:00+01:00"])
        #expect(mark.status == 0, "\(mark.stderr)")
        #expect(mark.stdout.hasPrefix("2026-11-24: ") && mark.stdout.hasSuffix(" — 一部\n") && !mark.stdout.contains("produce"), "\(mark.stdout)")

        #expect(try reflect(["profile", "set", "tone", "direct", "avoid", "money,family"]).status == 0)
        let profile = try reflect(["profile", "--locale", "de"])
        #expect(profile.stdout == "Ton: direkt\nAntwortlänge: mittel\nBevorzugte Schritte: keine\nThemen, die gemieden werden: Familie, Geld\n",
                "\(profile.stdout)")
        let json = try reflect(["profile", "--format", "json"])
        #expect(json.stdout.contains("\"tone\":\"direct\""), "the JSON keeps its ids: \(json.stdout)")

        let id = try evening(locale: "de")
        let rated = try reflect(["rate", "down", "--session", id, "--locale", "de", "--now", "2026-11-24T22:00:00+01:00"])
        if rated.status == 0 {
            #expect(rated.stdout.hasPrefix("👎 notiert. Dein Profil jetzt: Ton direkt, Antwortlänge "), "\(rated.stdout)")
        } else {
            #expect(rated.stderr.contains("no feedback to rate"), "\(rated.stderr)")
        }
    }

    @Test("reflect flows in Japanese: its columns and every title in Japanese")
    func flowsInJapanese() throws {
        let out = try CLIRunner.run(["flows", "--locale", "ja"], in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("タイトル") == true && lines.first?.contains("ファイル") == true, "\(lines)")
        #expect(out.stdout.contains("考えの記録") && !out.stdout.contains("Thought record") && !out.stdout.contains("TITLE"), "\(out.stdout)")
    }

    @Test("reflect log twice within the same second: the second replaced the first, and says so")
    func logAgainWithinASecond() throws {
        let now = ["--now", "2026-11-19T10:00:00+01:00"]
        let first = try reflect(["log", "bad", "--date", "2026-11-18", "--note", "tired"] + now)
        #expect(first.stdout == "2026-11-18: bad — tired\n", "\(first.stdout)")
        let second = try reflect(["log", "good", "--date", "2026-11-18"] + now)
        #expect(second.stdout == "2026-11-18: good — tired (updated)\n", "\(second.stdout)")
        let german = try reflect(["log", "great", "--date", "2026-11-17", "--locale", "de"] + now)
        #expect(german.stdout == "2026-11-17: großartig\n", "a first entry is no update: \(german.stdout)")
    }

    @Test("reflect history: times on the person's clock (TZ, or their time zone setting); no line ends in spaces")
    func historyClockAndSpaces() throws {
        let run = try reflect(["run", "journal.moment", "--answers", "-", "--now", "2026-11-19T10:00:00+01:00"],
                              stdin: "\"check-in\"\n\"A walk\"\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try reflect(["log", "bad", "--date", "2026-11-18", "--now", "2026-11-19T10:00:00+01:00"]).status == 0)
        #expect(try reflect(["log", "good", "--date", "2026-11-17", "--note", "Sun", "--now", "2026-11-19T10:00:00+01:00"]).status == 0)
        for (zone, shown) in [("Asia/Tokyo", "2026-11-19 18:00"), ("America/New_York", "2026-11-19 04:00"), ("UTC", "2026-11-19 09:00")] {
            let history = try reflect(["history", "--locale", "de"], environment: ["TZ": zone])
            #expect(history.stdout.contains("\n  \(shown)  "), "\(zone): \(history.stdout)")
            let trailing = history.stdout.split(separator: "\n").filter { $0.last == " " }
            #expect(trailing.isEmpty, "lines ending in spaces: \(trailing.map { "'\($0)'" })")
        }
        // The person's own time zone setting wins over the machine's.
        #expect(try reflect(["settings", "set", "time_zone", "Europe/Lisbon"]).status == 0)
        let set = try reflect(["history"], environment: ["TZ": "Asia/Tokyo"])
        #expect(set.stdout.contains("\n  2026-11-19 09:00  "), "\(set.stdout)")
        #expect(set.stdout.contains("  2026-11-18  bad\n") && set.stdout.contains("  2026-11-17  good      Sun\n"), "\(set.stdout)")
    }

    @Test("a flow's title is a key like any text: reflect check names one no locale has (R005) and an untranslated one (R006) at its line; flows never shows it raw")
    func titleKeysChecked() throws {
        let content = try ContentFixture([
            "flows/t/typo.lua": """
                return flow {
                  id = "t.typo",
                  version = 1,
                  title = "demo.checkin.titel",
                  run = function(s) s:ask { id = "one", text = "What next?" } end,
                }
                """,
            "flows/t/titled.lua": """
                return flow {
                  id = "t.titled",
                  version = 1,
                  title = "demo.checkin.title",
                  run = function(s) s:ask { id = "one", text = "What next?" } end,
                }
                """,
            "locales/de.yaml": "locale: de\nname: Deutsch\nmatching: word\nstrings:\n  intensity.pre: \"Wie stark?\"\n",
        ])
        defer { content.remove() }
        let dir = ["--content", content.root.path]
        let check = try CLIRunner.run(["check"] + dir)
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("flows/t/typo.lua:4: error R005: title: unknown locale key 'demo.checkin.titel'") && $0.contains("did you mean 'demo.checkin.title'?") },
                "\(check.stdout)")
        #expect(lines.contains("flows/t/titled.lua:4: warning R006: uses 'demo.checkin.title', which is not translated in de (missing)"), "\(check.stdout)")
        let flows = try CLIRunner.run(["flows"] + dir)
        #expect(!flows.stdout.contains("demo.checkin.titel") && flows.stdout.contains("Quick check-in"), "\(flows.stdout)")
    }
}

import Foundation
import Testing

/// Reflect's own lines around the flows — `reflect log`, `reflect history`,
/// `reflect resume` with nothing to resume — speak the person's language,
/// and a mood is shown by its label, never its id.
@Suite("Reflect's own lines in the person's language", .hangGuard)
struct PersonLanguageCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-person-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    @Test("reflect log in German: the mood's German label and (geändert) when the day is logged again; English by default")
    func log() throws {
        let now = ["--now", "2026-11-19T10:00:00+01:00"]
        let first = try reflect(["log", "bad", "--date", "2026-11-18", "--note", "Müde", "--locale", "de"] + now)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "2026-11-18: schlecht — Müde\n", "\(first.stdout)")
        let again = try reflect(["log", "good", "--date", "2026-11-18", "--locale", "de", "--now", "2026-11-19T11:00:00+01:00"])
        #expect(again.stdout == "2026-11-18: gut — Müde (geändert)\n", "\(again.stdout)")
        let japanese = try reflect(["log", "great", "--date", "2026-11-18", "--locale", "ja", "--now", "2026-11-19T12:00:00+01:00"])
        #expect(japanese.stdout == "2026-11-18: 最高 — Müde （更新しました）\n", "\(japanese.stdout)")
        let english = try reflect(["log", "average", "--date", "2026-11-17"] + now)
        #expect(english.stdout == "2026-11-17: okay\n", "the label, not the id 'average': \(english.stdout)")
        // An unknown language is refused before anything is written.
        let unknown = try reflect(["log", "horrible", "--date", "2026-11-16", "--locale", "xx"] + now)
        #expect(unknown.status == 1 && unknown.stderr.contains("locale.unknown"), "\(unknown.stderr)")
        let history = try reflect(["history", "--locale", "de"])
        #expect(history.stdout.contains("Sitzungen\n  (noch keine)"), "\(history.stdout)")
        #expect(history.stdout.contains("\nStimmung\n"), "\(history.stdout)")
        #expect(history.stdout.contains("2026-11-18  großartig"), "\(history.stdout)")
        #expect(history.stdout.contains("2026-11-17  okay"), "\(history.stdout)")
        #expect(!history.stdout.contains("horrible"), "\(history.stdout)")
    }

    @Test("reflect history names a session's state in the language; resume with nothing to resume says so in it")
    func historyAndResume() throws {
        let nothing = try reflect(["resume", "--locale", "fr"])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("Rien à reprendre : aucune séance inachevée."), "\(nothing.stderr)")
        let run = try reflect(["run", "journal.moment", "--locale", "es", "--answers", "-", "--now", "2026-11-19T10:00:00+01:00"],
                              stdin: "\"check-in\"\n\"Pedí ayuda a tiempo\"\n")
        #expect(run.status == 0, "\(run.stderr)")
        let history = try reflect(["history", "--locale", "es"])
        #expect(history.stdout.contains("Sesiones"), "\(history.stdout)")
        #expect(history.stdout.contains("sin terminar (respondidas: 2)"), "\(history.stdout)")
        let finish = try reflect(["resume", "--answers", "-"], stdin: "\"work\"\n\"hope\"\n7\n\"Hablar con Ana\"\n{\"done\": true}\n")
        #expect(finish.status == 0, "\(finish.stderr)")
        // The latest session was in Spanish: so is the line, without --locale.
        let again = try reflect(["resume"])
        #expect(again.stderr.contains("No hay nada que continuar"), "\(again.stderr)")
        #expect(try reflect(["history", "--locale", "es"]).stdout.contains("terminada"))
    }

    @Test("reflect show speaks the session's language: its state, its words and a decimal answer as German writes it")
    func show() throws {
        let run = try reflect(["run", "journal.check-in", "--locale", "de", "--answers", "-", "--now", "2026-11-19T21:00:00+01:00"],
                              stdin: "7\n6\n5\n\"7,5\"\n8\n\"Ein ruhiger Abend\"\n{\"done\": true}\n")
        #expect(run.status == 0, "\(run.stderr)")
        let id = try #require(try reflect(["history"]).stdout.split(separator: "\n").dropFirst().first?.split(separator: " ").dropFirst(2).first)
        let shown = try reflect(["show", String(id)])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("journal.check-in (Version 1) · abgeschlossen · begonnen "), "\(shown.stdout)")
        #expect(shown.stdout.contains("\nSitzung "), "\(shown.stdout)")
        #expect(shown.stdout.contains("→ 7,5\n"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("complete") && !shown.stdout.contains("started"), "\(shown.stdout)")
        let english = try reflect(["show", String(id), "--locale", "en"])
        #expect(english.stdout.hasPrefix("journal.check-in (version 1) · complete · started "), "\(english.stdout)")
        #expect(english.stdout.contains("→ 7.5\n"), "\(english.stdout)")
    }
}

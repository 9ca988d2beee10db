import Foundation
import Testing

/// Decimal numbers shown to a person are written as their language writes
/// them (de, es, fr, pt-BR: a comma); machine outputs keep a point.
@Suite("Numbers in the person's language at the command line", .hangGuard)
struct DecimalCommaCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-decimal-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    @Test("insights and the report say 3,3 in German and French, 3.3 in English and Japanese; JSON keeps 3.3")
    func figures() throws {
        for (day, mood) in [("2026-11-16", "good"), ("2026-11-17", "good"), ("2026-11-18", "bad")] {
            #expect(try reflect(["log", mood, "--date", day, "--now", "2026-11-19T10:00:00+01:00"]).status == 0)
        }
        let now = ["--now", "2026-11-19T10:00:00+01:00"]
        let de = try reflect(["insights", "--locale", "de"] + now)
        #expect(de.stdout.contains("Mittelwert 3,3 von 5"), "\(de.stdout)")
        #expect(!de.stdout.contains("3.3"))
        let fr = try reflect(["insights", "--locale", "fr"] + now)
        #expect(fr.stdout.contains("3,3"), "\(fr.stdout)")
        for tag in ["en", "ja"] {
            let out = try reflect(["insights", "--locale", tag] + now)
            #expect(out.stdout.contains("3.3"), "\(tag): \(out.stdout)")
        }
        let json = try reflect(["insights", "--format", "json", "--locale", "de"] + now)
        #expect(json.stdout.contains("3.3") && !json.stdout.contains("3,3"), "\(json.stdout)")
        let report = try reflect(["report", "--locale", "de", "--weeks", "1"] + now)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("3,3") && !report.stdout.contains("3.3"), "\(report.stdout)")
    }

    @Test("a number question in German: its step, the message for a value off the scale and an earlier answer offered again use a comma")
    func prompts() throws {
        let out = try reflect(["run", "journal.check-in", "--locale", "de", "--answers", "-", "--now", "2026-11-19T21:00:00+01:00"],
                              stdin: "7\n6\n5\n7.3\n\"7,5\"\n{\"command\": \"back\"}\n")
        #expect(out.stdout.contains("in Schritten von 0,25)"), "\(out.stdout)")
        #expect(out.stdout.contains("Bitte gib eine Zahl von 0 bis 24 ein, in Schritten von 0,25."), "\(out.stdout)")
        #expect(out.stdout.contains("frühere Antwort: 7,5"), "\(out.stdout)")
        #expect(!out.stdout.contains("0.25") && !out.stdout.contains("7.5"), "\(out.stdout)")
        let jsonl = try reflect(["run", "journal.check-in", "--locale", "de", "--answers", "-", "--format", "jsonl", "--new",
                                 "--now", "2026-11-19T21:00:00+01:00"], stdin: "7\n6\n5\n7.3\n")
        #expect(jsonl.stdout.contains("\"step\":0.25"), "\(jsonl.stdout)")
    }
}

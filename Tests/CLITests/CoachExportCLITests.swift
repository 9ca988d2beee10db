import Foundation
import Testing

/// Issue 14: everything the coach stores is exported (JSON, CSV), imported
/// atomically and removed by delete-all; an export from before the coach
/// still imports.
@Suite("Coach data: export, import, delete-all", .hangGuard)
struct CoachExportCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-coachexport-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], db: String? = nil, stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db ?? self.db], stdin: stdin, in: repositoryRoot)
    }

    func export(_ db: String? = nil) throws -> [String: Any] {
        let out = try reflect(["export"], db: db)
        #expect(out.status == 0, "\(out.stderr)")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        json["exported_at"] = nil
        return json
    }

    /// Settings, a custom item, marks and a craving note.
    func fill() throws {
        #expect(try reflect(["settings", "set", "time_zone", "Europe/Berlin", "voice", "rude"]).status == 0)
        #expect(try reflect(["prep", "add", "Lay out my walking shoes", "--now", "2026-11-24T20:00:00+01:00"]).status == 0)
        #expect(try reflect(["prep", "archive", "sticky_notes", "--now", "2026-11-24T20:00:00+01:00"]).status == 0)
        #expect(try reflect(["prep", "mark", "water", "done", "--now", "2026-11-24T21:00:00+01:00"]).status == 0)
        #expect(try reflect(["prep", "mark", "my-5", "partly", "--now", "2026-11-24T21:00:00+01:00"]).status == 0)
        let help = try reflect(["run", "coach.need-help", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T15:00:00+01:00"],
                               stdin: "\"physical\"\n\"water\"\n{\"done\": true}\n\"=1+1 thirsty, \\\"really\\\"\"\n")
        #expect(help.status == 0, "\(help.stderr)")
    }

    @Test("export → delete-all → import gives back the same coach data; importing twice adds nothing")
    func roundTrip() throws {
        try fill()
        let before = try export()
        let coach = try #require(before["coach"] as? [String: Any])
        #expect((coach["settings"] as? [Any])?.count == 2)
        #expect((coach["prep_items"] as? [[String: Any]])?.map { $0["id"] as? String } == ["sticky_notes", "produce", "water", "breakfast", "my-5"])
        #expect((coach["prep_marks"] as? [Any])?.count == 2)
        let notes = try #require(coach["craving_notes"] as? [[String: Any]])
        #expect(notes.map { $0["type"] as? String } == ["physical"])
        #expect(notes.first?["detail"] as? String == "water")
        #expect(notes.first?["text"] as? String == "=1+1 thirsty, \"really\"")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-coach-\(UUID().uuidString).json").path
        #expect(try reflect(["export", "--out", file]).status == 0)
        #expect(try reflect(["delete-all", "--yes"]).status == 0)
        let empty = try #require(try export()["coach"] as? [String: Any])
        #expect(empty.values.allSatisfy { ($0 as? [Any])?.isEmpty == true })
        #expect(try reflect(["settings", "get", "voice"]).stdout == "nice\n")
        #expect(try reflect(["prep", "list", "--format", "json"]).stdout.contains("my-5") == false)

        let imported = try reflect(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("coach records: 10"), "\(imported.stdout)")
        #expect(NSDictionary(dictionary: try export()).isEqual(to: before))
        #expect(try reflect(["settings", "get", "voice"]).stdout == "rude\n")
        let again = try reflect(["import", file])
        #expect(again.stdout.contains("coach records: 0\n") && again.stdout.contains("coach records: 10\n"), "\(again.stdout)")
        #expect(NSDictionary(dictionary: try export()).isEqual(to: before))
    }

    @Test("CSV has a row per setting, prep item, mark and craving note; a formula-like note is neutralised")
    func csv() throws {
        try fill()
        let out = try reflect(["export", "--format", "csv"])
        let lines = out.stdout.components(separatedBy: "\r\n")
        #expect(lines.filter { $0.hasPrefix("setting,") }.count == 2)
        #expect(lines.filter { $0.hasPrefix("prep_item,") }.count == 5)
        #expect(lines.filter { $0.hasPrefix("prep_mark,") }.count == 2)
        let note = try #require(lines.first { $0.hasPrefix("craving_note,") })
        #expect(note.contains(",water,physical,,\"'=1+1 thirsty, \"\"really\"\"\","))
    }

    @Test("a bad coach row refuses the whole import, naming it; nothing is written")
    func atomicImport() throws {
        try fill()
        let good = try export()
        var doc = good
        var coach = try #require(doc["coach"] as? [String: Any])
        var marks = try #require(coach["prep_marks"] as? [[String: Any]])
        marks[1]["day"] = "2026-02-30"
        coach["prep_marks"] = marks
        doc["coach"] = coach
        doc["exported_at"] = "2026-11-25T08:00:00+01:00"
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-coach-\(UUID().uuidString).sqlite").path
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-coach-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: doc).write(to: file)
        let out = try reflect(["import", file.path], db: other)
        #expect(out.status == 1)
        #expect(out.stderr.contains("coach.prep_marks[1].day: '2026-02-30' is not a day"), "\(out.stderr)")
        let after = try export(other)
        #expect((after["sessions"] as? [Any])?.isEmpty == true)
        #expect((after["coach"] as? [String: Any])?.values.allSatisfy { ($0 as? [Any])?.isEmpty == true } == true)

        var settings = try #require((good["coach"] as? [String: Any])?["settings"] as? [[String: Any]])
        settings[0]["value"] = "Mars/Base"
        var bad = good
        var badCoach = try #require(bad["coach"] as? [String: Any])
        badCoach["settings"] = settings
        bad["coach"] = badCoach
        bad["exported_at"] = "2026-11-25T08:00:00+01:00"
        try JSONSerialization.data(withJSONObject: bad).write(to: file)
        let refused = try reflect(["import", file.path], db: other)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("coach.settings[0].value"), "\(refused.stderr)")
    }

    @Test("an export from before the coach (no coach section) still imports")
    func olderExport() throws {
        let legacy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/legacy-negative-v1.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: legacy)) as? [String: Any])
        #expect(json["coach"] == nil)
        let out = try reflect(["import", legacy.path])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("Imported — sessions: 1,"))
    }
}

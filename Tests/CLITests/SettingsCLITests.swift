import Foundation
import Testing

@Suite("reflect settings and reflect today", .hangGuard)
struct SettingsCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-settings-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String]) throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], in: repositoryRoot)
    }

    func settingsJSON() throws -> [String: String] {
        let out = try reflect(["settings", "get", "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: String])
    }

    @Test("settings are stored in the database and read back by later commands")
    func storedSettings() throws {
        #expect(try settingsJSON()["day_boundary"] == "04:00")
        let set = try reflect(["settings", "set", "day-boundary", "05:00", "time_zone", "Europe/Berlin", "voice", "rude",
                               "midday_reminder", "12:30", "celebrations", "off", "personality", "zen"])
        #expect(set.status == 0, "\(set.stderr)")
        let after = try settingsJSON()
        #expect(after["day_boundary"] == "05:00")
        #expect(after["time_zone"] == "Europe/Berlin")
        #expect(after["voice"] == "rude")
        #expect(after["midday_reminder"] == "12:30")
        #expect(after["celebrations"] == "off")
        #expect(after["personality"] == "zen")
        #expect(try reflect(["settings", "get", "voice"]).stdout == "rude\n")
        let reset = try reflect(["settings", "reset", "voice"])
        #expect(reset.status == 0)
        #expect(try settingsJSON()["voice"] == "nice")
        #expect(try settingsJSON()["day_boundary"] == "05:00")
    }

    @Test("bad input gets a clear error and changes nothing: a day boundary of 25:00, an unknown time zone, key or pack")
    func refusals() throws {
        _ = try reflect(["settings", "set", "day_boundary", "05:00"])
        let before = try settingsJSON()
        let cases: [([String], String)] = [
            (["day_boundary", "25:00"], "day_boundary: '25:00' is not a time of day"),
            (["time_zone", "Mars/Olympus"], "time_zone: 'Mars/Olympus' is not a known time zone"),
            // The valid first pair is not applied either.
            (["voice", "rude", "time_zone", "Nowhere/City"], "time_zone: 'Nowhere/City'"),
            (["colour", "blue"], "unknown setting 'colour'"),
            (["personality", "nosuchpack"], "personality: 'nosuchpack' is not a pack"),
        ]
        for (pairs, message) in cases {
            let out = try reflect(["settings", "set"] + pairs)
            #expect(out.status == 1, "\(pairs)")
            #expect(out.stderr.contains(message), "\(out.stderr)")
            #expect(out.stdout.isEmpty)
        }
        #expect(try settingsJSON() == before)
    }

    @Test("at 00:30 the evening still belongs to the previous day (reflect today --now)")
    func afterMidnight() throws {
        let out = try reflect(["today", "--now", "2026-11-24T00:30:00+01:00", "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        #expect(json["day"] as? String == "2026-11-23")
        #expect(json["phase"] as? String == "evening")
        let text = try reflect(["today", "--now", "2026-11-24T00:30:00+01:00"])
        #expect(text.stdout.contains("2026-11-23"))
    }

    @Test("the stored time zone and boundary decide the day, whatever offset --now is written with")
    func zoneFromSettings() throws {
        _ = try reflect(["settings", "set", "time_zone", "America/New_York", "day_boundary", "06:00"])
        // 10:30 UTC = 05:30 in New York: before the 06:00 boundary.
        let out = try reflect(["today", "--now", "2026-11-24T10:30:00Z", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        #expect(json["day"] as? String == "2026-11-23")
        #expect(json["phase"] as? String == "evening")
        #expect((json["local_time"] as? String)?.hasSuffix("-05:00") == true)
    }

    @Test("reflect log at 00:30 logs the mood for the day that is still going (the logical day)")
    func logAfterMidnight() throws {
        let out = try reflect(["log", "good", "--now", "2026-11-24T00:30:00+01:00"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("2026-11-23: good"))
        _ = try reflect(["settings", "set", "day_boundary", "00:00"])
        #expect(try reflect(["log", "bad", "--now", "2026-11-24T00:30:00+01:00"]).stdout.hasPrefix("2026-11-24: bad"))
    }
}

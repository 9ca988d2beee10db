import Foundation
import Testing

/// An import counts for the days its sessions happened, as if the person had
/// used the app then (coach spec §6: a day counts when anything was logged
/// that day), whether or not the file has a `progress` section: an export
/// from before progress existed, or one written by another tool, still
/// gives the streak its days.
@Suite("Import: showed-up days without a progress section", .hangGuard)
struct ImportShowedUpDaysCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-import-days-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String]) throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], in: repositoryRoot)
    }

    /// A session of `day` (its clock at `time` with `offset`), with `facts`
    /// (JSON text) when given, holding `answers` (step, JSON value).
    static func session(_ n: Int, clock: String, status: String = "completed", facts: String? = nil,
                        answers: [(String, String)]) -> String {
        let list = answers.enumerated().map { i, a in
            #"{"step":"\#(a.0)","position":\#(i + 1),"kind":"\#(a.1.hasPrefix("{") ? "text" : "intensity")","question":"Q?","value":\#(a.1),"state":"answer","answered_at":"\#(clock)"}"#
        }.joined(separator: ",")
        let factsField = facts.map { #","facts":"\#($0.replacingOccurrences(of: "\"", with: "\\\""))""# } ?? ""
        return #"""
            {"id":"33333333-cccc-4000-8000-00000000000\#(n)","flow_id":"reflection.negative","flow_version":2,"locale":"en",
             "personality":null,"user":"default","mood":"bad","seed":\#(n),"clock":"\#(clock)","started_at":"\#(clock)",
             "completed_at":\#(status == "completed" ? "\"\(clock)\"" : "null"),"status":"\#(status)","pre":null,"post":null,
             "answers":[\#(list)],"distortions":[],"events":[]\#(factsField)}
            """#
    }

    @Test("imported sessions and craving notes mark their days; the streak and achievements follow; importing twice adds nothing")
    func importedDaysCount() throws {
        let sessions = [
            // The 17th and 18th by their clocks' local dates (no facts).
            Self.session(1, clock: "2026-11-17T20:00:00+01:00", answers: [("pre", "7")]),
            Self.session(2, clock: "2026-11-18T21:00:00+01:00", status: "active", answers: [("pre", "6")]),
            // After midnight, but the session's logical day (its facts) is the 19th.
            Self.session(3, clock: "2026-11-20T01:30:00+01:00", facts: #"{"day":"2026-11-19","phase":"evening"}"#,
                         answers: [("pre", "5")]),
            // Only a skipped step: a skipped step does not count.
            Self.session(4, clock: "2026-11-12T20:00:00+01:00", status: "active", answers: [("situation", #"{"skipped":true}"#)]),
        ]
        let document = #"""
            {"format":"reflect.export","version":1,"exported_at":"2026-11-20T21:00:00+01:00",
             "sessions":[\#(sessions.joined(separator: ","))],"mood_entries":[],
             "coach":{"settings":[],"prep_items":[],"prep_marks":[],
                      "craving_notes":[{"id":"n1","user":"default","session_id":null,"type":"stress","detail":null,
                                        "day":"2026-11-14","at":"2026-11-14T15:00:00+01:00","text":"Deadline panic"}]}}
            """#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-import-days-\(UUID().uuidString).json")
        try document.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }

        let imported = try reflect(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported — sessions: 4,"), "\(imported.stdout)")

        func progress() throws -> [String: Any] {
            let out = try reflect(["progress", "--format", "json", "--now", "2026-11-20T09:00:00+01:00"])
            #expect(out.status == 0, "\(out.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        }
        let report = try progress()
        let streak = try #require(report["streak"] as? [String: Any])
        // 17, 18, 19 in a row; today (the 20th) has nothing yet and does not break it.
        #expect(streak["current"] as? Int == 3, "\(streak)")
        #expect(streak["longest"] as? Int == 3, "\(streak)")
        #expect(streak["last_seven_days"] as? Int == 4, "the 14th (a craving note), 17, 18, 19: \(streak)")
        let weeks = try #require((report["heatmap"] as? [String: Any])?["weeks"] as? [[[String: Any]]])
        let counted = weeks.joined().filter { $0["counted"] as? Bool == true }.compactMap { $0["day"] as? String }
        #expect(counted == ["2026-11-14", "2026-11-17", "2026-11-18", "2026-11-19"], "\(counted)")
        let achievements = try #require(report["achievements"] as? [[String: Any]])
        #expect(achievements.map { "\($0["key"] as? String ?? "?")@\($0["day"] as? String ?? "?")" } == ["streak_3@2026-11-19"])

        let again = try reflect(["import", file.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(NSDictionary(dictionary: try progress()).isEqual(to: report), "importing twice adds nothing")
    }
}

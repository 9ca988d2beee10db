import Foundation
import Testing

/// `reflect experiments`, the experiment checks, exposure through `reflect
/// run`/`resume`, and experiment data in export/import/delete-all
/// (issue 16, docs/experiments.md).
@Suite("experiments: simulate, report, check, sticky wording")
struct ExperimentsCLITests {
    static let twoArms = """
        key: q1-wording
        status: running
        targeting: { flows: [reflection] }
        variations:
          - id: control
          - id: warm
            strings:
              en:
                reflection.negative.q1: "Tell me, in a sentence or two: what happened today?"
        """

    /// A content root with the repository's flows, locales and personalities and `experiments`.
    func content(_ experiments: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-exp-content-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("experiments"), withIntermediateDirectories: true)
        for sub in ["flows", "locales", "personalities"] {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(sub), withDestinationURL: repositoryRoot.appendingPathComponent(sub))
        }
        for (name, text) in experiments { try write(text, to: dir, name) }
        return dir
    }

    func write(_ text: String, to dir: URL, _ name: String) throws {
        try text.write(to: dir.appendingPathComponent("experiments/\(name).yaml"), atomically: true, encoding: .utf8)
    }

    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    func json(_ out: CLIRunner.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any], "\(out.stdout)\(out.stderr)")
    }

    @Test("A/A: 200 simulated experiments × 400 people, the primary metric is significant in 2–9% of them")
    func aaSimulation() throws {
        let dir = try content(["q1-wording": Self.twoArms])
        let out = try CLIRunner.run(["experiments", "simulate", "q1-wording", "--content", dir.path, "--runs", "200", "--people", "400",
                                     "--effect", "0", "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let share = try #require(try json(out)["significant_share"] as? Double)
        #expect(share >= 0.02 && share <= 0.09, "share \(share)")
    }

    @Test("A/B: a real effect of 0.5 intensity points at 400 people per arm is found in at least 80% of 200 runs")
    func abSimulation() throws {
        let dir = try content(["q1-wording": Self.twoArms])
        let out = try CLIRunner.run(["experiments", "simulate", "q1-wording", "--content", dir.path, "--runs", "200", "--people", "800",
                                     "--effect", "0.5", "--seed", "7", "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let summary = try json(out)
        let share = try #require(summary["significant_share"] as? Double)
        #expect(share >= 0.8, "share \(share)")
        #expect(abs((summary["mean_difference"] as? Double ?? 0) - 0.5) < 0.1)
    }

    @Test("a 55/45 split where 50/50 was configured raises the sample-ratio warning and gives no verdict; the report reads in every format")
    func sampleRatioMismatch() throws {
        let dir = try content(["q1-wording": Self.twoArms])
        let db = tempDB()
        let out = try CLIRunner.run(["experiments", "simulate", "q1-wording", "--content", dir.path, "--db", db, "--people", "4000",
                                     "--split", "0.55,0.45", "--effect", "0.5", "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let report = try json(out)
        #expect(report["sample_ratio_mismatch"] as? Bool == true)
        let comparisons = try #require(report["comparisons"] as? [[String: Any]])
        #expect(comparisons.count == 1 && comparisons[0]["verdict"] == nil)
        let text = try CLIRunner.run(["experiments", "report", "q1-wording", "--content", dir.path, "--db", db])
        #expect(text.status == 0 && text.stdout.contains("Sample ratio mismatch") && text.stdout.contains("no verdict"), "\(text.stdout)")
        let md = try CLIRunner.run(["experiments", "report", "q1-wording", "--content", dir.path, "--db", db, "--format", "md"])
        #expect(md.stdout.hasPrefix("# Experiment `q1-wording`") && md.stdout.contains("> **Warning:** Sample ratio mismatch"))
        // The same data with the split it was configured for: no warning.
        let fair = try CLIRunner.run(["experiments", "simulate", "q1-wording", "--content", dir.path, "--db", tempDB(), "--people", "4000",
                                      "--effect", "0.5", "--format", "json"])
        #expect(try json(fair)["sample_ratio_mismatch"] as? Bool == false)
        let list = try CLIRunner.run(["experiments", "list", "--content", dir.path, "--db", db])
        #expect(list.stdout.contains("q1-wording  running") && list.stdout.contains("4000 exposures"), "\(list.stdout)")
    }

    @Test("a report before anyone was exposed shows no mean for an arm with no data (—), never a mean of 0.00")
    func reportWithoutData() throws {
        let dir = try content(["q1-wording": Self.twoArms])
        let db = tempDB()
        let text = try CLIRunner.run(["experiments", "report", "q1-wording", "--content", dir.path, "--db", db])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("mean 0.00"), "\(text.stdout)")
        #expect(text.stdout.contains("  control: mean — (n = 0)") && text.stdout.contains("  warm: mean — (n = 0)"), "\(text.stdout)")
        #expect(text.stdout.contains("not enough data"), "\(text.stdout)")
        let md = try CLIRunner.run(["experiments", "report", "q1-wording", "--content", dir.path, "--db", db, "--format", "md"])
        #expect(md.stdout.contains("| `control` | — | 0 |") && !md.stdout.contains("| 0.00 | 0 |"), "\(md.stdout)")
    }

    @Test("people with several sessions: the report counts them per person too, and marks a verdict only sessions support")
    func perPersonCheck() throws {
        let dir = try content(["q1-wording": Self.twoArms])
        let db = tempDB()
        // Seed 12: 200 people with 1–8 alike sessions each and no true effect: per session p = 3e-6, per person p = 0.18.
        let out = try CLIRunner.run(["experiments", "simulate", "q1-wording", "--content", dir.path, "--db", db, "--people", "200",
                                     "--sessions-per-person", "8", "--person-noise", "2", "--seed", "12", "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let report = try json(out)
        #expect((report["repeat_people"] as? Int ?? 0) > 100 && report["most_sessions_per_person"] as? Int == 8)
        let comparison = try #require((report["comparisons"] as? [[String: Any]])?.first)
        #expect(comparison["verdict"] as? String == "better" && comparison["confirmed_per_person"] as? Bool == false, "\(comparison)")
        let text = try CLIRunner.run(["experiments", "report", "q1-wording", "--content", dir.path, "--db", db])
        #expect(text.stdout.contains("Counted per person (each person's mean change once;")
                && text.stdout.contains("WARNING: Sessions of one person are not independent")
                && text.stdout.contains("(not confirmed when each person counts once)"), "\(text.stdout)")
        let md = try CLIRunner.run(["experiments", "report", "q1-wording", "--content", dir.path, "--db", db, "--format", "md"])
        #expect(md.stdout.contains("### Counted per person") && md.stdout.contains("> **Warning:** Sessions of one person"), "\(md.stdout)")
        // One session each (the default): no per-person rows, nothing marked.
        let single = tempDB()
        _ = try CLIRunner.run(["experiments", "simulate", "q1-wording", "--content", dir.path, "--db", single, "--people", "400",
                               "--effect", "1"])
        let plain = try CLIRunner.run(["experiments", "report", "q1-wording", "--content", dir.path, "--db", single])
        #expect(plain.status == 0 && !plain.stdout.contains("per person (each") && !plain.stdout.contains("not confirmed"), "\(plain.stdout)")
        // Many runs: the share of runs significant counted both ways.
        let runs = try CLIRunner.run(["experiments", "simulate", "q1-wording", "--content", dir.path, "--runs", "20", "--people", "100",
                                      "--sessions-per-person", "4", "--person-noise", "2"])
        #expect(runs.stdout.contains("(1–4 sessions each)") && runs.stdout.contains("counted per person (each person's mean change once):"),
                "\(runs.stdout)")
        let bad = try CLIRunner.run(["experiments", "simulate", "q1-wording", "--content", dir.path, "--sessions-per-person", "0"])
        #expect(bad.status != 0 && bad.stderr.contains("--sessions-per-person must be between 1 and 1,000"), "\(bad.stderr)")
    }

    @Test("a person who goes back and resumes the next day sees the same wording, even after the weights change; a new session keeps it too")
    func stickyWording() throws {
        let warmOnly = Self.twoArms.replacingOccurrences(of: "targeting:", with: "weights: [0, 1]\ntargeting:")
        let dir = try content(["q1-wording": warmOnly])
        let db = tempDB()
        let warm = "Tell me, in a sentence or two: what happened today?"
        let day1 = try CLIRunner.run(["run", "reflection.negative", "--content", dir.path, "--db", db, "--user", "zoe", "--format", "jsonl",
                                      "--now", "2026-11-23T20:00:00+01:00", "--answers", "-"],
                                     stdin: "7\n{\"command\":\"back\"}\n7\n")
        #expect(day1.status == 0, "\(day1.stderr)")
        let variants = day1.events.filter { $0["event"] as? String == "variant" }
        #expect(variants.count == 1 && variants.first?["variation"] as? String == "warm", "\(day1.stdout)")
        #expect(day1.events.contains { $0["event"] as? String == "prompt" && $0["text"] as? String == warm })
        // Overnight the author moves everyone to control.
        try write(warmOnly.replacingOccurrences(of: "weights: [0, 1]", with: "weights: [1, 0]"), to: dir, "q1-wording")
        let day2 = try CLIRunner.run(["resume", "--content", dir.path, "--db", db, "--user", "zoe", "--format", "jsonl",
                                      "--now", "2026-11-24T09:00:00+01:00", "--answers", "-"])
        #expect(day2.status == 0, "\(day2.stderr)")
        #expect(day2.events.first { $0["event"] as? String == "prompt" }?["text"] as? String == warm, "\(day2.stdout)")
        #expect(!day2.events.contains { $0["event"] as? String == "variant" })
        // A new session: the stored arm wins over the new weights.
        let fresh = try CLIRunner.run(["run", "reflection.negative", "--new", "--content", dir.path, "--db", db, "--user", "zoe",
                                       "--format", "jsonl", "--now", "2026-11-24T09:05:00+01:00", "--answers", "-"], stdin: "6\n")
        #expect(fresh.events.contains { $0["event"] as? String == "prompt" && $0["text"] as? String == warm }, "\(fresh.stdout)")
        // Someone new gets the new weights.
        let other = try CLIRunner.run(["run", "reflection.negative", "--content", dir.path, "--db", db, "--user", "ana",
                                       "--format", "jsonl", "--now", "2026-11-24T09:05:00+01:00", "--answers", "-"], stdin: "6\n")
        #expect(other.events.contains { $0["event"] as? String == "prompt" && $0["text"] as? String == "What happened today that affected your mood?" })
        // One exposure per person and session; export, delete-all, import keep them.
        let export = try CLIRunner.run(["export", "--db", db, "--format", "json"])
        let doc = try json(export)
        let exposures = try #require(doc["experiment_exposures"] as? [[String: Any]])
        #expect(exposures.count == 3 && exposures.allSatisfy { $0["user"] != nil && $0["at"] != nil })
        #expect((doc["experiment_assignments"] as? [[String: Any]])?.count == 2)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-exp-export-\(UUID().uuidString).json")
        try Data(export.stdout.utf8).write(to: file)
        #expect(try CLIRunner.run(["delete-all", "--db", db, "--yes"]).status == 0)
        let emptied = try json(try CLIRunner.run(["export", "--db", db, "--format", "json"]))
        #expect((emptied["experiment_exposures"] as? [Any])?.isEmpty == true && (emptied["experiment_assignments"] as? [Any])?.isEmpty == true)
        let imported = try CLIRunner.run(["import", file.path, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        let again = try json(try CLIRunner.run(["export", "--db", db, "--format", "json"]))
        #expect((again["experiment_exposures"] as? [[String: Any]])?.count == 3)
        #expect((again["experiment_assignments"] as? [[String: Any]])?.count == 2)
        // Importing twice adds nothing.
        _ = try CLIRunner.run(["import", file.path, "--db", db])
        #expect((try json(try CLIRunner.run(["export", "--db", db, "--format", "json"]))["experiment_exposures"] as? [[String: Any]])?.count == 3)
    }

    @Test("a new seed re-randomizes everyone, people with a stored arm included; under the new seed the new arm is sticky again")
    func newSeedReRandomizes() throws {
        let dir = try content(["q1-wording": Self.twoArms])
        let db = tempDB()
        let warm = "Tell me, in a sentence or two: what happened today?", control = "What happened today that affected your mood?"
        func firstQuestion(_ now: String) throws -> String? {
            let run = try CLIRunner.run(["run", "reflection.negative", "--new", "--content", dir.path, "--db", db, "--user", "zoe",
                                         "--format", "jsonl", "--now", now, "--answers", "-"], stdin: "6\n")
            #expect(run.status == 0, "\(run.stderr)")
            return run.events.first { $0["event"] as? String == "prompt" && $0["step"] as? String == "situation" }?["text"] as? String
        }
        // Under the key as seed zoe hashes to 0.1812: control, stored.
        #expect(try firstQuestion("2026-11-23T20:00:00+01:00") == control)
        // The author reshuffles: under "reshuffle" zoe hashes to 0.5249, warm.
        try write(Self.twoArms.replacingOccurrences(of: "status: running", with: "status: running\nseed: reshuffle"), to: dir, "q1-wording")
        #expect(try firstQuestion("2026-11-24T20:00:00+01:00") == warm)
        // Now warm is zoe's arm: a weight change under the same seed keeps it.
        try write(Self.twoArms.replacingOccurrences(of: "status: running", with: "status: running\nseed: reshuffle\nweights: [1, 0]"),
                  to: dir, "q1-wording")
        #expect(try firstQuestion("2026-11-25T20:00:00+01:00") == warm)
        let doc = try json(try CLIRunner.run(["export", "--db", db, "--format", "json"]))
        let stored = try #require(doc["experiment_assignments"] as? [[String: Any]])
        #expect(stored.count == 1 && stored.first?["variant"] as? String == "warm" && stored.first?["seed"] as? String == "reshuffle", "\(stored)")
    }

    @Test("reflect check names file and line: status typo, unknown key, missing placeholder, weights, overlap")
    func check() throws {
        let dir = try content([
            "typo": "key: typo\nstatus: runing\nvariations:\n  - id: a\n  - id: b\n",
            "keys": """
                key: keys
                status: draft
                weights: [0.5, 0.3]
                variations:
                  - id: control
                  - id: b
                    strings:
                      en:
                        reflection.negative.q01: "What happened?"
                        reflection.negative.q2: "What thought kept coming back?"
                """,
            "q1-wording": Self.twoArms,
            "q1-short": Self.twoArms.replacingOccurrences(of: "key: q1-wording", with: "key: q1-short"),
        ])
        let out = try CLIRunner.run(["check", "--content", dir.path])
        #expect(out.status == 1)
        let text = out.stdout + out.stderr
        #expect(text.contains("experiments/typo.yaml:2: error X001: status 'runing' is not one of draft, running, stopped"), "\(text)")
        #expect(text.contains("experiments/keys.yaml:9: error X002: variation 'b': unknown locale key 'reflection.negative.q01'"), "\(text)")
        #expect(text.contains("experiments/keys.yaml:10: error X003: variation 'b', 'reflection.negative.q2' (en)"), "\(text)")
        #expect(text.contains("experiments/keys.yaml:3: error X004: weights sum to 0.8"), "\(text)")
        #expect(text.contains("error X005: running together with experiments/"), "\(text)")
        #expect(!text.contains("experiments/q1-wording.yaml:") || text.contains("X005"), "the well-formed experiment has no finding of its own")
    }
}

import Foundation
import ReflectCore
import Testing

// Issue 15 at the command line: a simulated history through --now, the
// progress report, celebrations across resume, and determinism.

private func fixture() throws -> ContentFixture {
    func read(_ path: String) throws -> String { try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8) }
    return try ContentFixture([
        "flows/coach/morning.lua": try read("Tests/Fixtures/progress/morning.lua"),
        "flows/coach/evening.lua": try read("Tests/Fixtures/progress/evening.lua"),
        "flows/coach/celebrations.lua": try read("flows/coach/celebrations.lua"),
    ])
}

extension CLIRunner {
    /// Runs another program (script(1), to give `reflect` a terminal) in
    /// the isolated environment.
    static func runTool(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = isolatedEnvironment(environment)
        let out = Pipe(), err = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

private let morningAnswers = """
    {"done": true}
    "someone who builds calm"
    "walking after lunch"
    "three slow breaths"
    {"done": true}

    """

private func celebrations(_ out: CLIRunner.Output) -> [[String: Any]] {
    out.events.filter { $0["event"] as? String == "celebration" }
}

private func summary(_ out: CLIRunner.Output) -> [String] {
    celebrations(out).map { "\($0["reason"] as? String ?? "?"):\($0["tier"] as? String ?? "none")" }
}

private struct History {
    let content: ContentFixture
    let db: String

    init() throws {
        content = try fixture()
        db = content.root.appendingPathComponent("reflect.sqlite").path
    }

    func run(_ flow: String, at now: String, answers: String, extra: [String] = []) throws -> CLIRunner.Output {
        let file = content.root.appendingPathComponent("answers-\(UUID().uuidString).jsonl")
        try answers.write(to: file, atomically: true, encoding: .utf8)
        return try CLIRunner.run(["run", flow, "--content", content.root.path, "--db", db, "--answers", file.path,
                                  "--format", "jsonl", "--now", now, "--seed", "7"] + extra)
    }

    func progress(at now: String, _ extra: [String] = []) throws -> CLIRunner.Output {
        try CLIRunner.run(["progress", "--db", db, "--now", now] + extra)
    }
}

@Suite("Progress and celebrations at the command line", .hangGuard)
struct ProgressCLITests {
    @Test("a 10-day history reaching a 7-day streak: the morning of the 7th day in a row ends with a big celebration")
    func tenDays() throws {
        let h = try History()
        var lastOutput: CLIRunner.Output?
        for d in [1, 2, 4, 5, 6, 7, 8, 9, 10] { // the 3rd is missed: the streak starts again on the 4th
            let out = try h.run("coach.morning", at: String(format: "2026-11-%02dT07:30:00+01:00", d), answers: morningAnswers)
            #expect(out.status == 0, "\(out.stderr)")
            let fired = summary(out)
            if d == 1 { #expect(fired.contains("first_stress_response:big")) }
            if d == 6 { #expect(fired.contains("streak_3:medium") == false, "morning_complete already took the medium: \(fired)") }
            if d < 10 { #expect(!fired.contains("streak_milestone:big"), "day \(d): \(fired)") }
            lastOutput = out
        }
        let last = try #require(lastOutput)
        // The morning ends with the big one: it is the last celebration, after the final answer.
        #expect(summary(last).last == "streak_milestone:big")
        #expect(summary(last).filter { $0.hasSuffix(":big") }.count == 1)
        #expect(summary(last).filter { $0.hasSuffix(":medium") } == ["morning_complete:medium"])
        let json = try h.progress(at: "2026-11-10T20:00:00+01:00", ["--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let streak = try #require(report["streak"] as? [String: Any])
        #expect(streak["current"] as? Int == 7)
        #expect(streak["longest"] as? Int == 7)
        #expect(streak["last_seven_days"] as? Int == 7)
        let earned = (report["achievements"] as? [[String: Any]] ?? []).map { "\($0["key"] as? String ?? "")@\($0["day"] as? String ?? "")" }
        #expect(earned == ["first_stress_response@2026-11-01", "streak_3@2026-11-06", "first_week_morning@2026-11-10", "streak_7@2026-11-10"])
        let weeks = try #require((report["heatmap"] as? [String: Any])?["weeks"] as? [[[String: Any]]])
        #expect(weeks.count == 12)
        #expect(weeks.joined().filter { $0["counted"] as? Bool == true }.count == 9)
        // A second morning on the same day: no second milestone.
        let again = try h.run("coach.morning", at: "2026-11-10T09:30:00+01:00", answers: morningAnswers, extra: ["--new"])
        #expect(!summary(again).contains("streak_milestone:big"))
        #expect(!summary(again).contains("reset_done:tiny"), "reset later the same day: none")
    }

    @Test("the same JSONL run twice with the same seed gives byte-identical events (apart from the session id)")
    func sameRunTwice() throws {
        func once() throws -> String {
            let h = try History()
            let out = try h.run("coach.morning", at: "2026-11-01T07:30:00+01:00", answers: morningAnswers)
            #expect(out.status == 0)
            let id = try #require(out.events.first { $0["session"] != nil }?["session"] as? String)
            return out.stdout.replacingOccurrences(of: id, with: "SESSION")
        }
        let first = try once()
        #expect(try once() == first)
        #expect(first.contains("\"event\":\"celebration\""))
    }

    @Test("back over a celebrating answer, and a resume: the celebration is neither repeated nor stored twice")
    func backAndResume() throws {
        let h = try History()
        // Up to the stress plan (big, first ever), back over it, answer it again; stop there.
        let first = try h.run("coach.morning", at: "2026-11-01T07:30:00+01:00", answers: """
            {"done": true}
            "someone who builds calm"
            "walking"
            "three slow breaths"
            {"command": "back"}
            "three slow breaths, then tea"

            """)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(summary(first).filter { $0.hasPrefix("first_stress_response") } == ["first_stress_response:big"])
        // Resume and finish: nothing from before fires again.
        let file = h.content.root.appendingPathComponent("rest.jsonl")
        try "{\"done\": true}\n".write(to: file, atomically: true, encoding: .utf8)
        let rest = try CLIRunner.run(["resume", "--content", h.content.root.path, "--db", h.db, "--answers", file.path,
                                      "--format", "jsonl", "--now", "2026-11-01T07:40:00+01:00"])
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(summary(rest) == ["morning_complete:medium"])
        // Stored once each.
        let export = try CLIRunner.run(["export", "--db", h.db])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let stored = ((doc["progress"] as? [String: Any])?["celebrations"] as? [[String: Any]] ?? []).map { $0["reason"] as? String ?? "" }
        #expect(stored == ["reset_done", "focus_with_identity", "first_stress_response", "morning_complete"])
    }

    @Test("--no-celebrations: no celebration events, achievements still recorded")
    func off() throws {
        let h = try History()
        let out = try h.run("coach.morning", at: "2026-11-01T07:30:00+01:00", answers: morningAnswers, extra: ["--no-celebrations"])
        #expect(out.status == 0)
        #expect(celebrations(out).isEmpty)
        let json = try h.progress(at: "2026-11-01T20:00:00+01:00", ["--format", "json"])
        #expect(json.stdout.contains("first_stress_response"))
    }

    @Test("the text report: streak, week, heatmap and achievements; colour only on a terminal, never with NO_COLOR")
    func textAndColor() throws {
        let h = try History()
        _ = try h.run("coach.morning", at: "2026-11-01T07:30:00+01:00", answers: morningAnswers)
        let text = try h.progress(at: "2026-11-02T20:00:00+01:00")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Days in a row: 1 · longest: 1"), "no '1 days': a count is a label and a value")
        #expect(text.stdout.contains("■"))
        #expect(text.stdout.contains("Your first plan for a stressful moment"), "an achievement by its name, not its key")
        #expect(!text.stdout.contains("\u{1B}["), "a pipe gets no colour")
        // On a terminal (script(1) gives it one): colour, unless NO_COLOR is set.
        let command = [CLIRunner.executable.path, "progress", "--db", h.db, "--now", "2026-11-02T20:00:00+01:00"].joined(separator: " ")
        let colored = try CLIRunner.runTool("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": ""])
        #expect(colored.stdout.contains("\u{1B}[32m■"))
        let plain = try CLIRunner.runTool("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": "1"])
        #expect(plain.stdout.contains("■"))
        #expect(!plain.stdout.contains("\u{1B}[32m"))
    }

    @Test("the text report speaks the --locale: German figures, weekdays and achievement names, no English left; Japanese weekdays keep the columns aligned")
    func textInLocale() throws {
        let h = try History()
        _ = try h.run("coach.morning", at: "2026-11-01T07:30:00+01:00", answers: morningAnswers)
        let de = try h.progress(at: "2026-11-02T20:00:00+01:00", ["--locale", "de"])
        #expect(de.status == 0, "\(de.stderr)")
        #expect(de.stdout.contains("Tage in Folge: 1 · längste Serie: 1"))
        #expect(de.stdout.contains("Mo Di Mi Do Fr Sa So"), "Monday first in German")
        #expect(de.stdout.contains("Erfolge"))
        #expect(de.stdout.contains("Dein erster Plan für einen stressigen Moment"))
        for english in ["Streak", "This week", "Achievements", "first_stress_response"] {
            #expect(!de.stdout.contains(english), "English '\(english)' in the German report")
        }
        // Each heatmap line is as wide as the header: 日 takes two columns, so does each cell.
        let ja = try h.progress(at: "2026-11-02T20:00:00+01:00", ["--locale", "ja"])
        let lines = ja.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.contains("日 月 火") })
        let rows = lines.filter { $0.first?.isNumber == true && $0.contains("-") && ($0.contains("·") || $0.contains("■")) }
        #expect(rows.count == 12)
        let headerEnd = DisplayWidth.of(header)
        // (every week but the current one, whose days after today are blank)
        let lastCell = rows.dropLast().map { row in DisplayWidth.of(String(row[..<(row.lastIndex { $0 == "·" || $0 == "■" } ?? row.endIndex)])) }
        #expect(lastCell.allSatisfy { $0 == headerEnd - 2 }, "the last cell sits under the last weekday: \(lastCell) vs \(headerEnd)")
    }

    @Test("reset achievements asks first; --yes clears them")
    func resetAchievements() throws {
        let h = try History()
        _ = try h.run("coach.morning", at: "2026-11-01T07:30:00+01:00", answers: morningAnswers)
        let declined = try CLIRunner.run(["progress", "reset-achievements", "--db", h.db], stdin: "n\n")
        #expect(declined.stdout.contains("Nothing changed"))
        #expect(try h.progress(at: "2026-11-01T20:00:00+01:00", ["--format", "json"]).stdout.contains("first_stress_response"))
        let enter = try CLIRunner.run(["progress", "reset-achievements", "--db", h.db, "--locale", "de"], stdin: "\n")
        #expect(enter.stdout.contains("[j/N]") && enter.stdout.contains("Nichts geändert."), "Enter keeps them: \(enter.stdout)")
        #expect(try h.progress(at: "2026-11-01T20:00:00+01:00", ["--format", "json"]).stdout.contains("first_stress_response"))
        let done = try CLIRunner.run(["progress", "reset-achievements", "--db", h.db, "--locale", "de"], stdin: "ja\n")
        #expect(done.status == 0)
        #expect(done.stdout.contains("Erfolge gelöscht."))
        #expect(!(try h.progress(at: "2026-11-01T20:00:00+01:00", ["--format", "json"]).stdout.contains("first_stress_response")))
    }

    @Test("reflect check: a misspelled tier, reason or pool in a rules file is R013 at its line, with a suggestion")
    func checkRules() throws {
        var files: [String: String] = [:]
        func read(_ path: String) throws -> String { try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8) }
        files["flows/coach/morning.lua"] = try read("Tests/Fixtures/progress/morning.lua")
        files["flows/coach/celebrations.lua"] = """
            return {
              after = function(s, step, answer)
                if step == "never" then s:celebrate { tier = "tiny", reason = "reste_done" } end
                if step == "nor" then s:celebrate { tier = "huge", reason = "win", pool = "warm" } end
              end,
            }
            """
        let content = try ContentFixture(files)
        let out = try CLIRunner.run(["check", "--content", content.root.path])
        #expect(out.status != 0)
        #expect(out.stdout.contains("flows/coach/celebrations.lua:3: error R013: unknown reason 'reste_done' (did you mean 'reset_done'?)"))
        #expect(out.stdout.contains("flows/coach/celebrations.lua:4: error R013: unknown tier 'huge'"))
        #expect(out.stdout.contains("flows/coach/celebrations.lua:4: error R013: unknown line pool 'warm'"))
    }

    @Test("transcript tests can expect celebrations, in order, and their absence")
    func transcripts() throws {
        let content = try fixture()
        let test = """
            flow: coach.morning
            tests:
              - name: a first morning
                steps:
                  - prompt: reset
                    answer: { done: true }
                    celebrations: ["tiny reset_done"]
                  - prompt: identity
                    answer: "someone who builds calm"
                    celebrations: []
                  - prompt: focus
                    answer: "walking"
                    celebrations: ["tiny focus_with_identity"]
                  - prompt: stress_response
                    answer: "three breaths"
                    celebrations: ["big first_stress_response"]
                  - prompt: start_day
                    answer: { done: true }
                    celebrations: ["medium morning_complete"]
              - name: a wrong expectation fails
                steps:
                  - prompt: reset
                    answer: { done: true }
                    celebrations: ["medium reset_done"]
            """
        try test.write(to: content.root.appendingPathComponent("flows/coach/morning.test.yaml"), atomically: true, encoding: .utf8)
        let out = try CLIRunner.run(["test", "--content", content.root.path])
        #expect(out.stdout.contains("expected celebrations [\"medium reset_done\"]"), "\(out.stdout)\(out.stderr)")
        #expect(out.stdout.contains("actual   celebrations [\"tiny reset_done\"]"))
        #expect(!out.stdout.contains("a first morning\n    "), "the first test passes")
    }
}

@Suite("Personality packs at the command line", .hangGuard)
struct PersonalityCLITests {
    @Test("reflect personalities lists every pack with a sample line in its voice")
    func list() throws {
        let out = try CLIRunner.run(["personalities", "--content", repositoryRoot.path, "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["id"] as? String ?? "" } == ["best_friend", "coach", "data_analyst", "default", "zen"])
        #expect(entries.first { $0["id"] as? String == "coach" }?["sample"] as? String == "Done. Now pick one small step for the next hour, and do it.")
        let text = try CLIRunner.run(["personalities", "--content", repositoryRoot.path])
        #expect(text.stdout.contains("zen"))
        #expect(text.stdout.contains("Breathe in, breathe out."))
    }

    @Test("reflect check validates packs: unknown keys, placeholder parity, unknown pools and lines past a pool's end")
    func check() throws {
        let content = try ContentFixture([
            "personalities/odd.yaml": """
                id: odd
                name: Odd
                strings:
                  en:
                    done.thanks: "Thanks!"
                    done.intensity: "From %1$@ to %2$@."
                    no.such.key: "Hello"
                    pool.cheers.1: "Yay"
                    pool.mini_celebration.16: "One too many"
                  xx:
                    done.thanks: "?"
                """,
        ])
        let out = try CLIRunner.run(["check", "--content", content.root.path])
        #expect(out.status != 0)
        #expect(out.stdout.contains("personalities/odd.yaml:7: error P001: 'no.such.key' (en): not a key of locales/en.yaml"), "\(out.stdout)")
        #expect(out.stdout.contains("personalities/odd.yaml:6: error P001: 'done.intensity' (en): placeholders differ"))
        #expect(out.stdout.contains("'pool.cheers.1' (en): unknown line pool 'cheers'"))
        #expect(out.stdout.contains("'pool.mini_celebration.16' (en): the mini_celebration pool has 15 lines"))
        #expect(out.stdout.contains("no locale 'xx'"))
        #expect(!out.stdout.contains("'done.thanks' (en)"), "a valid override is fine")
    }
}

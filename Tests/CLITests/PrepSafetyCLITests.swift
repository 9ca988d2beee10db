import Foundation
import Testing

/// Issue 19: a Prep Library item is the person's own words. Typed with
/// `reflect prep add` or `rename`, crisis text gets the crisis notice like
/// an answer; it is kept as written, and no flow ever shows it.
@Suite("Prep Library items pass the safety gate", .hangGuard)
struct PrepSafetyCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-prep-safety-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    @Test("reflect prep add with crisis text shows the notice and the region's lines; the evening checklist leaves the item out")
    func crisisItem() throws {
        let added = try reflect(["prep", "add", "I want to kill myself tonight", "--region", "US"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("988"), "\(added.stdout)")
        #expect(added.stdout.contains("5. I want to kill myself tonight  [my-5]"), "kept as written")
        let renamed = try reflect(["prep", "rename", "my-5", "I want to end it all", "--locale", "de"])
        // A German session's gate reads English too; the notice is German, with Germany's lines.
        #expect(renamed.stdout.contains("0800 111 0 111"), "\(renamed.stdout)")
        let plain = try reflect(["prep", "add", "Lay out my walking shoes"])
        #expect(plain.status == 0 && !plain.stdout.contains("988"))

        let answers = ["true", #""The walk after lunch""#, #""After the long meeting""#,
                       #"{"checklist": {"sticky_notes": "skip", "produce": "done", "water": "done", "breakfast": "partly", "my-6": "done"}}"#,
                       #""Fill the bottle""#, #"{"done": true}"#]
        let evening = try reflect(["run", "coach.evening", "--answers", "-", "--format", "jsonl", "--now", "2026-11-24T21:00:00+01:00"],
                                  stdin: answers.joined(separator: "\n") + "\n")
        #expect(evening.status == 0, "\(evening.stderr)")
        let prep = try #require(evening.events.first { $0["event"] as? String == "prompt" && $0["step"] as? String == "prep" })
        let ids = ((prep["options"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        #expect(ids == ["sticky_notes", "produce", "water", "breakfast", "my-6"], "\(ids)")
        #expect(!evening.stdout.contains("end it all") && !evening.stdout.contains("kill myself"))
    }
}

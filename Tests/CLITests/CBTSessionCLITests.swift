import Foundation
import Testing

/// The CBT coach session through the command line with a real store: a
/// related past entry found by FTS5, deleting it, and the profile from 👍 / 👎.
@Suite("CBT coach session", .timeLimit(.minutes(10)))
struct CBTSessionCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-cbt-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    func checkIn(_ day: Int, note: String) throws -> String {
        let answers = "7\n5\n4\n7\n6\n\(note)\n{\"done\": true}\n"
        let out = try reflect(["run", "journal.check-in", "--answers", "-", "--format", "jsonl", "--new",
                               "--now", String(format: "2026-11-%02dT21:00:00+01:00", day)], stdin: answers)
        #expect(out.status == 0, "\(out.stderr)")
        return try #require(out.events.first { $0["event"] as? String == "done" }?["session"] as? String)
    }

    /// A new CBT session answered up to its situation: its events (the
    /// session then waits, resumable, at the next prompt).
    func cbt(goal: String, situation: String, now: String) throws -> [[String: Any]] {
        let out = try reflect(["run", "cbt.session", "--answers", "-", "--format", "jsonl", "--new", "--now", now],
                              stdin: "\"\(goal)\"\n\"\(situation)\"\n")
        return out.events
    }

    @Test("a past check-in about the same thing is recalled after the situation; once deleted, it is not, while the earlier session is")
    func relatedEntryRecalled() throws {
        let presentation = try checkIn(10, note: "\"The presentation to the board made me shake\"")
        _ = try checkIn(11, note: "\"A quiet evening with a book\"")
        let events = try cbt(goal: "My fear of presenting", situation: "I have to give a presentation tomorrow", now: "2026-11-24T20:00:00+01:00")
        let related = try #require(events.first { $0["event"] as? String == "prompt" && $0["step"] as? String == "related" })
        #expect(related["text"] as? String == "You wrote about something similar on 2026-11-10: 'The presentation to the board made me shake'")
        let deleted = try reflect(["delete", presentation])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let again = try cbt(goal: "My fear of presenting", situation: "I have to give a presentation tomorrow", now: "2026-11-24T21:00:00+01:00")
        // What is left to recall is the first CBT session's own words, never the deleted check-in.
        let recalled = try #require(again.first { $0["event"] as? String == "prompt" && $0["step"] as? String == "related" }?["text"] as? String)
        #expect(!recalled.contains("board"), "a deleted entry is never recalled: \(recalled)")
        #expect(recalled.contains("2026-11-24: 'I have to give a presentation tomorrow'"), "\(recalled)")
    }

    @Test("reflect profile set and show; a wrong value or nothing to rate is a clear error")
    func ratingsShapeTheProfile() throws {
        let set = try reflect(["profile", "set", "tone", "direct", "--now", "2026-11-20T08:00:00+01:00"])
        #expect(set.status == 0, "\(set.stderr)")
        let shown = try reflect(["profile", "--format", "json"])
        let profile = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(profile["tone"] as? String == "direct")
        #expect(profile["response_length"] as? String == "medium")
        let bad = try reflect(["profile", "set", "tone", "grumpy"])
        #expect(bad.status != 0 && bad.stderr.contains("tone must be warm, direct, cheerful or neutral"))
        let none = try reflect(["rate", "down", "--chat"])
        #expect(none.status != 0 && none.stderr.contains("no chat reply to rate"))
    }

    @Test("👎 twice on short chat replies (\"rate\" lines) moves a short profile to medium; the ratings are exported")
    func chatRatings() throws {
        let set = try reflect(["profile", "set", "length", "short", "--now", "2026-11-20T08:00:00+01:00"])
        #expect(set.status == 0, "\(set.stderr)")
        let lines = ["\"I feel tired today\"", "{\"rate\": \"down\"}", "\"Work was a lot\"", "{\"rate\": \"down\"}", "{\"command\": \"quit\"}"]
        let chat = try reflect(["chat", "--messages", "-", "--format", "jsonl", "--generator", "template", "--now", "2026-11-21T20:00:00+01:00"],
                               stdin: lines.joined(separator: "\n") + "\n")
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.events.filter { $0["event"] as? String == "rated" }.count == 2, "\(chat.stdout)")
        let shown = try reflect(["profile", "--format", "json"])
        let profile = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(profile["response_length"] as? String == "medium", "\(shown.stdout)")
        let exported = try reflect(["export", "--format", "json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        let personalization = try #require(doc["personalization"] as? [String: Any])
        #expect((personalization["ratings"] as? [[String: Any]])?.count == 2)
    }
}

import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// Issue 13: records hold typed values (step ids, kinds, answers, moods,
/// categories), stored as the same text as before, and a stored value this
/// version does not know is a per-row error, never a crash or a default.
@Suite("typed records")
struct TypedRecordTests {
    @Test("typed fields are stored as the same text as before: answer JSON, raw values")
    func onDiskFormat() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s1"))
        var flagged = answer("s1", "thought", 1, .choices(["a", "b"]))
        flagged.kind = .multiChoice
        flagged.safety = .suicide
        try store.recordAnswer(answer("s1", "pre", 0, .integer(7)))
        try store.recordAnswer(answer("s1", "situation", 2, .text("The \"meeting\"")))
        try store.recordAnswer(flagged, safetyEvent: SessionEventRecord(sessionID: "s1", kind: .safety, step: "thought", category: .suicide,
                                                                        at: "2026-11-22T20:01:00+01:00"),
                               distortions: [DistortionRecord(sessionID: "s1", step: "thought", type: .shouldStatement, detectedAt: "2026-11-22T20:01:00+01:00")])
        try store.markDraft(session: "s1", step: "situation")
        let rows = try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT step, kind, value, state, safety FROM answer ORDER BY position")
                .map { row -> [String?] in ["step", "kind", "value", "state", "safety"].map { row[$0] } }
        }
        #expect(rows == [["pre", "text", "7", "answer", nil],
                         ["thought", "multi_choice", #"{"choices":["a","b"]}"#, "answer", "suicide"],
                         ["situation", "text", #""The \"meeting\"""#, "draft", nil]])
        let mood = try store.writer.read { db in try String.fetchOne(db, sql: "SELECT mood FROM session") }
        let type = try store.writer.read { db in try String.fetchOne(db, sql: "SELECT type FROM distortion") }
        let category = try store.writer.read { db in try String.fetchOne(db, sql: "SELECT category FROM session_event") }
        #expect(mood == "bad" && type == "should_statement" && category == "suicide")
    }

    @Test("a stored value this version does not know is a typed error when read; export reports it and keeps it as stored")
    func unknownStoredValues() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s1"))
        try store.recordAnswer(answer("s1", "situation", 0, .text("It rained")))
        try store.recordAnswer(answer("s1", "thought", 1, .text("I always fail")),
                               distortions: [DistortionRecord(sessionID: "s1", step: "thought", type: .labeling, detectedAt: "2026-11-22T20:01:00+01:00")])
        try store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE session SET mood = 'ecstatic'")
            try db.execute(sql: "UPDATE answer SET kind = 'essay' WHERE step = 'thought'")
            try db.execute(sql: "UPDATE distortion SET type = 'fortune_telling'")
            try db.execute(sql: "INSERT INTO mood_entry (user, day, mood, source, created_at, updated_at) VALUES ('default', '2026-11-22', 'elated', 'log', '2026-11-22T20:00:00+01:00', '2026-11-22T20:00:00+01:00')")
        }
        let readError = #expect(throws: StoreError.self) { try store.detail("s1") }
        #expect(readError?.description.contains("from database value \"ecstatic\" - column: \"mood\"") == true, "\(String(describing: readError))")
        #expect(readError?.description.contains("row: [") == false, "the error does not dump the whole row")
        let doc = try store.export(at: "2026-11-22T21:00:00+01:00")
        let s = try #require(doc.sessions.first)
        #expect(s.mood == "ecstatic")
        #expect(s.answers.map(\.kind) == ["text", "essay"])
        #expect(s.distortions.map(\.type) == ["fortune_telling"])
        let problems = doc.problems ?? []
        #expect(doc.moodEntries.map(\.mood) == ["elated"], "a mood this version does not know is exported as stored")
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.allSatisfy { ($0.hasPrefix("session s1") || $0.hasPrefix("mood entry 'default'/'2026-11-22'")) && $0.hasSuffix("exported as stored") },
                "\(problems)")
        #expect(problems.contains { $0.contains("\"ecstatic\"") && $0.contains("column: \"mood\"") }, "names the column and value: \(problems)")
        #expect(!problems.contains { $0.contains("I always fail") }, "a problem does not repeat the person's text: \(problems)")
    }
}

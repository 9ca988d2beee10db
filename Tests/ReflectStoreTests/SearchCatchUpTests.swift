import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// The related-entries index catches up after the answers, not in their
/// transaction (Store+SearchCatchUp.swift, docs/storage.md): an answer's
/// write only leaves its session pending; the index catches up in one
/// transaction, and before any search, so that a search never misses a
/// durable answer and never finds a stale one.
@Suite("Related entries: catching up after the answers")
struct SearchCatchUpTests {
    /// The index rows a full rebuild from the stored answers makes (what
    /// migration v13 and import do), as "session/step=body".
    func rebuilt(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: """
            SELECT session_id, step, \(SearchText.sqlName)(value) AS body FROM answer
            WHERE state = 'answer' AND safety IS NULL AND kind = 'text' AND \(SearchText.sqlName)(value) IS NOT NULL
            ORDER BY session_id, step
            """).map { "\($0["session_id"] as String)/\($0["step"] as String)=\($0["body"] as String)" }
    }

    /// The index's rows, as "session/step=body".
    func indexed(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT session_id, step, body FROM entry_text ORDER BY session_id, step")
            .map { "\($0["session_id"] as String)/\($0["step"] as String)=\($0["body"] as String)" }
    }

    func pending(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT session_id FROM entry_pending ORDER BY session_id")
    }

    /// The index's rows, a full rebuild's, and the pending sessions.
    func state(_ store: Store) throws -> (indexed: [String], rebuilt: [String], pending: [String]) {
        try store.writer.read { db in (try indexed(db), try rebuilt(db), try pending(db)) }
    }

    @Test("an answer's write leaves the index alone and its session pending; a new connection's search catches up and finds it")
    func searchCatchesUp() throws {
        let store = try temporaryStore()
        try store.beginSession(session("earlier", started: "2026-11-20T20:00:00+01:00"))
        try store.recordAnswer(answer("earlier", "situation", 0, .text("The presentation to the board made me shake")))
        try store.recordAnswer(answer("earlier", "thought", 1, .text("Everyone saw my hands")))
        let written = try state(store)
        #expect(written.indexed.isEmpty, "the answer's transaction does not write the index")
        #expect(written.pending == ["earlier"])
        // Another process (a new connection, as after a kill) searches.
        let other = try Store(path: store.path)
        let found = try other.relatedEntries(user: "default", to: "a presentation tomorrow", now: "2026-11-24T09:00:00+01:00",
                                             excluding: nil)
        #expect(found.map(\.text) == ["The presentation to the board made me shake"])
        let searched = try state(other)
        #expect(searched.pending.isEmpty)
        #expect(searched.indexed == searched.rebuilt)
        #expect(searched.indexed.count == 2)
        // Nothing pending: a search writes nothing, and catching up is a no-op.
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path + "-wal"))
        _ = try other.relatedEntries(user: "default", to: "presentation", now: "2026-11-24T09:00:00+01:00", excluding: nil)
        try other.catchUpRelatedEntries()
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path + "-wal")) == before, "nothing was written")
    }

    @Test("an answer marks its session pending again whenever the marker may be gone: another connection's catch-up, a tool's delete, its own catch-up",
          arguments: [Store.Reading.concurrent, .serialized])
    func markerAfterChanges(reading: Store.Reading) throws {
        let store = try temporaryStore(reading: reading)
        try store.beginSession(session("s", started: "2026-11-20T20:00:00+01:00"))
        try store.recordAnswer(answer("s", "situation", 0, .text("The presentation to the board made me shake")))
        try store.recordAnswer(answer("s", "thought", 1, .text("Everyone saw my hands")))
        #expect(try state(store).pending == ["s"])
        // Another process catches up between two answers of the session.
        let other = try Store(path: store.path)
        try other.catchUpRelatedEntries()
        #expect(try state(store).pending.isEmpty)
        try store.recordAnswer(answer("s", "evidence", 2, .text("Nobody mentioned my hands afterwards")))
        #expect(try state(store).pending == ["s"], "the answer after another connection's catch-up leaves its session pending")
        let found = try other.relatedEntries(user: "default", to: "mentioned afterwards", now: "2026-11-24T09:00:00+01:00", excluding: nil)
        #expect(found.map(\.text) == ["Nobody mentioned my hands afterwards"])
        // A tool (any SQLite connection) empties the markers.
        let tool = try DatabaseQueue(path: store.path)
        try tool.write { db in try db.execute(sql: "DELETE FROM entry_pending") }
        try store.recordAnswer(answer("s", "balanced", 3, .text("My hands shake and the talk still goes well")))
        #expect(try state(store).pending == ["s"], "the answer after another connection's delete leaves its session pending")
        // Its own catch-up.
        try store.catchUpRelatedEntries()
        #expect(try state(store).pending.isEmpty)
        try store.recordAnswer(answer("s", "plan", 4, .text("Practise the opening twice")))
        #expect(try state(store).pending == ["s"], "the answer after its own catch-up leaves its session pending")
        // An edit, and a second session in between.
        try store.beginSession(session("t", started: "2026-11-21T20:00:00+01:00"))
        try store.recordAnswer(answer("t", "situation", 0, .text("Rain all day")))
        try store.recordAnswer(answer("s", "plan", 4, .text("Practise the opening three times")))
        #expect(try state(store).pending == ["s", "t"])
        let all = try other.relatedEntries(user: "default", to: "practise opening rain", now: "2026-11-24T09:00:00+01:00",
                                           excluding: nil, limit: 10)
        #expect(Set(all.map(\.text)) == ["Practise the opening three times", "Rain all day"])
        let final = try state(other)
        #expect(final.indexed == final.rebuilt)
    }

    @Test("a search that leaves out the running session writes nothing for that session's pending answers, and still catches up for any other")
    func searchExcludingOwnSession() throws {
        let store = try temporaryStore()
        try store.beginSession(session("earlier", started: "2026-11-20T20:00:00+01:00"))
        try store.recordAnswer(answer("earlier", "situation", 0, .text("The presentation to the board made me shake")))
        try store.catchUpRelatedEntries()
        try store.beginSession(session("now", started: "2026-11-24T20:00:00+01:00"))
        try store.recordAnswer(answer("now", "situation", 0, .text("A presentation tomorrow")))
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path + "-wal"))
        let found = try store.relatedEntries(user: "default", to: "A presentation tomorrow", now: "2026-11-24T20:05:00+01:00",
                                             excluding: "now")
        #expect(found.map(\.text) == ["The presentation to the board made me shake"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path + "-wal")) == before, "nothing was written")
        #expect(try state(store).pending == ["now"])
        // Another session's answer, pending (its run was killed before its
        // catch-up): the search catches up and finds it.
        try store.beginSession(session("killed", started: "2026-11-23T20:00:00+01:00"))
        try store.recordAnswer(answer("killed", "situation", 0, .text("Rehearsed the presentation twice")))
        let again = try store.relatedEntries(user: "default", to: "presentation rehearsed", now: "2026-11-24T20:05:00+01:00",
                                             excluding: "now", limit: 5)
        #expect(Set(again.map(\.session)) == ["earlier", "killed"])
        let after = try state(store)
        #expect(after.pending.isEmpty)
        #expect(after.indexed == after.rebuilt)
        // A read-only store searches as long as only the left-out session is pending.
        try store.recordAnswer(answer("now", "thought", 1, .text("Everyone will see me shake")))
        let reader = try Store(path: store.path, access: .readOnly)
        #expect(try reader.relatedEntries(user: "default", to: "shake", now: "2026-11-24T20:05:00+01:00", excluding: "now")
            .map(\.session) == ["earlier"])
        #expect(throws: StoreError.searchNotCaughtUp(path: store.path)) {
            try reader.relatedEntries(user: "default", to: "shake", now: "2026-11-24T20:05:00+01:00", excluding: nil)
        }
    }

    @Test("the catch-up reads the pending sessions' answers by key, never every stored answer (its cost does not grow with the history)")
    func catchUpReadsByKey() throws {
        let store = try temporaryStore()
        for k in 0..<40 {
            try store.beginSession(session("s\(k)"))
            for i in 0..<5 { try store.recordAnswer(answer("s\(k)", "q\(i)", i, .text("An answer about work number \(i)"))) }
            if k < 39 { try store.catchUpRelatedEntries() }
        }
        let plan = try store.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Store.catchUpSQL).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.hasPrefix("SCAN p") }, "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH a USING PRIMARY KEY (session_id=?)") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN a") }, "\(plan)")
        try store.catchUpRelatedEntries()
        let final = try state(store)
        #expect(final.indexed == final.rebuilt)
        #expect(final.indexed.count == 200)
    }

    @Test("a read-only store refuses a search it cannot catch up for, rather than miss an answer")
    func readOnlyRefuses() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s"))
        try store.recordAnswer(answer("s", "situation", 0, .text("The presentation went badly")))
        let reader = try Store(path: store.path, access: .readOnly)
        #expect(throws: StoreError.searchNotCaughtUp(path: store.path)) {
            try reader.relatedEntries(user: "default", to: "presentation", now: "2026-11-24T09:00:00+01:00", excluding: nil)
        }
        try store.catchUpRelatedEntries()
        let found = try reader.relatedEntries(user: "default", to: "presentation", now: "2026-11-24T09:00:00+01:00", excluding: nil)
        #expect(found.map(\.session) == ["s"])
    }

    @Test("a first answer's write does not touch the themes table; an edit or going back replaces or removes its themes")
    func themesOnEdit() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s"))
        func themes() throws -> [String] {
            try store.writer.read { db in try String.fetchAll(db, sql: "SELECT step || ':' || theme FROM answer_theme ORDER BY step, theme") }
        }
        try store.recordAnswer(answer("s", "a", 0, .text("Work and money")), themes: [.work, .money])
        try store.recordAnswer(answer("s", "b", 1, .text("Sleep")), themes: [.sleep])
        #expect(try themes() == ["a:money", "a:work", "b:sleep"])
        try store.recordAnswer(answer("s", "a", 0, .text("Family")), themes: [.family])
        #expect(try themes() == ["a:family", "b:sleep"], "an edit replaces the step's themes")
        try store.recordAnswer(answer("s", "a", 0, .text("Nothing in particular")))
        #expect(try themes() == ["b:sleep"], "an edit that finds none leaves none")
        try store.markDraft(session: "s", step: StepID(stringLiteral: "b"))
        #expect(try themes().isEmpty, "a draft has no themes")
    }

    /// One random operation on the store (answers, edits, drafts, flags,
    /// deleted sessions, catch-ups, searches), as a person and other
    /// processes would do them.
    enum Operation: CaseIterable { case answer, edit, draft, flagged, other, delete, catchUp, search }

    @Test("random sequences of answers, edits, drafts, flags, deletions, catch-ups and searches: the index never holds a stale row, and after a catch-up or a search it equals a full rebuild")
    func randomSequences() throws {
        let words = ["presentation", "board", "sleep", "mother", "work", "rain", "walk", "deadline", "friend", "money",
                     "会議", "회의가", "éclair", "naïve"]
        var rng = SeededRandom(seed: 20)
        for round in 0..<12 {
            let store = try temporaryStore()
            var sessions: [String] = []
            var next = 0
            var catchUps = 0
            for _ in 0..<150 {
                let op = Operation.allCases.randomElement(using: &rng)!
                if sessions.isEmpty || (op == .answer && Int.random(in: 0..<6, using: &rng) == 0) {
                    let id = "r\(round)-\(next)"
                    next += 1
                    try store.beginSession(session(id, started: "2026-11-\(10 + next % 10)T20:00:00+01:00"))
                    sessions.append(id)
                }
                let s = sessions.randomElement(using: &rng)!
                let step = "q\(Int.random(in: 0..<5, using: &rng))"
                let text = (0..<Int.random(in: 0...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
                let position = Int.random(in: 0..<5, using: &rng)
                let record = AnswerRecord(sessionID: s, step: StepID(stringLiteral: step), position: position, kind: .text,
                                          question: "Q?", value: .text(text), answeredAt: "2026-11-20T20:00:00+01:00")
                switch op {
                case .answer, .edit:
                    try store.recordAnswer(record)
                case .flagged:
                    var flagged = record
                    flagged.safety = .selfHarm
                    try store.recordAnswer(flagged)
                case .other:
                    var other = record
                    (other.kind, other.value) = Bool.random(using: &rng) ? (.intensity, .integer(position)) : (.text, .skipped)
                    try store.recordAnswer(other)
                case .draft:
                    try store.markDraft(session: s, step: StepID(stringLiteral: step))
                case .delete:
                    try store.deleteSession(s, user: "default")
                    sessions.removeAll { $0 == s }
                case .catchUp:
                    try store.catchUpRelatedEntries()
                case .search:
                    _ = try store.relatedEntries(user: "default", to: words.randomElement(using: &rng)!, now: "2026-11-24T09:00:00+01:00",
                                                 excluding: nil, limit: 10)
                }
                let now = try state(store)
                // Between catch-ups the index may lack the newest answers,
                // never hold a row that is not the answer's now.
                #expect(Set(now.indexed).isSubset(of: now.rebuilt), "stale rows: \(Set(now.indexed).subtracting(now.rebuilt))")
                if op == .catchUp || op == .search {
                    #expect(now.indexed == now.rebuilt)
                    #expect(now.pending.isEmpty)
                    catchUps += 1
                }
            }
            try store.catchUpRelatedEntries()
            let final = try state(store)
            #expect(final.indexed == final.rebuilt)
            // The full-text index agrees with its content table (throws when not).
            try store.write { db in try db.execute(sql: "INSERT INTO entry_search (entry_search, rank) VALUES ('integrity-check', 1)") }
            // And it answers a search as a database rebuilt from scratch does.
            let copy = try temporaryStore()
            try copy.writer.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [store.path])
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO session SELECT * FROM other.session")
                    try db.execute(sql: "INSERT INTO answer SELECT * FROM other.answer")
                    try db.execute(sql: "INSERT INTO answer_theme SELECT * FROM other.answer_theme")
                    try db.execute(sql: """
                        INSERT INTO entry_text (session_id, step, body)
                            SELECT session_id, step, \(SearchText.sqlName)(value) FROM answer
                            WHERE state = 'answer' AND safety IS NULL AND kind = 'text' AND \(SearchText.sqlName)(value) IS NOT NULL
                        """)
                    return .commit
                }
                try db.execute(sql: "DETACH DATABASE other")
            }
            for word in words {
                let a = try store.relatedEntries(user: "default", to: word, now: "2026-11-24T09:00:00+01:00", excluding: nil, limit: 50)
                let b = try copy.relatedEntries(user: "default", to: word, now: "2026-11-24T09:00:00+01:00", excluding: nil, limit: 50)
                #expect(a == b, "\(word)")
            }
            #expect(catchUps > 0)
        }
    }
}

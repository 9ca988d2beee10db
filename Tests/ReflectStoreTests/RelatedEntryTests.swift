import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// The related-entries search (FTS5 bm25 + recency, docs/journal.md).
@Suite("Related entries")
struct RelatedEntryTests {
    /// A finished session `id` of `user` with one text answer per step, answered at `at`.
    func entry(_ store: Store, _ id: String, user: String = "default", at: String, _ answers: [(String, AnswerValue)],
               safety: SafetyCategory? = nil) throws {
        var s = session(id, started: at)
        s.user = user
        try store.beginSession(s)
        for (i, (step, value)) in answers.enumerated() {
            try store.recordAnswer(AnswerRecord(sessionID: id, step: StepID(stringLiteral: step), position: i, kind: .text,
                                                question: "?", value: value, answeredAt: at, safety: safety))
        }
    }

    let now = "2026-11-24T09:00:00+01:00"

    /// bm25 of each session's answer for `text`, as SQLite reports it.
    func bm25(_ store: Store, _ text: String) throws -> [String: Double] {
        try store.writer.read { db in
            let q = try #require(SearchText.query(text))
            let rows = try Row.fetchAll(db, sql: """
                SELECT t.session_id, bm25(entry_search) AS b FROM entry_search JOIN entry_text t ON t.id = entry_search.rowid
                WHERE entry_search MATCH ?
                """, arguments: [q])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["session_id"] as String, $0["b"] as Double) })
        }
    }

    @Test("relevance (bm25) and recency combine as 0.7 and 0.3: a more relevant entry of a year ago loses to a recent one")
    func rankingFormula() throws {
        let store = try temporaryStore()
        // Strongly relevant, a year old.
        try entry(store, "old", at: "2025-11-24T09:00:00+01:00",
                  [("situation", .text("Presentation slides, presentation nerves, a presentation for my boss"))])
        // Less relevant (one mention in a longer text), yesterday.
        try entry(store, "new", at: "2026-11-23T09:00:00+01:00",
                  [("situation", .text("After lunch my presentation went fine and then I cooked dinner with friends"))])
        // Relevant, a month ago.
        try entry(store, "month", at: "2026-10-25T09:00:00+01:00", [("situation", .text("Worried about a presentation"))])
        // Unrelated (and enough of them for bm25's inverse document
        // frequency to mean something).
        try entry(store, "other", at: "2026-11-23T10:00:00+01:00", [("situation", .text("Walked a dog in rain"))])
        for (i, text) in ["Cooked soup", "Long call with mum", "Slept nine hours", "Paid rent", "Garden, tomatoes",
                          "Swam twenty lengths", "Read a novel", "Quiet Sunday", "Fixed my bike", "Tea with Sam"].enumerated() {
            try entry(store, "filler\(i)", at: "2026-11-0\(i % 9 + 1)T10:00:00+01:00", [("note", .text(text))])
        }
        let query = "I'm worried about the presentation tomorrow"
        let found = try store.relatedEntries(user: "default", to: query, now: now, excluding: nil, limit: 10)
        let b = try bm25(store, query)
        #expect(b["old"]! < b["new"]!, "the year-old entry is the more relevant one by bm25 (FTS5: lower is better)")
        let best = b.values.min()!
        let age = ["old": 365.0, "new": 1.0, "month": 30.0]
        var expected: [String: Double] = [:]
        for (id, days) in age { expected[id] = 0.7 * b[id]! / best + 0.3 / (1 + days / 30) }
        #expect(found.map(\.session) == expected.sorted { $0.value > $1.value }.map(\.key))
        #expect(Set(found.map(\.session)) == ["old", "new", "month"], "an entry sharing no word is not related")
        for e in found { #expect(abs(e.score - expected[e.session]!) < 0.0001, "\(e.session): \(e.score)") }
        let newRank = try #require(found.firstIndex { $0.session == "new" }), oldRank = try #require(found.firstIndex { $0.session == "old" })
        #expect(newRank < oldRank, "recency outweighs the year-old entry's extra relevance")
        #expect(found[newRank].day == "2026-11-23" && found[newRank].flow == "reflection.negative")
        // Three by default.
        #expect(try store.relatedEntries(user: "default", to: query, now: now, excluding: nil).count == 3)
    }

    @Test("an entry about one of the person's topics to avoid is never found, however related; others still are")
    func topicsToAvoid() throws {
        let store = try temporaryStore()
        func tagged(_ id: String, _ text: String, _ themes: [Theme]) throws {
            try store.beginSession(session(id, started: "2026-11-20T09:00:00+01:00"))
            try store.recordAnswer(AnswerRecord(sessionID: id, step: "situation", position: 0, kind: .text, question: "?",
                                                value: .text(text), answeredAt: "2026-11-20T09:00:00+01:00"), themes: themes)
        }
        try tagged("rent", "Worried about the rent and the money for the presentation trip", [.money, .work])
        try tagged("slides", "Worried about the presentation slides", [.work])
        let query = "worried about the presentation"
        #expect(Set(try store.relatedEntries(user: "default", to: query, now: now, excluding: nil).map(\.session)) == ["rent", "slides"])
        #expect(try store.relatedEntries(user: "default", to: query, now: now, excluding: nil, avoiding: [.money]).map(\.session) == ["slides"])
        #expect(try store.relatedEntries(user: "default", to: query, now: now, excluding: nil, avoiding: [.money, .work]).isEmpty)
        #expect(Set(try store.relatedEntries(user: "default", to: query, now: now, excluding: nil, avoiding: [.family]).map(\.session))
                == ["rent", "slides"])
    }

    @Test("once there are 20 entries, a word in more than half of them does not make an entry related")
    func commonWordsAreNotRelated() throws {
        let store = try temporaryStore()
        for i in 0..<24 {
            try entry(store, "e\(i)", at: "2026-11-\(10 + i % 10)T09:00:00+01:00", [("note", .text("The day was long, entry \(i)"))])
        }
        try entry(store, "match", at: "2025-01-01T09:00:00+01:00", [("note", .text("The sister visit"))])
        #expect(try store.relatedEntries(user: "default", to: "the sister", now: now, excluding: nil).map(\.session) == ["match"])
        #expect(try store.relatedEntries(user: "default", to: "the", now: now, excluding: nil).isEmpty)
    }

    @Test("with equal relevance the more recent entry ranks first; with equal age the more relevant one")
    func recencyBreaksRelevanceTies() throws {
        let store = try temporaryStore()
        try entry(store, "march", at: "2026-03-01T09:00:00+01:00", [("note", .text("Slept badly before the exam"))])
        try entry(store, "october", at: "2026-10-01T09:00:00+01:00", [("note", .text("Slept badly before the exam"))])
        try entry(store, "weak", at: "2026-10-01T09:00:00+01:00", [("note", .text("An exam, and also a long day of many other unrelated things happening"))])
        let found = try store.relatedEntries(user: "default", to: "slept badly, exam", now: now, excluding: nil, limit: 3)
        #expect(found.map(\.session) == ["october", "march", "weak"])
    }

    @Test("only the person's own kept, unflagged text answers are found; not this session's, not later ones")
    func whatIsSearched() throws {
        let store = try temporaryStore()
        try entry(store, "mine", at: "2026-11-20T09:00:00+01:00", [("note", .text("The deadline at work scares me"))])
        try entry(store, "theirs", user: "someone-else", at: "2026-11-20T09:00:00+01:00", [("note", .text("The deadline at work scares me"))])
        try entry(store, "flagged", at: "2026-11-20T09:00:00+01:00", [("note", .text("The deadline at work scares me"))], safety: .selfHarm)
        try entry(store, "skipped", at: "2026-11-20T09:00:00+01:00", [("note", .skipped)])
        try entry(store, "current", at: "2026-11-24T08:00:00+01:00", [("note", .text("Another deadline at work"))])
        try entry(store, "later", at: "2026-11-25T09:00:00+01:00", [("note", .text("The deadline at work passed"))])
        try entry(store, "draft", at: "2026-11-21T09:00:00+01:00", [("note", .text("deadline deadline deadline"))])
        try store.markDraft(session: "draft", step: "note")
        let found = try store.relatedEntries(user: "default", to: "deadline at work", now: now, excluding: "current")
        #expect(found.map(\.session) == ["mine"])
        // An answer edited after going back is found by its new words only.
        try store.recordAnswer(AnswerRecord(sessionID: "draft", step: "note", position: 0, kind: .text, question: "?",
                                            value: .text("A calm walk by the river"), answeredAt: "2026-11-21T09:00:00+01:00"))
        #expect(try store.relatedEntries(user: "default", to: "deadline", now: now, excluding: "current").map(\.session) == ["mine"])
        #expect(try store.relatedEntries(user: "default", to: "river", now: now, excluding: nil).map(\.session) == ["draft"])
    }

    @Test("deleting an entry, or everything, removes it from the index; an import puts it back")
    func deleteAndImport() throws {
        let store = try temporaryStore()
        try entry(store, "a", at: "2026-11-20T09:00:00+01:00", [("note", .text("Argued with my sister about money"))])
        try entry(store, "b", at: "2026-11-21T09:00:00+01:00", [("note", .text("My sister called, we laughed"))])
        let exported = try store.export(at: now)
        // Both indexed first, so that deleting has something to remove.
        try store.catchUpRelatedEntries()
        #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_search WHERE entry_search MATCH 'money'") } == 1)
        try store.deleteSession("a", user: "default")
        #expect(try store.relatedEntries(user: "default", to: "sister money", now: now, excluding: nil).map(\.session) == ["b"])
        let indexed = try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry_search WHERE entry_search MATCH 'money'") }
        #expect(indexed == 0, "the deleted answer's words are gone from the index, not only filtered out")
        try store.deleteAll()
        #expect(try store.relatedEntries(user: "default", to: "sister", now: now, excluding: nil).isEmpty)
        _ = try store.importDocument(exported)
        #expect(try store.relatedEntries(user: "default", to: "sister money", now: now, excluding: nil).map(\.session) == ["a", "b"])
        // FTS5's own check that the index matches its content table (throws when not).
        try store.writer.write { db in try db.execute(sql: "INSERT INTO entry_search (entry_search, rank) VALUES ('integrity-check', 1)") }
    }

    @Test("Japanese and Korean text is found by its words, without spaces (bigram indexing)")
    func cjk() throws {
        let store = try temporaryStore()
        try entry(store, "ja", at: "2026-11-20T09:00:00+01:00", [("note", .text("明日の会議が不安です"))])
        try entry(store, "ko", at: "2026-11-20T09:00:00+01:00", [("note", .text("내일 회의가 걱정돼요"))])
        try entry(store, "de", at: "2026-11-20T09:00:00+01:00", [("note", .text("Die Präsentation morgen macht mir Sorgen"))])
        #expect(try store.relatedEntries(user: "default", to: "会議のことを考えている", now: now, excluding: nil).map(\.session) == ["ja"])
        #expect(try store.relatedEntries(user: "default", to: "회의를 준비했어요", now: now, excluding: nil).map(\.session) == ["ko"])
        #expect(try store.relatedEntries(user: "default", to: "praesentation PRASENTATION präsentation", now: now, excluding: nil)
            .map(\.session) == ["de"], "case and accents are folded")
    }

    @Test("a query of only punctuation, or of FTS5 syntax, is no error")
    func hostileQuery() throws {
        let store = try temporaryStore()
        try entry(store, "a", at: "2026-11-20T09:00:00+01:00", [("note", .text("NEAR the \"end\" OR not"))])
        #expect(try store.relatedEntries(user: "default", to: "?!…", now: now, excluding: nil).isEmpty)
        #expect(try store.relatedEntries(user: "default", to: "\"end\" NEAR(x y) AND OR * ^col:", now: now, excluding: nil).map(\.session) == ["a"])
    }
}

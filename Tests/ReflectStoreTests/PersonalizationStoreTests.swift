import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

@Suite("Personalization and recalled entries in the store")
struct PersonalizationStoreTests {
    @Test("ratings update the profile; choices made later win over earlier ratings; rating a reply again replaces it")
    func profileFromRatings() throws {
        let store = try temporaryStore()
        #expect(try store.personalizationProfile(user: "default") == PersonalizationProfile())
        try store.rate(.chat(chatID: "c1", position: 1), user: "default", rating: ReplyRating(rating: .down, length: .long),
                       at: "2026-11-20T10:00:00+01:00")
        try store.rate(.chat(chatID: "c1", position: 3), user: "default", rating: ReplyRating(rating: .down, length: .long),
                       at: "2026-11-20T10:05:00+01:00")
        #expect(try store.personalizationProfile(user: "default").responseLength == .short)
        // Rating the second reply again (👍) replaces the 👎: one 👎 left.
        try store.rate(.chat(chatID: "c1", position: 3), user: "default", rating: ReplyRating(rating: .up, length: .long),
                       at: "2026-11-20T10:06:00+01:00")
        #expect(try store.personalizationProfile(user: "default").responseLength == .medium)
        try store.savePersonalizationChoices(PersonalizationChoices(tone: .direct, responseLength: .long, avoidTopics: [.money]),
                                             user: "default", at: "2026-11-21T09:00:00+01:00")
        let p = try store.personalizationProfile(user: "default")
        #expect(p.tone == .direct && p.responseLength == .long && p.avoidTopics == [.money])
        #expect(try store.personalizationProfile(user: "someone-else") == PersonalizationProfile())
    }

    @Test("choices, ratings and a session's recalled entries go through export, delete-all and import unchanged")
    func roundTrip() throws {
        let store = try temporaryStore()
        let recalled = [RecalledEntries(id: "related", basis: "abc", entries: [
            RelatedEntry(day: "2026-10-02", text: "The deadline scared me", flow: "journal.check-in", session: "old", step: "note", score: 0.81)])]
        var s = session("s1")
        s.recalled = String(decoding: try JSONEncoder().encode(recalled), as: UTF8.self)
        try store.beginSession(s)
        try store.rate(.session("s1"), user: "default", rating: ReplyRating(rating: .up, length: .short, themes: [.work], actionThemes: [.exercise]),
                       at: "2026-11-22T20:30:00+01:00")
        try store.savePersonalizationChoices(PersonalizationChoices(tone: .cheerful, preferredActions: [.friends]), user: "default",
                                             at: "2026-11-22T08:00:00+01:00")
        let before = try store.export(at: "2026-11-23T00:00:00Z")
        #expect(before.sessions.first?.recalled == recalled)
        #expect(before.personalization?.ratings.first?.actionThemes == ["exercise"])
        #expect(before.csv().contains("profile,"))
        #expect(before.csv().contains("rating,s1,"))
        let profile = try store.personalizationProfile(user: "default")
        try store.deleteAll()
        #expect(try store.personalizationChoices(user: "default") == nil)
        #expect(try store.replyRatings(user: "default").isEmpty)
        let json = try JSONEncoder().encode(before)
        _ = try store.importDocument(try ExportDocument.decodeValidated(from: json))
        #expect(try store.export(at: "2026-11-23T00:00:00Z") == before)
        #expect(try store.personalizationProfile(user: "default") == profile)
        // An export from before the profile (no `personalization`, no `recalled`) still imports.
        var old = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        old["personalization"] = nil
        var sessions = try #require(old["sessions"] as? [[String: Any]])
        sessions[0]["recalled"] = nil
        sessions[0]["id"] = "s2"
        old["sessions"] = sessions
        _ = try store.importDocument(try ExportDocument.decodeValidated(from: try JSONSerialization.data(withJSONObject: old)))
        #expect(try store.detail("s2").session.recalled == nil)
    }

    @Test("a malformed rating or choice in an import names the record and field, and writes nothing")
    func malformed() throws {
        let store = try temporaryStore()
        var doc = ExportDocument(exportedAt: "2026-11-23T00:00:00Z", sessions: [], moodEntries: [])
        doc.personalization = ExportedPersonalization(ratings: [
            ExportedReplyRating(user: "default", target: "chat", targetID: "c:1", rating: "meh", length: "short", themes: [], actionThemes: [],
                                at: "2026-11-22T20:30:00+01:00")])
        let error = #expect(throws: StoreError.self) { try store.importDocument(doc) }
        guard case .invalidImport(let record, let field, _)? = error else { Issue.record("wrong error"); return }
        #expect(record == "personalization.ratings[0]" && field == "rating")
        doc.personalization = ExportedPersonalization(choices: [
            ExportedProfileChoices(user: "default", tone: "grumpy", responseLength: nil, preferredActions: [], avoidTopics: [],
                                   updatedAt: "2026-11-22T20:30:00+01:00")])
        #expect(throws: StoreError.self) { try store.importDocument(doc) }
        #expect(try store.personalizationChoices(user: "default") == nil)
    }
}

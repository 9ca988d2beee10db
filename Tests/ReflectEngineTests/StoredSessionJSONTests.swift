import Foundation
import Testing
import ReflectCore
import ReflectStore
import ReflectStoreJournal
@testable import ReflectEngine

/// A session's facts and experiment arms are stored as JSON text
/// (`session.facts`, `session.variants`): the same facts must always be the
/// same text, so that two sessions started from the same facts store the
/// same bytes (the export writes them exactly as stored). JSONEncoder's own
/// key order on Linux is a dictionary's and changes from one encoding to
/// the next; the store's encoder sorts the keys (docs/storage.md).
@Suite("Stored session JSON")
struct StoredSessionJSONTests {
    /// Facts with every part filled in: nested objects at several levels.
    static func facts(prepFirst: Bool) -> UserFacts {
        var f = UserFacts()
        // The same values, set in a different order.
        if prepFirst {
            f.prepItems = [PrepItem(id: "water", label: .key("prep.water"), core: true), PrepItem(id: "my-5", label: .literal("Shoes by the door"), core: false)]
            f.lastNightPrep = [PrepMark(itemID: "water", mark: .done)]
        }
        f.profile = PersonalizationProfile(tone: .warm, responseLength: .short, preferredActions: [.sleep], avoidTopics: [.money])
        f.streak = StreakFigures(current: 3, longest: 9, lastSevenDays: 4, today: true)
        f.earlierAnswers = [EarlierAnswer(flow: "coach.morning", step: "stress_response", value: .text("Dance to one song"))]
        f.day = "2026-11-22"
        f.phase = .evening
        f.firstToday = false
        f.firstEver = false
        if !prepFirst {
            f.prepItems = [PrepItem(id: "water", label: .key("prep.water"), core: true), PrepItem(id: "my-5", label: .literal("Shoes by the door"), core: false)]
            f.lastNightPrep = [PrepMark(itemID: "water", mark: .done)]
        }
        return f
    }

    @Test("the same facts and arms are stored as the same bytes, keys sorted, and read back equal")
    func sameFactsSameText() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-stored-json-\(UUID().uuidString)")
        let store = try Store(path: dir.appendingPathComponent("db.sqlite").path)
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        let flow = try library.catalog.source(for: "reflection", mood: .bad)
        let arms = [VariantAssignment(experiment: "closing_line", variation: "warm", bucketVersion: 2),
                    VariantAssignment(experiment: "opening", variation: "short", bucketVersion: 1)]
        let version = try FlowSession.open(flow, language: try english(), options: options()).definition.version
        var stored: [(facts: String, variants: String)] = []
        for i in 0..<24 {
            var opts = options()
            opts.sessionID = "s\(i)"
            // A session starting with these facts and arms (as `reflect run`
            // gives them: a save holding them, no answer yet).
            let start = SessionSave(flow: "reflection.negative", flowVersion: version, seed: 42, now: morning.iso8601, locale: "en",
                                    mood: .bad, facts: Self.facts(prepFirst: i.isMultiple(of: 2)), variants: arms)
            let session = try FlowSession.open(flow, language: try english(), options: opts, resuming: start)
            try store.beginSession(SessionRecord(starting: session, user: "u", personality: nil, startedAt: "2026-11-22T20:15:00+01:00"))
            let row = try store.detail("s\(i)").session
            stored.append((try #require(row.facts), try #require(row.variants)))
        }
        #expect(Set(stored.map(\.facts)).count == 1, "one text for the same facts: \(Set(stored.map(\.facts)))")
        #expect(Set(stored.map(\.variants)).count == 1, "one text for the same arms: \(Set(stored.map(\.variants)))")
        // Sorted keys: the text is what a sorting encoder writes, and it
        // reads back as the facts it was made from.
        let sorting = JSONEncoder()
        sorting.outputFormatting = .sortedKeys
        let expected = String(decoding: try sorting.encode(Self.facts(prepFirst: true)), as: UTF8.self)
        #expect(stored[0].facts == expected)
        #expect(try JSONDecoder().decode(UserFacts.self, from: Data(stored[0].facts.utf8)) == Self.facts(prepFirst: false))
        #expect(try JSONDecoder().decode([VariantAssignment].self, from: Data(stored[0].variants.utf8)) == arms)
    }
}

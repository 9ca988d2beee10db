import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

@Suite("Personality packs")
struct PersonalityTests {
    @Test("a pack's overrides win over the locale; one with different placeholders is dropped; unknown packs are errors")
    func overrides() throws {
        let fixture = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-pers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fixture.appendingPathComponent("personalities"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: fixture.appendingPathComponent("locales"), withIntermediateDirectories: true)
        try """
            locale: en
            strings:
              a.plain: "Plain"
              a.quote: "About '%@'?"
            \(EngineString.allCases.map { "  \($0.key): \"-\"" }.joined(separator: "\n"))
            safety:
              phrases:
                suicide: ["i want to die"]
              resources:
                default: ["Call 112"]
            """.write(to: fixture.appendingPathComponent("locales/en.yaml"), atomically: true, encoding: .utf8)
        try """
            id: warm
            name: Warm
            strings:
              en:
                a.plain: "Warmly plain"
                a.quote: "About that, no quote?"
            """.write(to: fixture.appendingPathComponent("personalities/warm.yaml"), atomically: true, encoding: .utf8)
        let library = ContentLibrary(root: ContentRoot(fixture))
        let warm = try library.language(for: "en", personality: "warm")
        #expect(warm.localizer.string("a.plain") == "Warmly plain")
        #expect(warm.localizer.string("a.quote") == "About '%@'?", "an override that drops the %@ is not used")
        #expect(warm.personality == "warm")
        #expect(try library.language(for: "en").localizer.string("a.plain") == "Plain")
        let error = try #require(throws: EngineError.self) { try library.language(for: "en", personality: "grumpy") }
        #expect(error.message.contains("available: warm"))
    }

    @Test("the shipped packs load and keep every placeholder of the strings they override")
    func shippedPacks() throws {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        #expect(library.availablePersonalities() == ["best_friend", "coach", "data_analyst", "default", "zen"])
        let english = try library.locale("en")
        for id in library.availablePersonalities() {
            let pack = try library.personality(id)
            for (key, text) in pack.strings["en"] ?? [:] {
                let source = try #require(english?.strings[key], "\(id) overrides unknown key \(key)")
                #expect(Template(source).arguments == Template(text).arguments, "\(id): \(key)")
            }
        }
        let zen = try library.language(for: "en", personality: "zen")
        #expect(zen.localizer.string("reflection.negative.q1") == "Gently: what happened today that touched your mood?")
    }

    @Test("each pack's voice on the same run: its own questions, closing and pool lines; the rest falls back key by key")
    func voicesOnTheSameRun() throws {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        let source = try library.catalog.source(for: "reflection.negative")
        var firstPrompts: [String: String] = [:]
        var closings: [String: String] = [:]
        for id in library.availablePersonalities() {
            let language = try library.language(for: "en", personality: id)
            let session = try FlowSession.open(source, language: language, options: options(seed: 3))
            firstPrompts[id] = session.current?.text
            try session.answer(.number(7))
            #expect(session.current?.step == "situation")
            closings[id] = language.string(.doneThanks)
        }
        let en = try library.language(for: "en")
        #expect(firstPrompts["default"] == en.localizer.string("intensity.pre"))
        #expect(closings["default"] == en.string(.doneThanks))
        // Every pack but default speaks in its own voice, all different.
        for id in ["best_friend", "coach", "data_analyst", "zen"] {
            #expect(firstPrompts[id] != firstPrompts["default"], "\(id)")
            #expect(closings[id] != closings["default"], "\(id)")
        }
        #expect(Set(firstPrompts.values).count == 5)
        #expect(Set(closings.values).count == 5)
        #expect(firstPrompts["data_analyst"] == "Baseline reading: how strong is this feeling right now, 0 to 10?")
        #expect(try library.language(for: "en", personality: "data_analyst").localizer.string("done.intensity")
                == "You moved from a %1$@ to a %2$@ (%3$@ points).")
        // Pool lines are overridable too; lines a pack leaves alone are the locale's.
        let coach = try library.language(for: "en", personality: "coach")
        #expect(coach.localizer.string(LinePool.miniCelebration.key(1)) == "Done. That's one rep in the bank.")
        #expect(coach.localizer.string(LinePool.miniCelebration.key(2)) == "A care action, done. 🌱")
        // Key by key in another locale: an override where the pack has one, the locale's own wording elsewhere.
        let de = try library.language(for: "de", personality: "best_friend")
        let plainDE = try library.language(for: "de")
        #expect(de.localizer.string("intensity.pre") == "Hey, ich bin da. Wie stark ist das Gefühl gerade?")
        #expect(de.localizer.string("intensity.post") == plainDE.localizer.string("intensity.post"))
        let friendEN = try library.language(for: "en", personality: "best_friend")
        #expect(de.localizer.string("intensity.post") != friendEN.localizer.string("intensity.post"))
    }
}

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
        #expect(library.availablePersonalities() == ["best_friend", "default", "zen"])
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
}

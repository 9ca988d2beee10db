import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// Issue 20: a locale chain (parsed files and compiled lists) kept on disk
/// by ``CompiledCache``, so that starting a run parses no YAML and
/// compiles nothing it does not use.
@Suite("Locale chains cached on disk")
struct CompiledLanguageTests {
    /// A scratch content directory holding a copy of the repository's
    /// locale files, and a cache directory of its own.
    struct Scratch {
        let content: URL
        let cache: URL

        init() throws {
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-langcache-\(UUID().uuidString)")
            content = base.appendingPathComponent("content")
            cache = base.appendingPathComponent("cache")
            try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("locales"),
                                             to: content.appendingPathComponent("locales"))
        }

        var library: ContentLibrary { ContentLibrary(root: ContentRoot(content), cache: CompiledCache(directory: cache)) }
        var uncached: ContentLibrary { ContentLibrary(root: ContentRoot(content), cache: .none) }

        func files() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasPrefix("lang-") }.sorted()
        }

        func remove() { try? FileManager.default.removeItem(at: content.deletingLastPathComponent()) }
    }

    /// The repository's German chain compiled without a cache, once for
    /// every damage case (the scratch copies hold the same files).
    static let freshGerman = Result { () throws(EngineError) -> Language in
        try ContentLibrary(root: ContentRoot(repositoryRoot), cache: .none).language(for: "de")
    }

    static func fixtureTexts(_ tag: String) throws -> [String] {
        try SafetyTests.labelled("Tests/Fixtures/safety/\(tag).tsv").map(\.text)
            + SafetyTests.labelled("Tests/Fixtures/safety/heldout/\(tag).tsv").map(\.text)
    }

    static func generatedTexts(_ tag: String) throws -> [String] {
        try SafetyTests.labelled("Tests/Fixtures/safety/generated/\(tag).tsv").map(\.text)
    }

    /// Everything a session reads from a language, on `texts`, compared
    /// between two languages of the same chain.
    static func expectSame(_ a: Language, _ b: Language, texts: [String], generated: [String], _ tag: String) {
        #expect(a.localizer == b.localizer, "\(tag): strings and lists")
        for t in texts {
            #expect(a.safety.check(t) == b.safety.check(t), "\(tag): gate on “\(t)”")
            #expect(a.detector?.detection(t) == b.detector?.detection(t), "\(tag): detector on “\(t)”")
            #expect(a.themes.themes(in: t) == b.themes.themes(in: t), "\(tag): themes on “\(t)”")
            #expect(a.probe?.isVague(t) == b.probe?.isVague(t), "\(tag): probe on “\(t)”")
        }
        for t in generated + texts.prefix(50) {
            #expect(a.outputFilter.check(t) == b.outputFilter.check(t), "\(tag): output filter on “\(t)”")
        }
    }

    @Test("a cached chain gives the same strings, gate, detector, themes and output filter as a freshly compiled one",
          arguments: ["en", "de", "ja"])
    func roundTrip(tag: String) throws {
        let s = try Scratch()
        defer { s.remove() }
        let fresh = try s.uncached.language(for: tag)
        let first = try s.library.language(for: tag)
        #expect(s.files().count == 1, "one file for the chain")
        let file = s.cache.appendingPathComponent(try #require(s.files().first))
        let written = try Data(contentsOf: file)
        let second = try s.library.language(for: tag)
        #expect(!second.parts.safety.isReady && !second.parts.detector.isReady && !second.parts.outputFilter.isReady,
                "read from the file: nothing compiled or read before it is used")
        #expect(try Data(contentsOf: file) == written, "a valid file is read, not rewritten")
        let texts = try CompiledLanguageTests.fixtureTexts(tag), generated = try CompiledLanguageTests.generatedTexts(tag)
        CompiledLanguageTests.expectSame(fresh, first, texts: texts, generated: generated, tag)
        CompiledLanguageTests.expectSame(fresh, second, texts: texts, generated: generated, tag)
    }

    @Test("editing a locale file of the chain makes a new file: the change is seen, the old file is replaced")
    func invalidatedByEdit() throws {
        let s = try Scratch()
        defer { s.remove() }
        let before = try s.library.language(for: "de")
        #expect(before.safety.check("zorblatt forever") == .ok)
        let oldFiles = s.files()
        // English is the last locale of every chain: edit it.
        let en = s.content.appendingPathComponent("locales/en.yaml")
        var text = try String(contentsOf: en, encoding: .utf8)
        let anchor = try #require(text.range(of: "\nsafety:\n"), "en.yaml has safety lists")
        let suicide = try #require(text.range(of: "\n    suicide:\n", range: anchor.lowerBound..<text.endIndex))
        text.insert(contentsOf: "      - zorblatt forever\n", at: suicide.upperBound)
        try text.write(to: en, atomically: true, encoding: .utf8)
        let after = try s.library.language(for: "de")
        #expect(after.safety.check("zorblatt forever") == .crisis(.suicide))
        #expect(try s.library.language(for: "de").safety.check("zorblatt forever") == .crisis(.suicide), "read back from the new file")
        #expect(s.files().count == 1 && s.files() != oldFiles, "one file per chain, for the current files")
    }

    @Test("a damaged cache file is never trusted: verdicts stay right, and a broken header is replaced",
          arguments: ["truncate", "flip-head", "flip-tail", "garbage", "empty", "other-chain"])
    func damaged(_ damage: String) throws {
        let s = try Scratch()
        defer { s.remove() }
        _ = try s.library.language(for: "de")
        let file = s.cache.appendingPathComponent(try #require(s.files().first))
        let good = try Data(contentsOf: file)
        var bad = good
        switch damage {
        case "truncate": bad = good.prefix(good.count / 2)
        case "flip-head": for i in stride(from: 0, to: min(bad.count, 4096), by: 97) { bad[i] ^= 0x5A }
        case "flip-tail":
            // Inside the compiled sections (the gate is the largest): only
            // the section's own checksum can tell.
            for i in stride(from: bad.count / 3, to: bad.count, by: max(1, bad.count / 40)) { bad[i] ^= 0x5A }
        case "garbage": bad = Data((0..<good.count).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        case "other-chain":
            _ = try s.library.language(for: "fr")
            let other = try #require(s.files().first { $0.hasPrefix("lang-fr-") })
            bad = try Data(contentsOf: s.cache.appendingPathComponent(other))
        default: bad = Data()
        }
        try bad.write(to: file)
        let language = try s.library.language(for: "de")
        let fresh = try CompiledLanguageTests.freshGerman.get()
        let texts = try CompiledLanguageTests.fixtureTexts("de")
        CompiledLanguageTests.expectSame(fresh, language, texts: Array(texts.prefix(400)),
                                         generated: try CompiledLanguageTests.generatedTexts("de"), "de/\(damage)")
        if damage != "flip-tail" {
            #expect(try Data(contentsOf: file) == good, "a file that cannot be opened is written again")
        }
    }

    @Test("without a cache directory nothing is written and every list is compiled at once")
    func disabled() throws {
        let s = try Scratch()
        defer { s.remove() }
        let language = try ContentLibrary(root: ContentRoot(s.content), cache: .none).language(for: "en")
        #expect(language.parts.safety.isReady && language.parts.detector.isReady)
        #expect(!FileManager.default.fileExists(atPath: s.cache.path))
    }
}

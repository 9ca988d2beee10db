import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// Issue 20: experiment and prompt files kept parsed in ``CompiledCache``,
/// so that a run's first prompt parses no YAML. The cached form must give
/// exactly what parsing gives, follow every edit, and never be trusted
/// when damaged.
@Suite("Experiments and prompts cached parsed", .hangGuard)
struct ParsedContentCacheTests {
    /// A scratch content directory (experiments/ and a copy of the
    /// repository's prompts/) with a cache directory of its own.
    struct Scratch {
        let content: URL
        let cache: URL

        init() throws {
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-parsedcache-\(UUID().uuidString)")
            content = base.appendingPathComponent("content")
            cache = base.appendingPathComponent("cache")
            try FileManager.default.createDirectory(at: content.appendingPathComponent("experiments"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("prompts"),
                                             to: content.appendingPathComponent("prompts"))
        }

        /// A new library each time: nothing remembered in memory between calls.
        var library: ContentLibrary { ContentLibrary(root: ContentRoot(content), cache: CompiledCache(directory: cache)) }
        var uncached: ContentLibrary { ContentLibrary(root: ContentRoot(content), cache: .none) }

        func write(experiment name: String, _ text: String) throws {
            try text.write(to: content.appendingPathComponent("experiments/\(name).yaml"), atomically: true, encoding: .utf8)
        }

        func files(_ prefix: String) -> [URL] {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
                .map { cache.appendingPathComponent($0) }
        }

        func remove() { try? FileManager.default.removeItem(at: content.deletingLastPathComponent()) }
    }

    static func experimentText(key: String, status: String = "running", locales: String = "[en, de]",
                               warm: String = "What happened, in a sentence or two?") -> String {
        """
        key: \(key)
        status: \(status)
        seed: \(key)-seed
        bucket_version: 3
        start: 2026-01-01
        end: 2026-12-31
        weights: [0.25, 0.75]
        coverage: 0.8
        targeting: { flows: [reflection.negative], locales: \(locales), moods: [bad, horrible] }
        namespace: { id: wording, range: [0.1, 0.6] }
        variations:
          - id: control
          - id: warm
            personality: zen
            strings:
              en: { reflection.negative.q1: "\(warm)" }
              de: { reflection.negative.q1: "Was ist passiert?", reflection.negative.q2: "Und dann?" }
        """
    }

    @Test("cached experiments are exactly the parsed ones, and the cache file is read, not rewritten, on the next run")
    func experimentsRoundTrip() throws {
        let s = try Scratch()
        defer { s.remove() }
        try s.write(experiment: "alpha", ParsedContentCacheTests.experimentText(key: "alpha"))
        try s.write(experiment: "beta", ParsedContentCacheTests.experimentText(key: "beta", status: "draft", locales: "[ja]"))
        try s.write(experiment: "broken", "key: broken\nstatus: sometimes\n")
        let parsed = s.uncached.runnableExperiments()
        #expect(parsed.map(\.experiment.key) == ["alpha", "beta"], "the malformed file is left out")
        #expect(s.library.runnableExperiments() == parsed)
        let file = try #require(s.files("experiments-").first)
        #expect(s.files("experiments-").count == 1)
        let written = try Data(contentsOf: file)
        #expect(s.library.runnableExperiments() == parsed, "read from the cache")
        #expect(try Data(contentsOf: file) == written)
        // The arms people get are the same too.
        let context = ExperimentContext(user: "u1", flow: "reflection.negative", locale: "en", mood: .bad, day: "2026-05-01")
        #expect(s.library.assignments(for: context) == s.uncached.assignments(for: context))
    }

    @Test("editing, adding or removing an experiment file is seen on the next run (same size, same second included)")
    func experimentEditsInvalidate() throws {
        let s = try Scratch()
        defer { s.remove() }
        try s.write(experiment: "alpha", ParsedContentCacheTests.experimentText(key: "alpha", warm: "Warm wording number one"))
        _ = s.library.runnableExperiments()
        // Same length, one character different: size and time stamps cannot tell.
        try s.write(experiment: "alpha", ParsedContentCacheTests.experimentText(key: "alpha", warm: "Warm wording number two"))
        let edited = s.library.runnableExperiments()
        #expect(edited == s.uncached.runnableExperiments())
        #expect(edited.first?.experiment.variations.last?.strings["en"]?["reflection.negative.q1"] == "Warm wording number two")
        #expect(s.files("experiments-").count == 1, "the stale file is replaced")

        try s.write(experiment: "gamma", ParsedContentCacheTests.experimentText(key: "gamma"))
        #expect(s.library.runnableExperiments().map(\.experiment.key) == ["alpha", "gamma"])
        try FileManager.default.removeItem(at: s.content.appendingPathComponent("experiments/alpha.yaml"))
        #expect(s.library.runnableExperiments().map(\.experiment.key) == ["gamma"])
        // A file broken after it was cached is left out, as when parsing.
        try s.write(experiment: "gamma", "key: gamma\n")
        #expect(s.library.runnableExperiments().isEmpty)

        // One library across edits (a run asks twice): it follows the edit too.
        let library = s.library
        try s.write(experiment: "alpha", ParsedContentCacheTests.experimentText(key: "alpha"))
        #expect(library.runnableExperiments().map(\.experiment.key) == ["alpha"])
        try s.write(experiment: "delta", ParsedContentCacheTests.experimentText(key: "delta"))
        #expect(library.runnableExperiments().map(\.experiment.key) == ["alpha", "delta"])
    }

    /// Every way a cache file can be damaged: each is refused, the result
    /// is the parsed one, and a good file is written in its place.
    static func damages(_ bytes: Data) -> [(String, Data)] {
        var flipped = bytes
        flipped[flipped.count - 3] ^= 0x20
        var header = bytes
        header[0] = 0
        return [("truncated", bytes.prefix(bytes.count / 2)), ("one byte flipped", flipped), ("bad magic", header),
                ("empty", Data()), ("garbage", Data((0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 31) }))]
    }

    @Test("a damaged experiments cache file is refused and rebuilt")
    func corruptExperimentsRebuilt() throws {
        let s = try Scratch()
        defer { s.remove() }
        try s.write(experiment: "alpha", ParsedContentCacheTests.experimentText(key: "alpha"))
        let parsed = s.uncached.runnableExperiments()
        _ = s.library.runnableExperiments()
        let file = try #require(s.files("experiments-").first)
        let good = try Data(contentsOf: file)
        for (what, bad) in ParsedContentCacheTests.damages(good) {
            try bad.write(to: file)
            #expect(s.library.runnableExperiments() == parsed, "\(what)")
            #expect(try Data(contentsOf: file) == good, "\(what): rebuilt")
        }
        // A valid file of another set of files, copied under this set's name.
        try s.write(experiment: "beta", ParsedContentCacheTests.experimentText(key: "beta"))
        _ = s.library.runnableExperiments()
        let other = try #require(s.files("experiments-").first)
        let otherBytes = try Data(contentsOf: other)
        try FileManager.default.removeItem(at: s.content.appendingPathComponent("experiments/beta.yaml"))
        try otherBytes.write(to: file)
        #expect(s.library.runnableExperiments() == parsed, "a file written under another key is not used")
    }

    @Test("cached prompts are exactly the parsed ones; edits are seen; damage is refused and rebuilt")
    func promptsRoundTrip() throws {
        let s = try Scratch()
        defer { s.remove() }
        let parsed = try PromptLibrary.load(ContentRoot(s.content))
        func expectSame(_ a: PromptLibrary, _ b: PromptLibrary, _ what: String) {
            #expect(a.templates == b.templates, "\(what): templates")
            #expect(a.advice == b.advice, "\(what): advice")
            #expect(a.perspective == b.perspective, "\(what): perspective")
        }
        #expect(!parsed.templates.isEmpty && !parsed.advice.isEmpty)
        expectSame(try s.library.prompts(), parsed, "first run")
        let file = try #require(s.files("prompts-").first)
        let good = try Data(contentsOf: file)
        expectSame(try s.library.prompts(), parsed, "from the cache")
        #expect(try Data(contentsOf: file) == good)
        for (what, bad) in ParsedContentCacheTests.damages(good) {
            try bad.write(to: file)
            expectSame(try s.library.prompts(), parsed, what)
            #expect(try Data(contentsOf: file) == good, "\(what): rebuilt")
        }

        let final = s.content.appendingPathComponent("prompts/final_question.v1.yaml")
        let text = try String(contentsOf: final, encoding: .utf8)
        try text.replacingOccurrences(of: "the last question", with: "the LAST question").write(to: final, atomically: true, encoding: .utf8)
        let edited = try s.library.prompts()
        expectSame(edited, try PromptLibrary.load(ContentRoot(s.content)), "after an edit")
        #expect(edited.templates.contains { $0.system.contains("the LAST question") })

        // A malformed prompt file fails every run, cached or not, naming the file.
        try "system: [unclosed\n".write(to: final, atomically: true, encoding: .utf8)
        for library in [s.library, s.library, s.uncached] {
            #expect {
                _ = try library.prompts()
            } throws: { error in
                (error as? EngineError)?.description.contains("prompts/final_question.v1.yaml") == true
            }
        }
    }

    /// Every flow's listing and lookups, compared between two libraries.
    static func expectSameCatalog(_ a: ContentLibrary, _ b: ContentLibrary, _ what: String) {
        let all = a.catalog.all(), reference = b.catalog.all()
        #expect(all.map(\.name) == reference.map(\.name), "\(what): files")
        for (x, y) in zip(all, reference) {
            switch (x.result, y.result) {
            case (.success(let f), .success(let g)): #expect(f == g, "\(what): \(x.name)")
            case (.failure(let e), .failure(let f)): #expect(e == f, "\(what): \(x.name)")
            default: Issue.record("\(what): \(x.name) \(x.result) vs \(y.result)")
            }
        }
        for (spec, mood) in [("reflection", Mood.bad), ("reflection", .great), ("coach", .average), ("journal", .good)] {
            let got = Result { () throws(EngineError) in try a.catalog.source(for: spec, mood: mood) }
            let expected = Result { () throws(EngineError) in try b.catalog.source(for: spec, mood: mood) }
            #expect(got == expected, "\(what): \(spec) --mood \(mood.rawValue)")
        }
        for id in ["reflection.negative", "coach.morning", "nope.flow"] {
            #expect(Result { () throws(EngineError) in try a.catalog.source(for: id) }
                        == Result { () throws(EngineError) in try b.catalog.source(for: id) }, "\(what): \(id)")
        }
    }

    @Test("the flow catalog's scan is cached: same listing and lookups; edits, new files and damage are handled")
    func flowCatalog() throws {
        let s = try Scratch()
        defer { s.remove() }
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("flows"), to: s.content.appendingPathComponent("flows"))
        ParsedContentCacheTests.expectSameCatalog(s.library, s.uncached, "first scan")
        let file = try #require(s.files("flows-").first)
        let good = try Data(contentsOf: file)
        ParsedContentCacheTests.expectSameCatalog(s.library, s.uncached, "from the cache")
        #expect(try Data(contentsOf: file) == good, "read, not rewritten")
        for (what, bad) in ParsedContentCacheTests.damages(good) {
            try bad.write(to: file)
            ParsedContentCacheTests.expectSameCatalog(s.library, s.uncached, what)
            #expect(try Data(contentsOf: file) == good, "\(what): rebuilt")
        }

        // The same size, another mood: `reflection --mood great` now finds the negative flow.
        let negative = s.content.appendingPathComponent("flows/reflection/negative.lua")
        let text = try String(contentsOf: negative, encoding: .utf8)
        try text.replacingOccurrences(of: "moods = { \"horrible\", \"bad\" }", with: "moods = { \"horrible\", \"great\" }")
            .write(to: negative, atomically: true, encoding: .utf8)
        ParsedContentCacheTests.expectSameCatalog(s.library, s.uncached, "after an edit")
        #expect(try s.library.catalog.source(for: "reflection", mood: .great).name.contains("negative"))

        // A celebrations.lua beside a flow that cannot be read makes that flow fail: never from the cache.
        let rules = s.content.appendingPathComponent("flows/reflection/celebrations.lua")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        ParsedContentCacheTests.expectSameCatalog(s.library, s.uncached, "unreadable celebrations.lua")
        try FileManager.default.removeItem(at: rules)

        // A file whose id is computed: scanned every time, nothing kept for that set.
        try FileManager.default.removeItem(at: s.cache)
        try "local id = \"demo\" .. \".computed\"\nreturn flow { id = id, moods = { \"bad\" }, steps = {} }\n"
            .write(to: s.content.appendingPathComponent("flows/demo/computed.lua"), atomically: true, encoding: .utf8)
        ParsedContentCacheTests.expectSameCatalog(s.library, s.uncached, "with a computed id")
        #expect(s.files("flows-").isEmpty)
    }

    /// Random experiment files (every field, random values, some files
    /// malformed): the cached list equals the parsed one, file for file.
    @Test("on 60 random sets of experiment files, the cache gives exactly what parsing gives")
    func randomExperiments() throws {
        var rng = SplitMix(seed: 0x5EED_2026)
        let s = try Scratch()
        defer { s.remove() }
        let moods = ["horrible", "bad", "average", "good", "great"]
        func word() -> String { String((0..<Int(rng.next() % 8 + 1)).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement(using: &rng) ?? "a" }) }
        func phrase() -> String {
            ["Was", "ist", "passiert", "héllo", "日本語", "세션", "a \\\"quote\\\"", "tab\\there", "—", "ok"].shuffled(using: &rng)
                .prefix(Int(rng.next() % 5 + 1)).joined(separator: " ")
        }
        for round in 0..<60 {
            let dir = s.content.appendingPathComponent("experiments")
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for i in 0..<Int(rng.next() % 4 + 1) {
                let key = "k\(round)-\(i)-" + word()
                var lines = ["key: \(key)", "status: \(["draft", "running", "stopped"].randomElement(using: &rng) ?? "running")"]
                if rng.next() % 2 == 0 { lines.append("seed: \(word())") }
                if rng.next() % 2 == 0 { lines.append("hash_version: \(rng.next() % 2 + 1)") }
                if rng.next() % 2 == 0 { lines.append("bucket_version: \(rng.next() % 5)") }
                if rng.next() % 3 == 0 { lines.append("start: 2026-0\(rng.next() % 9 + 1)-1\(rng.next() % 9)") }
                if rng.next() % 3 == 0 { lines.append("end: 2027-0\(rng.next() % 9 + 1)-2\(rng.next() % 9)") }
                let arms = Int(rng.next() % 3 + 2)
                if rng.next() % 2 == 0 {
                    lines.append("weights: [" + (0..<arms).map { _ in "\(Double(rng.next() % 1000) / 1000)" }.joined(separator: ", ") + "]")
                }
                if rng.next() % 2 == 0 { lines.append("coverage: \(Double(rng.next() % 1001) / 1000)") }
                if rng.next() % 2 == 0 {
                    lines.append("targeting: { flows: [\(word()), reflection.negative], locales: [en, \(word())], moods: [\(moods.randomElement(using: &rng) ?? "bad")] }")
                }
                if rng.next() % 2 == 0 {
                    let a = Double(rng.next() % 500) / 1000
                    lines.append("namespace: { id: \(word()), range: [\(a), \(a + 0.25)] }")
                }
                lines.append("variations:")
                for v in 0..<arms {
                    lines.append("  - id: v\(v)\(word())")
                    if rng.next() % 3 == 0 { lines.append("    personality: \(word())") }
                    if rng.next() % 2 == 0 {
                        lines.append("    strings:")
                        for tag in ["en", "de", "ja"].prefix(Int(rng.next() % 3 + 1)) {
                            lines.append("      \(tag):")
                            for k in 0..<Int(rng.next() % 3 + 1) { lines.append("        key.\(k).\(word()): \"\(phrase())\"") }
                        }
                    }
                }
                if rng.next() % 7 == 0 { lines.append("colour: blue") }  // malformed: unknown field
                try lines.joined(separator: "\n").write(to: dir.appendingPathComponent("\(key).yaml"), atomically: true, encoding: .utf8)
            }
            let parsed = s.uncached.runnableExperiments()
            #expect(s.library.runnableExperiments() == parsed, "round \(round): first (parsed and stored)")
            #expect(s.library.runnableExperiments() == parsed, "round \(round): from the cache")
        }
    }
}

/// A small deterministic generator for the random tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

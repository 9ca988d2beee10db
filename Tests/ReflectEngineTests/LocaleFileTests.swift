import Testing
import ReflectCore
@testable import ReflectEngine

@Suite("Locale files")
struct LocaleFileTests {
    func error(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> EngineError? {
        #expect(throws: EngineError.self, sourceLocation: sourceLocation) { try LocaleFile.parse(yaml, file: "locales/xx.yaml") }
    }

    @Test("malformed YAML names the file and the line")
    func malformed() throws {
        let e = try #require(error("locale: xx\nstrings:\n  a.b: \"fine\"\n  c.d: \"unclosed\n  e.f: x\n"))
        #expect(e.code == "content.invalid")
        #expect(e.file == "locales/xx.yaml")
        #expect(e.line != nil && e.line! >= 4)
        #expect(e.description.hasPrefix("locales/xx.yaml:"))
    }

    @Test("unknown sections, wrong types and duplicate keys name their line")
    func structure() throws {
        let unknown = try #require(error("locale: xx\nname: X\nstrngs:\n  a.b: c\n"))
        #expect(unknown.line == 3)
        #expect(unknown.message.contains("unknown section 'strngs'"))
        let list = try #require(error("locale: xx\nstrings:\n  a.b: [1, 2]\n"))
        #expect(list.line == 3)
        let dup = try #require(error("locale: xx\nstrings:\n  a.b: one\n  a.b: two\n"))
        #expect(dup.message.contains("'a.b' appears twice"))
        #expect(dup.line != nil)
        #expect(try #require(error("name: X\n")).message.contains("missing 'locale"))
    }

    @Test("distortion rules are checked when the file loads: type, slot, strength, threshold, the old phrases key")
    func distortions() throws {
        let badCategory = try #require(error("""
            locale: xx
            distortions:
              priority: [catastrophising]
              rules:
                catastrophising: { strong: [ruined] }
            """))
        #expect(badCategory.message.contains("not a distortion type"))
        let badSlot = try #require(error("""
            locale: xx
            distortions:
              priority: [labeling]
              rules:
                labeling: { strong: ["i'm a {trait}"] }
            """))
        #expect(badSlot.message.contains("unknown or empty slot '{trait}'"))
        let empty = try #require(error("locale: xx\ndistortions:\n  priority: [labeling]\n  rules:\n    labeling: {}\n"))
        #expect(empty.message.contains("is empty"))
        #expect(empty.line == 5)
        let strength = try #require(error("locale: xx\ndistortions:\n  priority: [labeling]\n  rules:\n    labeling: { sure: [idiot] }\n"))
        #expect(strength.message.contains("unknown strength 'sure'"))
        #expect(strength.line == 5)
        let threshold = try #require(error("locale: xx\ndistortions:\n  threshold: 2\n  priority: [labeling]\n  rules:\n    labeling: { weak: [idiot] }\n"))
        #expect(threshold.message.contains("threshold must be a number from 0 to 1"))
        #expect(threshold.line == 3)
        let old = try #require(error("locale: xx\ndistortions:\n  priority: [labeling]\n  phrases:\n    labeling: [idiot]\n"))
        #expect(old.message.contains("distortions.rules"))
    }

    @Test("safety lists are checked when the file loads: category, slots, empty phrases, medical kinds, self-referring slots")
    func safety() throws {
        func safetyError(_ body: String) -> EngineError? { error("locale: xx\nsafety:\n" + body) }
        #expect(try #require(safetyError("  phrases:\n    suicidal: [\"i want to die\"]\n")).message.contains("not a safety category"))
        #expect(try #require(safetyError("  phrases:\n    suicide: [\"i want to {verb}\"]\n")).message.contains("unknown or empty slot '{verb}'"))
        #expect(try #require(safetyError("  phrases:\n    suicide: [\"i want to {v}\"]\n  slots:\n    v: [\"{v} now\"]\n"))
            .message.contains("nest more than 8 deep"))
        #expect(try #require(safetyError("  phrases:\n    suicide: [\"¡ “\"]\n")).message.contains("empty phrase"))
        #expect(try #require(safetyError("  negations: [\"¿\"]\n")).message.contains("empty phrase"))
        #expect(try #require(safetyError("  medical:\n    prognosis: [\"you will\"]\n")).message.contains("not a medical kind"))
        #expect(try #require(safetyError("  medical:\n    diagnosis: [\"you have {condition}\"]\n")).message.contains("unknown or empty slot '{condition}'"))
        let fine = try LocaleFile.parse("locale: xx\nsafety:\n  phrases:\n    suicide: [\"i want to {v}\"]\n  slots:\n    v: [die, \"end it\"]\n",
                                        file: "locales/xx.yaml")
        let data = try #require(fine.safety)
        #expect(try SafetyGate(data).check("Honestly I want to end it") == .crisis(.suicide))
    }

    @Test("a string may carry metadata beside its text")
    func stringForms() throws {
        let data = try LocaleFile.parse("""
            locale: de
            strings:
              a.b: "Hallo"
              c.d: { text: "Tschüss", source: "3f2a91bc" }
            probe:
              min_characters: 20
              vague_phrases: [keine ahnung]
            """, file: "locales/de.yaml")
        #expect(data.strings == ["a.b": "Hallo", "c.d": "Tschüss"])
        #expect(data.probe == ProbeData(minimumCharacters: 20, vaguePhrases: ["keine ahnung"]))
    }

    @Test("the repository's en.yaml loads and labels the issue's examples")
    func englishExamples() throws {
        let language = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: "en")
        let detector = try #require(language.detector)
        let expected: [(String, DistortionType)] = [
            ("I always mess everything up", .overgeneralization),
            ("I should have done better", .shouldStatement),
            ("I'm such a failure", .labeling),
            ("I always ruin everything", .catastrophizing),
            ("It's my fault the project failed", .personalization),
            ("She thinks I'm an idiot", .mindReading),
            ("I had a meeting at 3pm", .unknown),
            ("I am a nurse and I had a long shift", .unknown),
            ("Nevertheless, the day went fine", .unknown),
            ("I’m so useless", .labeling),
        ]
        for (text, type) in expected {
            #expect(detector.detect(text) == type, "\(text)")
        }
    }
}

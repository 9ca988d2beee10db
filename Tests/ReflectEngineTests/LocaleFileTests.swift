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

    @Test("safety.negations_after_scope is clause (the default) or words; the parsed and the compiled locale keep it")
    func negationScope() throws {
        let bad = try #require(error("locale: xx\nsafety:\n  negations_after_scope: sentence\n"))
        #expect(bad.message.contains("negations_after_scope must be 'clause'"))
        #expect(bad.line == 3)
        let yaml = "locale: xx\nmatching: substring\nsafety:\n  phrases:\n    self_harm: [자해]\n  negations_after: [\"안 해\"]\n"
        let clause = try #require(try LocaleFile.parse(yaml, file: "locales/xx.yaml").safety)
        #expect(clause.negationsAfterScope == .clause)
        let parsed = try LocaleFile.parse(yaml + "  negations_after_scope: words\n", file: "locales/xx.yaml")
        let words = try #require(parsed.safety)
        #expect(words.negationsAfterScope == .words)
        #expect(try SafetyGate(words, mode: .substring).check("자해 안 해") == .ok)
        #expect(try SafetyGate(clause, mode: .substring).check("자해 안 해") == .crisis(.selfHarm))
        var w = CompiledWriter()
        parsed.write(to: &w)
        let read = w.bytes.withUnsafeBytes { raw -> LocaleData? in
            var r = CompiledReader(raw)
            return LocaleData(reading: &r)
        }
        #expect(try #require(read).safety?.negationsAfterScope == .words)
    }

    @Test("the repository's ko.yaml: a negation after the verb, spaces inside it, is not an alarm; a real alarm holding a negation still is")
    func koreanNegationAfter() throws {
        let gate = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: "ko").safety
        for text in ["자해하고 싶지는 않아", "사라지고 싶지는 않아요", "목숨을 끊고 싶진 않아요", "남편이 때리지는 않아요", "자해는 안 해요"] {
            #expect(gate.check(text) == .ok, "\(text)")
        }
        let alarms: [(String, SafetyCategory)] = [("죽고 싶지 않은 날이 없어", .suicide), ("살고 싶지 않아", .suicide),
                                                  ("더 이상 살고 싶진 않아", .suicide), ("남편이 때리지 않는 날이 없어요", .abuse),
                                                  ("자해하고 싶지는 않아 하지만 오늘 또 긋고 말았어", .selfHarm)]
        for (text, category) in alarms { #expect(gate.check(text) == .crisis(category), "\(text)") }
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

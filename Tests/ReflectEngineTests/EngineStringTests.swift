import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// The engine's own lines have one source: `locales/en.yaml`. Every key the
/// engine shows exists there, a chain without one is refused, and no English
/// copy of a locale string sits in the engine or the CLI as a fallback.
@Suite("Engine strings: one source of English")
struct EngineStringTests {
    func englishStrings() throws -> [String: String] {
        try #require(try ContentLibrary(root: ContentRoot(repositoryRoot)).locale("en")).strings
    }

    @Test("every EngineString has its key in locales/en.yaml")
    func everyKeyInEnglish() throws {
        let strings = try englishStrings()
        for string in EngineString.allCases {
            #expect(strings[string.key] != nil, "locales/en.yaml lacks '\(string.key)'")
        }
    }

    @Test("every validation code with a message in en.yaml is an EngineString")
    func validationKeysTyped() throws {
        for key in try englishStrings().keys where key.hasPrefix("invalid.") {
            #expect(EngineString(rawValue: key) != nil, "'\(key)' is shown by the engine but not listed in EngineString")
        }
    }

    @Test("a chain lacking an engine string is refused, naming the key and the file")
    func missingKeyRefused() throws {
        let library = try contentCopy()
        try replaceInFile(library.localesDirectory.appendingPathComponent("en.yaml"),
                          "  invalid.no_draft: \"There is no earlier answer to keep here.\"\n", "")
        for tag in ["en", "de"] {
            let error = try #require(throws: EngineError.self) { try library.language(for: tag) }
            guard case .invalidContent(let file, _, let message) = error else {
                Issue.record("expected invalidContent, got \(error)")
                continue
            }
            #expect(file == "locales/en.yaml")
            #expect(message.contains("'invalid.no_draft'"), "\(message)")
        }
    }

    @Test("a loaded language shows en.yaml's text, not a copy: the pause question, the probe, the notice")
    func shownFromLocale() throws {
        let strings = try englishStrings()
        let language = try english()
        for string in EngineString.allCases {
            #expect(language.string(string) == strings[string.key])
        }
        #expect(language.message(for: .noDraft) == strings["invalid.no_draft"])
        #expect(language.message(for: InvalidAnswer("too_long", "in code")) == strings["invalid.too_long"])
    }

    /// The validator in ReflectCore keeps a plain description of each code
    /// for hosts that run without locale files (``InvalidAnswer/message``);
    /// nothing else may hold a locale string's English.
    /// The benchmark replays a flow's texts as workload data, shown to no one.
    /// The CSV export's machine words (`(skipped)`) are data for spreadsheets,
    /// kept stable whatever the language.
    static let exempt = ["Sources/ReflectCore/Session/PromptShape.swift", "Sources/ReflectCore/Session/InvalidAnswer.swift",
                         "Sources/reflect-bench/main.swift", "Sources/ReflectStore/Export/ReadableWords.swift"]

    /// A lone lowercase word ("archived", "cheerful") in code is a stored id
    /// or a machine value (a CSV status, a schema check), which this scan
    /// cannot tell from a copy; a phrase or a word with capitals or
    /// punctuation can only be a copy.
    static func isIdentifierLike(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "_" }
    }

    @Test("no Swift source (but the core validator and the benchmark) holds a copy of an en.yaml string")
    func noEnglishCopies() throws {
        let values = try englishStrings().filter { $0.value.count >= 8 && !Self.isIdentifierLike($0.value) }
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var scanned = 0
        for case let file as URL in walker where file.pathExtension == "swift" {
            let relative = String(file.standardizedFileURL.path.dropFirst(repositoryRoot.standardizedFileURL.path.count + 1))
            guard !Self.exempt.contains(relative) else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            scanned += 1
            let copies = values.filter { text.contains("\"\($0.value)\"") }.map(\.key).sorted()
            #expect(copies.isEmpty, "\(relative) holds copies of \(copies) from locales/en.yaml")
        }
        #expect(scanned > 50)
    }
}

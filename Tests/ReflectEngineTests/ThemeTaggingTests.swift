import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// Auto-tagging with the shipped theme lists (locales/*.yaml `themes:`).
@Suite("Auto-tagging with the locales' theme lists")
struct ThemeTaggingTests {
    static let library = ContentLibrary(root: ContentRoot(repositoryRoot))

    /// "I'm worried about the presentation tomorrow" and its translations.
    static let worried: [(String, String)] = [
        ("en", "I'm worried about the presentation tomorrow"),
        ("de", "Ich mache mir Sorgen wegen der Präsentation morgen"),
        ("es", "Me preocupa la presentación de mañana"),
        ("fr", "Je m’inquiète pour la présentation de demain"),
        ("ja", "明日のプレゼンが心配です"),
        ("ko", "내일 발표가 걱정돼요"),
        ("pt-BR", "Estou preocupado com a apresentação de amanhã"),
    ]

    @Test("the worried-about-the-presentation sentence is tagged work, and only work, in all 7 languages", arguments: worried)
    func presentationIsWork(tag: String, sentence: String) throws {
        let language = try Self.library.language(for: tag)
        #expect(language.themes.themes(in: sentence) == [.work], "\(tag): \(sentence)")
    }

    @Test("each language tags everyday sentences with the themes they mention, in theme order", arguments: [
        ("en", "Slept badly, then a long walk with my sister", [Theme.sleep, .family, .exercise]),
        ("en", "The RENT is due and I'm so stressed", [.stress, .money]),
        ("en", "Nothing much happened", []),
        ("de", "Nach dem Streit mit meinem Chef habe ich kaum geschlafen", [.work, .sleep]),
        ("es", "Cené con mis amigos y hablamos de dinero", [.money, .friends]),
        ("fr", "J’ai couru ce matin avant d’aller chez le médecin", [.exercise, .health]),
        ("ja", "友達とヨガに行った", [.exercise, .friends]),
        ("ko", "엄마랑 점심을 먹었어요", [.family, .food]),
        ("pt-BR", "Fui à academia depois do trabalho", [.work, .exercise]),
    ])
    func everyday(tag: String, sentence: String, expected: [Theme]) throws {
        #expect(try Self.library.language(for: tag).themes.themes(in: sentence) == expected, "\(tag): \(sentence)")
    }

    @Test("a theme's order is its place in the declared order (tags are listed in it)")
    func order() {
        for (i, theme) in Theme.allCases.enumerated() { #expect(theme.order == i) }
        #expect(Theme.allCases.sorted() == Theme.allCases)
    }

    @Test("a locale without theme lists falls back along its chain; no lists at all tags nothing")
    func fallback() throws {
        let en = try #require(try Self.library.language(for: "en").localizer.chain.first)
        var bare = en
        bare.tag = "xx"
        bare.themes = nil
        let chained = try Language(chain: [bare, en])
        #expect(chained.themes.themes(in: "the meeting ran late") == [.work])
        #expect(Language.none.themes.themes(in: "the meeting ran late") == [])
    }

    @Test("a text answer's themes are journalled with it; other answers have none")
    func journalled() throws {
        let flow = try FlowCatalog(root: ContentRoot(repositoryRoot)).source(for: "journal.check-in")
        let journal = ThemeJournal()
        let session = try FlowSession.open(flow, language: try Self.library.language(for: "en"), options: options())
        session.journal = journal
        try session.answer(.number(6), .number(5), .number(7), .number(6.5), .number(4),
                           .text("I'm worried about the presentation tomorrow"))
        #expect(journal.themes["mood"] == [])
        #expect(journal.themes["note"] == [.work])
    }
}

/// Records each answer's themes.
private final class ThemeJournal: SessionJournal {
    var themes: [StepID: [Theme]] = [:]
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, outcome: AnswerOutcome) throws {
        themes[answer.step] = outcome.themes
    }
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws {}
    func wentBack(from step: StepID) throws {}
    func detected(_ type: DistortionType, step: StepID) throws {}
    func probed(step: StepID) throws {}
    func finished(_ summary: DoneSummary) throws {}
}

/// ``ThemeTagger/themes(in:)`` flags categories as matches come (any
/// order); this checks it against the ordered occurrences collected in a
/// set, on random texts made of every language's theme words.
@Suite("Theme tagging against ordered occurrences")
struct ThemeTaggingReferenceTests {
    @Test("same themes as the set of ordered occurrences, on random texts", arguments: ["en", "de", "ja"])
    func agreesWithOccurrences(tag: String) throws {
        let language = try ThemeTaggingTests.library.language(for: tag)
        let source = try #require(language.localizer.themeSource)
        let lists = try #require(source.themes)
        let matcher = try PhraseMatcher(lists.lexicon, mode: source.matching)
        let words = lists.words.values.flatMap { $0 } + ["and", "the", "", "  ", "…", "x", "nicht", "。"]
        var x: UInt64 = 0x1234_5678_9ABC_DEF1
        for n in 0..<1500 {
            var text = ""
            for _ in 0..<(n % 7) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                text += words[Int(x % UInt64(words.count))] + (x & 1 == 0 ? " " : "")
            }
            var found = Set<Int>()
            TextNormalizer.bytes(text).withUnsafeBufferPointer { b in
                matcher.forEachOccurrence(normalized: b) { _, _, category in found.insert(category) }
            }
            let want = found.sorted().compactMap { Theme(rawValue: matcher.categories[$0]) }.sorted()
            #expect(language.themes.themes(in: text) == want, "\(tag): \(text)")
        }
    }
}

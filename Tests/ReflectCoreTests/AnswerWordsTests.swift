import Testing
@testable import ReflectCore

@Suite("AnswerWords")
struct AnswerWordsTests {
    static let spanish = AnswerWords(yes: ["sí", "s"], no: ["no"], done: ["hecho", "h"], partly: ["a medias", "m"], skip: ["omitir", "o"])

    @Test("English yes/no words, in any case and with spaces around", arguments: [
        ("yes", true), ("Y", true), (" TRUE ", true), ("no", false), ("N", false), ("False", false),
    ])
    func englishBooleans(typed: String, expected: Bool) {
        #expect(AnswerWords.english.boolean(typed) == expected)
    }

    @Test("words that are not yes or no give nil", arguments: ["maybe", "", "yess", "ye", "1", "oui"])
    func notBooleans(typed: String) {
        #expect(AnswerWords.english.boolean(typed) == nil)
    }

    @Test("a language's words ignore case and accents, and English still works after merging")
    func spanishBooleans() {
        let words = Self.spanish.merged(with: .english)
        #expect(words.boolean("Sí") == true)
        #expect(words.boolean("SI") == true)
        #expect(words.boolean("si") == true)
        #expect(words.boolean("yes") == true)
        #expect(words.boolean("No") == false)
        #expect(Self.spanish.boolean("yes") == nil) // not merged: no English
    }

    @Test("non-Latin words compare after the same normalisation")
    func japaneseBooleans() {
        let words = AnswerWords(yes: ["はい"], no: ["いいえ"]).merged(with: .english)
        #expect(words.boolean("はい") == true)
        #expect(words.boolean(" いいえ ") == false)
        #expect(words.boolean("ｙｅｓ") == true) // full-width
    }

    @Test("checklist marks: English words, abbreviations and the raw values", arguments: [
        ("done", ChecklistMark.done), ("D", .done), ("Partly", .partly), ("p", .partly), ("SKIP", .skip), ("s", .skip),
    ])
    func englishMarks(typed: String, expected: ChecklistMark) {
        #expect(AnswerWords.english.mark(typed) == expected)
    }

    @Test("the raw mark values work even without any word lists")
    func rawMarks() {
        #expect(AnswerWords().mark("done") == .done)
        #expect(AnswerWords().mark("Partly") == .partly)
        #expect(AnswerWords().mark("d") == nil)
        #expect(AnswerWords().mark("finished") == nil)
    }

    @Test("a language's marks, including multi-word ones")
    func spanishMarks() {
        let words = Self.spanish.merged(with: .english)
        #expect(words.mark("Hecho") == .done)
        #expect(words.mark("A MEDIAS") == .partly)
        #expect(words.mark("omitír") == .skip)
        #expect(words.mark("done") == .done)
        #expect(words.mark("quizás") == nil)
    }

    @Test("merging keeps this language's words first and English ones as a fallback")
    func merging() {
        let merged = Self.spanish.merged(with: .english)
        #expect(merged.boolean("sí") == true && merged.boolean("yes") == true && merged.boolean("n") == false)
        #expect(merged.mark("omitir") == .skip && merged.mark("skip") == .skip && merged.mark("quizás") == nil)
    }

    @Test("a word the language claims wins over the same English word of another mark")
    func languageClaimWins() {
        // French: "p" for passer (skip); English uses "p" for partly.
        let french = AnswerWords(done: ["fait", "f"], partly: ["partiellement"], skip: ["passer", "p"]).merged(with: .english)
        #expect(french.mark("passer") == .skip)
        #expect(french.mark("p") == .skip)
    }
}

import Testing
@testable import ReflectCore

@Suite("Numbers written in the person's language")
struct NumberTextTests {
    @Test("a decimal comma where the language writes one (de, es, fr, pt-BR), a point in en, ja, ko; whole numbers unchanged")
    func separators() {
        for tag in ["de", "es", "fr", "pt-BR"] {
            #expect(NumberText(localeTag: tag).format(3.3) == "3,3", "\(tag)")
            #expect(NumberText(localeTag: tag).format(-0.25) == "-0,25", "\(tag)")
            #expect(NumberText(localeTag: tag).format(24) == "24", "\(tag)")
        }
        for tag in ["en", "ja", "ko", "xx"] {
            #expect(NumberText(localeTag: tag).format(7.5) == "7.5", "\(tag)")
        }
        #expect(NumberText.machine.format(7.5) == "7.5")
    }

    @Test("only a number in machine form is rewritten: a date or a word stays as it is")
    func localizedOnlyNumbers() {
        let de = NumberText(localeTag: "de")
        #expect(de.localized("0.25") == "0,25")
        #expect(de.localized("-3") == "-3")
        #expect(de.localized("2026.11") == "2026,11")
        #expect(de.localized("2026-11-16") == "2026-11-16")
        #expect(de.localized("v1.2.3") == "v1.2.3")
        #expect(de.localized("1.2.3") == "1.2.3")
        #expect(de.localized(".5") == ".5")
    }

    @Test("a locale chain writes numbers as its first locale does (pt-BR → en: a comma)")
    func chain() {
        let chain = Localizer(chain: [LocaleData(tag: "pt-BR", name: "Português"), LocaleData(tag: "en", name: "English")])
        #expect(chain.numbers.format(0.25) == "0,25")
        #expect(Localizer(chain: [LocaleData(tag: "en", name: "English")]).numbers.format(0.25) == "0.25")
    }
}

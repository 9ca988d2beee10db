import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect letter`: the weekly letter, a pure function of the week's
/// entries (docs/journal.md).
struct LetterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "letter",
        abstract: "The weekly letter: your top themes, three moments, two questions and one commitment.")

    enum Format: String, ExpressibleByArgument { case text, json, md }

    @Option(help: "Any day of the week, YYYY-MM-DD (default: the current week of your logical day).")
    var week: String?

    @Option(help: "text, json or md.")
    var format: Format = .text

    @Option(help: "Language of the letter (en, de, es, fr, ja, ko, pt-BR).")
    var locale: String = "en"

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        let data = try JournalData(store: store, user: storeOptions.user, now: now)
        let day = try JournalData.day(week, option: "--week") ?? data.today
        let letter = WeeklyLetter.compose(week: day, entries: data.entries, moods: data.moods)
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(letter) + Data("\n".utf8))
        case .text, .md:
            let language = try contentOptions.language(locale)
            print(LetterText(language: language, markdown: format == .md).render(letter), terminator: "")
        }
    }
}

/// The letter in words, in the person's language.
struct LetterText {
    let language: Language
    let markdown: Bool

    func s(_ key: String, _ args: String...) -> String {
        Template(language.localizer.string(key) ?? key).render(args)
    }

    func render(_ l: WeeklyLetter) -> String {
        let title = s("letter.title", l.start.description, l.end.description)
        var out = [markdown ? "# " + title : title, ""]
        if l.isEmpty {
            out += [s("letter.empty"), "", s("letter.close")]
            return out.joined(separator: "\n") + "\n"
        }
        if !l.themes.isEmpty {
            out += [s("letter.themes", l.themes.map { s($0.theme.nameKey) }.joined(separator: ", ")), ""]
        }
        if !l.moods.isEmpty {
            out += [s("letter.moods", l.moods.map { s("mood." + $0.mood.rawValue) + " " + String($0.entries) }.joined(separator: " · ")), ""]
        }
        if l.moments.isEmpty {
            out += [s("letter.moments.none"), ""]
        } else {
            out.append(s("letter.moments"))
            for m in l.moments {
                let intensity = m.intensity.map { " · \($0)/10" } ?? ""
                out.append((markdown ? "- " : "  ") + "“\(m.quote)” (\(m.day)\(intensity))")
            }
            out.append("")
        }
        out.append(s("letter.questions"))
        for (i, q) in l.questions.enumerated() {
            let text: String
            switch q {
            case .helped(let t): text = s("letter.question.helped", s(t.nameKey))
            case .needs(let t): text = s("letter.question.needs", s(t.nameKey))
            case .remember: text = s("letter.question.remember")
            case .carry: text = s("letter.question.carry")
            }
            out.append((markdown ? "\(i + 1). " : "  \(i + 1). ") + text)
        }
        out.append("")
        out.append(l.commitment.map { s("letter.commitment", $0) } ?? s("letter.commitment.none"))
        out += ["", s("letter.close")]
        return out.joined(separator: "\n") + "\n"
    }
}

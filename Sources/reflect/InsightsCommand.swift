import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect insights`: deterministic figures over a period (docs/journal.md).
struct InsightsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insights",
        abstract: "Figures from your check-ins, mood log and sessions: means, weekdays, 7-day averages, themes and mood.")

    enum Format: String, ExpressibleByArgument { case text, json, md }

    @Option(help: "First day, YYYY-MM-DD (default: 12 weeks before --to).")
    var from: String?

    @Option(help: "Last day, YYYY-MM-DD (default: today's logical day).")
    var to: String?

    @Option(help: "text, json or md.")
    var format: Format = .text

    @Option(help: "Language of the text (en, de, es, fr, ja, ko, pt-BR); also decides the pictures' first weekday.")
    var locale: String = "en"

    @Flag(help: "Text only: also draw the month of --to tinted by mood and a 12-week heatmap (colour unless NO_COLOR is set).")
    var pictures = false

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        let data = try JournalData(store: store, user: storeOptions.user, now: now)
        let to = try JournalData.day(self.to, option: "--to") ?? data.today
        let from = try JournalData.day(self.from, option: "--from") ?? to.adding(days: -83)
        guard from <= to else { throw ValidationError("--from (\(from)) is after --to (\(to))") }
        let report = Insights.compute(entries: data.entries, moods: data.moods, cravings: data.cravings, from: from, to: to,
                                      streak: data.streak(through: to))
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(report) + Data("\n".utf8))
        case .text, .md:
            let language = try contentOptions.language(locale)
            print(InsightsText(language: language, markdown: format == .md).render(report), terminator: "")
            if pictures && format == .text {
                let weekdays = (1...7).map { language.string(.weekdayShort($0)) }
                let days = JournalReport.compose(entries: data.entries, moods: data.moods, weeks: 12, through: to).days
                let painter = TerminalPictures(color: TerminalPictures.colorWanted, firstWeekday: FirstWeekday.of(locale: locale))
                print("")
                print(language.localizer.string("report.calendar") ?? "")
                TerminalPictures.write(painter.calendar(days, month: to, weekdays: weekdays))
                print("")
                print(language.localizer.string("report.heatmap") ?? "")
                TerminalPictures.write(painter.heatmap(days, weekdays: weekdays))
            }
        }
    }
}

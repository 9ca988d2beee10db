import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect progress`: streaks, the week, the 12-week heatmap and
/// achievements; `reflect progress reset-achievements --yes`.
struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "Your streaks, this week, a 12-week heatmap and your achievements.",
        discussion: """
            A day counts when anything was logged that day (an answer of any flow, a mood, a craving note, a prep mark). \
            Colour follows NO_COLOR (https://no-color.org) and is used only on a terminal.
            """,
        subcommands: [Show.self, ResetAchievements.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your progress (the default).")

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "Output format: text or json.")
        var format: Format = .text

        @Option(help: "The instant to report for, ISO-8601 with offset (default: now); its local date is today.")
        var now: String?

        @Option(help: "Language of the text (en, de, es, fr, ja, ko, pt-BR); also decides the heatmap's first weekday.")
        var locale: String = "en"

        @OptionGroup var contentOptions: ContentOptions

        enum Format: String, ExpressibleByArgument { case text, json }

        func run() throws {
            let stamps = try Timestamps(now: now)
            let store = try storeOptions.open(.readOnly)
            let report: ProgressReport
            do {
                let today = try ProgressCommand.today(stamps, store: store, user: storeOptions.user)
                let days = try store.showedUpDays(user: storeOptions.user)
                report = ProgressReport(today: today, figures: days.figures(today: today),
                                        heatmap: ProgressHeatmap(days: days, today: today, weekStart: ProgressHeatmap.weekStart(forLocale: locale)),
                                        achievements: try store.achievements(user: storeOptions.user))
            } catch {
                throw failStore(error)
            }
            switch format {
            case .json:
                let e = JSONEncoder()
                e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
                Terminal.writeJSON(try e.encode(report) + Data("\n".utf8))
            case .text:
                let language = try contentOptions.language(locale)
                Terminal.writeStyled(report.text(color: Terminal.colorAllowed, language: language))
            }
        }
    }

    struct ResetAchievements: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-achievements",
            abstract: "Clear your achievements and first-time memories (streaks stay). Asks first unless --yes.")

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        @Option(help: "The instant of the reset, ISO-8601 with offset (default: now).")
        var now: String?

        @Option(help: "Language of the question and the answer words (en, de, es, fr, ja, ko, pt-BR).")
        var locale: String = "en"

        @OptionGroup var contentOptions: ContentOptions

        func run() throws {
            let stamps = try Timestamps(now: now)
            let language = try contentOptions.language(locale)
            if !yes {
                // Only a yes word of the language clears; Enter, end of input or anything else keeps them.
                Terminal.write(language.string(.progressResetQuestion) + " " + language.string(.terminalNoDefault) + " ")
                let typed = readLine() ?? ""
                guard language.localizer.answerWords.boolean(typed) == true else {
                    Terminal.write(language.string(.progressResetUnchanged) + "\n")
                    return
                }
            }
            let store = try storeOptions.open()
            do {
                let today = try ProgressCommand.today(stamps, store: store, user: storeOptions.user)
                try store.resetAchievements(user: storeOptions.user, day: today)
            } catch {
                throw failStore(error)
            }
            Terminal.write(language.string(.progressResetDone) + "\n")
        }
    }

    /// The person's logical day at `--now` (or now), by their time zone and
    /// day boundary.
    static func today(_ stamps: Timestamps, store: Store, user: String) throws(StoreError) -> CalendarDay {
        try PersonClock(store: store, user: user, stamps: stamps).moment.day
    }
}

/// What `reflect progress` shows (its JSON is this value).
struct ProgressReport: Encodable {
    var today: CalendarDay
    var figures: StreakFigures
    var heatmap: ProgressHeatmap
    var achievements: [AchievementRow]

    enum CodingKeys: String, CodingKey { case today, streak, heatmap, achievements }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(today, forKey: .today)
        try c.encode(Streak(current: figures.current, longest: figures.longest, lastSevenDays: figures.lastSevenDays,
                            today: figures.today), forKey: .streak)
        try c.encode(heatmap, forKey: .heatmap)
        try c.encode(achievements.map { Earned(key: $0.key, day: $0.achievedAt) }, forKey: .achievements)
    }

    struct Streak: Encodable {
        var current, longest, lastSevenDays: Int
        var today: Bool
        enum CodingKeys: String, CodingKey { case current, longest, today, lastSevenDays = "last_seven_days" }
    }

    struct Earned: Encodable {
        var key: String
        var day: String
    }

    /// The text report in `language`; `color` adds ANSI colour to the
    /// heatmap's cells. Weekday columns are as wide as the widest short
    /// weekday name (display columns: 日 takes two).
    func text(color: Bool, language: Language) -> String {
        func s(_ key: EngineString, _ args: String...) -> String { Template(language.string(key)).render(args) }
        var out = s(.progressStreak, "\(figures.current)", "\(figures.longest)") + "\n"
        out += s(.progressWeek, "\(figures.lastSevenDays)") + "\n\n"
        let names = (0..<7).map { language.string(.weekdayShort((heatmap.weekStart - 1 + $0) % 7 + 1)) }
        let width = names.map { DisplayWidth.of($0) }.max() ?? 1
        out += "      " + names.map { DisplayWidth.padded($0, to: width) }.joined(separator: " ") + "\n"
        for week in heatmap.weeks {
            let label = week.first.map { String($0.day.description.dropFirst(5)) } ?? "     "
            let cells = week.map { cell -> String in
                let pad = String(repeating: " ", count: width - 1)
                if cell.future { return " " + pad }
                guard cell.counted else { return (color ? "\u{1B}[2m·\u{1B}[0m" : "·") + pad }
                return (color ? "\u{1B}[32m■\u{1B}[0m" : "■") + pad
            }
            var line = label + " " + cells.joined(separator: " ")
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        out += "\n" + s(.progressAchievements) + "\n"
        if achievements.isEmpty { out += "  " + s(.progressAchievementsNone) + "\n" }
        for a in achievements {
            out += TerminalText.neutralized("  \(a.achievedAt)  \(Self.name(of: a.key, language: language))\n")
        }
        return out
    }

    /// An achievement's name in `language`; a stored key this version does
    /// not know is shown as it is.
    static func name(of key: String, language: Language) -> String {
        guard let achievement = Achievement(key: key) else { return key }
        switch achievement {
        case .streak(let n): return Template(language.string(.achievementStreak)).render(["\(n)"])
        case .firstWeekMorning: return language.string(.achievementFirstWeekMorning)
        case .weeklyConsistency(let week): return Template(language.string(.achievementWeeklyConsistency)).render([week])
        case .firstStressResponse: return language.string(.achievementFirstStressResponse)
        }
    }
}

import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

/// `reflect progress`: streaks, the week, the 12-week heatmap and
/// achievements; `reflect progress reset-achievements --yes`.
struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "Your streaks, this week, a 12-week heatmap and your achievements.",
        discussion: """
            A day counts when anything was logged that day (an answer of any flow, a mood). \
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

        @Option(help: "Locale tag: decides the heatmap's first weekday.")
        var locale: String = "en"

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
                Terminal.writeStyled(report.text(color: Terminal.colorAllowed))
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

        func run() throws {
            let stamps = try Timestamps(now: now)
            if !yes {
                Terminal.write("Clear all your achievements and start them over? Your streaks and answers stay. [y/N] ")
                let typed = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                guard typed == "y" || typed == "yes" else {
                    Terminal.write("Nothing changed.\n")
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
            Terminal.write("Achievements cleared; they count again from tomorrow's activity on.\n")
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

    /// The text report; `color` adds ANSI colour to the heatmap's cells.
    func text(color: Bool) -> String {
        var out = "Streak: \(figures.current) day\(figures.current == 1 ? "" : "s") (longest \(figures.longest))\n"
        out += "This week: \(figures.lastSevenDays) of the last 7 days\n\n"
        let names = ["S", "M", "T", "W", "T", "F", "S"]
        let header = (0..<7).map { names[(heatmap.weekStart - 1 + $0) % 7] }.joined(separator: " ")
        out += "      " + header + "\n"
        for week in heatmap.weeks {
            let label = week.first.map { String($0.day.description.dropFirst(5)) } ?? "     "
            let cells = week.map { cell -> String in
                if cell.future { return " " }
                guard cell.counted else { return color ? "\u{1B}[2m·\u{1B}[0m" : "·" }
                return color ? "\u{1B}[32m■\u{1B}[0m" : "■"
            }
            out += label + " " + cells.joined(separator: " ") + "\n"
        }
        out += "\nAchievements\n"
        if achievements.isEmpty { out += "  (none yet)\n" }
        for a in achievements { out += TerminalText.neutralized("  \(a.achievedAt)  \(a.key)\n") }
        return out
    }
}

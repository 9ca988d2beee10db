import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect coach context`: what the coach chat knows about today
/// (docs/coach.md, "Coach context and nudge").
struct CoachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coach", abstract: "The coach's view of your day.", subcommands: [Context.self], defaultSubcommand: Context.self)

    struct Context: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Today's why, swap and commitment, streak figures, this week's craving types and the nudge (JSON or text).")

        enum Format: String, ExpressibleByArgument { case text, json }

        @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
        var now: String?

        @Option(help: "text or json.")
        var format: Format = .json

        @Option(help: "Locale of the nudge.")
        var locale: String = "en"

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var contentOptions: ContentOptions

        func run() throws {
            let stamps = try Timestamps(now: now)
            let store = try storeOptions.open(.readOnly)
            let language = try contentOptions.language(locale)
            let context: CoachContext
            do {
                let settings = try store.settings(user: storeOptions.user)
                context = try store.coachContext(user: storeOptions.user, clock: stamps.current, rules: settings.dayRules, language: language)
            } catch {
                throw failStore(error)
            }
            switch format {
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.keyEncodingStrategy = .convertToSnakeCase
                Terminal.writeJSON(try encoder.encode(context) + Data("\n".utf8))
            case .text:
                func line(_ key: EngineString, _ args: String...) { print(TerminalText.neutralized(Template(language.string(key)).render(args))) }
                line(.coachContextWhy, context.todayWhy.isEmpty ? "·" : context.todayWhy)
                line(.coachContextSwap, context.todaySwap.isEmpty ? "·" : context.todaySwap)
                line(.coachContextStreak, "\(context.currentStreak)", "\(context.daysThisWeek)")
                if let top = context.cravingTypes.first {
                    let type = language.localizer.string("coach.cravings.type.\(top.type.rawValue)") ?? top.type.rawValue
                    print(Template(language.localizer.string("coach.cravings.most") ?? "%@").render([type]))
                }
                if let nudge = context.nudge { print(nudge) }
            }
        }
    }
}

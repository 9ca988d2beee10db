import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine

@main
struct Reflect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reflect",
        abstract: "Guided reflection and coaching flows, run from Lua content.",
        discussion: """
            Flows live in flows/ (Lua; see docs/flow-api.md), strings and word lists in locales/. \
            The machine interface (--format jsonl) is documented in docs/events.md.
            """,
        subcommands: [Run.self, Resume.self, Log.self, Today.self, SettingsCommand.self, PrepCommand.self, Reminders.self, Open.self, CoachCommand.self, History.self, Show.self, Export.self, Import.self, DeleteAll.self,
                      Chat.self, Flows.self, ProgressCommand.self, Personalities.self, Check.self, TestCommand.self, Dev.self, Detect.self, Safety.self, Locales.self, Experiments.self,
                      InsightsCommand.self, LetterCommand.self, DigestCommand.self, MomentsCommand.self, ReportCommand.self, DeleteCommand.self,
                      ProfileCommand.self, RateCommand.self])

    /// `reflect run …` is parsed as `run` alone first: building the parser
    /// of every subcommand costs more than the rest of a start. Its plain
    /// command lines are read without ArgumentParser's reflection
    /// (``RunQuickParse``, same values); the rest by `Run.parse`. Whatever
    /// does not parse that way (help, a mistake, any other command) goes
    /// through the whole command tree, which prints the usual messages; an
    /// error thrown while running is reported exactly as the tree reports it.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "run" {
            let rest = Array(arguments.dropFirst())
            if let command = RunQuickParse.parse(rest) ?? (try? Run.parse(rest)) {
                do { try command.run() } catch { Reflect.exit(withError: error) }
                return
            }
        }
        if let unknown = unknownCommand(arguments) {
            Terminal.write(unknown, to: .err)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        Reflect.main(nil)
    }

    /// The message for a first word that names no command (`reflect lgo
    /// good`), with the nearest command when it looks like a typo ("Did you
    /// mean 'log'?"), else the list of commands; nil when the first word is
    /// a command, an option or absent. ArgumentParser alone would say
    /// "2 unexpected arguments".
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        let shown = String(first.prefix(40))
        let advice = Suggestion.nearest(to: first, among: names).map { "Did you mean '\($0)'?" }
            ?? "The commands are: " + names.filter { $0 != "help" }.joined(separator: ", ") + "."
        return "Error: unknown command '\(shown)'. \(advice)\nUsage: reflect <subcommand>\n  See 'reflect --help' for more information.\n"
    }
}

/// Where content is read from; shared by every command that loads content.
struct ContentOptions: ParsableArguments {
    @Option(name: .long, help: "Directory holding flows/, locales/ and personalities/ (default: the nearest one with flows/).")
    var content: String?

    /// The content directory: `--content`, else `$REFLECT_CONTENT`, else the
    /// nearest one holding `flows/`.
    /// - Throws: ``EngineError/noContent(looked:)`` when there is none, or
    ///   `--content` names a directory with neither `flows/` nor `locales/`.
    var library: ContentLibrary {
        get throws(EngineError) {
            if let content {
                let root = ContentRoot(URL(fileURLWithPath: content, isDirectory: true))
                guard ContentOptions.isContent(root) else { throw .noContent(looked: content) }
                return ContentLibrary(root: root)
            }
            guard let root = ContentRoot.locate(), ContentOptions.isContent(root) else {
                throw .noContent(looked: ProcessInfo.processInfo.environment["REFLECT_CONTENT"].map { "REFLECT_CONTENT=\($0)" }
                                    ?? FileManager.default.currentDirectoryPath + " and the directories above it")
            }
            return ContentLibrary(root: root)
        }
    }

    /// ``library``, or the error printed for people and exit status 1.
    func open() throws -> ContentLibrary {
        do { return try library } catch { throw fail(error) }
    }

    /// The language of `locale` (its chain down to English) from ``library``,
    /// or the error printed for people and exit status 1: no content
    /// directory, an unknown locale (with the available ones), a broken
    /// locale file (file and line).
    func language(_ locale: String) throws -> Language {
        do { return try library.language(for: locale) } catch { throw fail(error) }
    }

    private static func isContent(_ root: ContentRoot) -> Bool {
        ["flows", "locales"].contains { name in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.url.appendingPathComponent(name).path, isDirectory: &isDir) && isDir.boolValue
        }
    }
}

/// Prints an engine error for people and exits 1.
func fail(_ error: EngineError) -> ExitCode {
    Terminal.write("error: \(error.description) [\(error.code)]\n", to: .err)
    return ExitCode(1)
}

import ArgumentParser
import Foundation
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
                      InsightsCommand.self, LetterCommand.self, ReportCommand.self, DeleteCommand.self])
}

/// Where content is read from; shared by every command that loads content.
struct ContentOptions: ParsableArguments {
    @Option(name: .long, help: "Directory holding flows/, locales/ and personalities/ (default: the nearest one with flows/).")
    var content: String?

    var library: ContentLibrary {
        if let content { return ContentLibrary(root: ContentRoot(URL(fileURLWithPath: content, isDirectory: true))) }
        let root = ContentRoot.locate() ?? ContentRoot(URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        return ContentLibrary(root: root)
    }
}

/// Prints an engine error for people and exits 1.
func fail(_ error: EngineError) -> ExitCode {
    Terminal.write("error: \(error.description) [\(error.code)]\n", to: .err)
    return ExitCode(1)
}

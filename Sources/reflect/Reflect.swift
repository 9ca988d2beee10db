import ArgumentParser

@main
struct Reflect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reflect",
        abstract: "Guided reflection and coaching flows, run from Lua content.",
        discussion: """
            Flows live in flows/, written in Lua; see docs/flow-api.md. \
            The machine interface (--format jsonl) is documented in docs/events.md.
            """,
        subcommands: [Run.self])
}

/// Where content is read from; shared by every command that loads flows.
struct ContentOptions: ParsableArguments {
    @Option(name: .long, help: "Directory holding flows/, locales/ and personalities/ (default: the nearest one with flows/).")
    var content: String?
}

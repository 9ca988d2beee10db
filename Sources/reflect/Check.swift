import ArgumentParser
import Foundation
import ReflectEngine
import ReflectAuthoring

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every flow, locale and personality; explore each flow with generated answers.",
        discussion: """
            Prints file:line:col: severity CODE: message, and a fix. Codes: docs/diagnostics/. Exits 1 on errors; warnings do not fail.

            Name a flow to check only it: `reflect check journal.check-in` or `reflect check flows/journal/check-in.lua` \
            reports that file and the locale findings about the keys it uses, nothing else.
            """)

    @Argument(help: "Only this flow: its id (journal.check-in) or its file (flows/journal/check-in.lua).")
    var flow: String?

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "text, or json for editors.")
    var format: Locales.Status.Format = .text

    @Option(help: "Explored runs per flow.")
    var runs: Int = 60

    func run() throws {
        let library = try contentOptions.open()
        var only: FlowSource?
        if let flow {
            do { only = try FlowCatalog(root: library.root).source(for: flow) } catch { throw fail(error) }
        }
        let diagnostics = ContentChecker(library: library, explorer: FlowExplorer(runs: max(runs, 1))).run(only: only)
        let errors = diagnostics.filter { $0.severity == .error }.count
        if format == .json {
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try e.encode(diagnostics) + Data("\n".utf8))
        } else {
            for d in diagnostics { print(d.description) }
            print("\(errors) error(s), \(diagnostics.count - errors) warning(s)")
        }
        if errors > 0 { throw ExitCode(1) }
    }
}

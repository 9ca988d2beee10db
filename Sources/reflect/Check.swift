import ArgumentParser
import Foundation
import ReflectEngine
import ReflectAuthoring

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every flow, locale and personality; explore each flow with generated answers.",
        discussion: "Prints file:line:col: severity CODE: message, and a fix. Codes: docs/diagnostics/. Exits 1 on errors; warnings do not fail.")

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "text, or json for editors.")
    var format: Locales.Status.Format = .text

    @Option(help: "Explored runs per flow.")
    var runs: Int = 60

    func run() throws {
        let diagnostics = ContentChecker(library: try contentOptions.open(), explorer: FlowExplorer(runs: max(runs, 1))).run()
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

import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine

struct Flows: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the flows under the content directory.")

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "Locale for the titles.")
    var locale: String = "en"

    func run() throws {
        let library = try contentOptions.open()
        let language: Language
        do { language = try library.language(for: locale) } catch { throw fail(error) }
        var rows: [(String, String, String, String, String)] = [(language.string(.flowsID), language.string(.flowsTitle), language.string(.flowsQuestions),
                                                                  language.string(.flowsMoods), language.string(.flowsFile))]
        var broken: [String] = []
        for (name, result) in library.catalog.all() {
            switch result {
            case .success(let def):
                let title = language.flowTitle(def.title) ?? ""
                rows.append((def.id, title, def.total.map(String.init) ?? "-", def.moods.map(\.rawValue).joined(separator: ","), name))
            case .failure(let e):
                broken.append("\(e.description) [\(e.code)]")
            }
        }
        // Columns by display width: a CJK title takes two columns a character.
        let widths = (0..<4).map { col in rows.map { DisplayWidth.of([$0.0, $0.1, $0.2, $0.3][col]) }.max() ?? 0 }
        for r in rows {
            let cells = [r.0, r.1, r.2, r.3]
            print(zip(cells, widths).map { DisplayWidth.padded($0, to: $1) }.joined(separator: "  ") + "  " + r.4)
        }
        if !broken.isEmpty {
            Terminal.write("\n" + language.string(.flowsBroken) + "\n" + broken.map { "  " + $0 }.joined(separator: "\n") + "\n", to: .err)
        }
    }
}

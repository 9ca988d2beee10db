import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine

/// `reflect personalities`: the personality packs, each with a sample line
/// in its voice (its closing line, in the chosen locale).
struct Personalities: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the personality packs (personalities/*.yaml), each with a sample line in its voice.")

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "Locale tag of the sample lines (a pack falls back key by key to the locale's wording).")
    var locale: String = "en"

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    enum Format: String, ExpressibleByArgument { case text, json }

    struct Entry: Encodable {
        var id: String
        var name: String
        var sample: String
        var overrides: Int
    }

    func run() throws {
        let library = try contentOptions.open()
        var entries: [Entry] = []
        for id in library.availablePersonalities() {
            do {
                let pack = try library.personality(id)
                let language = try library.language(for: locale, personality: id)
                entries.append(Entry(id: id, name: pack.name, sample: language.string(.doneThanks),
                                     overrides: pack.strings.values.reduce(0) { $0 + $1.count }))
            } catch {
                throw fail(error)
            }
        }
        switch format {
        case .json:
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try e.encode(entries) + Data("\n".utf8))
        case .text:
            for entry in entries {
                print("\(entry.id.padding(toLength: 14, withPad: " ", startingAt: 0)) \(entry.name) (\(entry.overrides) strings)")
                print("               “\(entry.sample)”")
            }
        }
    }
}

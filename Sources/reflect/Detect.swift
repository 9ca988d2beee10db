import ArgumentParser
import Foundation
import ReflectEngine

struct Detect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Label each line of stdin with a cognitive distortion (one label per line).",
        discussion: "Labels: overgeneralization, should_statement, labeling, personalization, catastrophizing, mind_reading, unknown.")

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "Locale whose word lists to use.")
    var locale: String = "en"

    func run() throws {
        let language: Language
        do { language = try contentOptions.library.language(for: locale) } catch { throw fail(error) }
        guard let detector = language.detector else {
            throw fail(.invalidContent(file: "locales/\(locale).yaml", line: nil, message: "no distortion lists for '\(locale)' or its fallbacks"))
        }
        var out = ""
        out.reserveCapacity(1 << 16)
        while let line = readLine(strippingNewline: true) {
            out += detector.detect(line).rawValue
            out += "\n"
            if out.utf8.count > 1 << 15 {
                Terminal.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        Terminal.write(out)
    }
}

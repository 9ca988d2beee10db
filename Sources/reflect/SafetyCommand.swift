import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine

struct Safety: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "safety",
        abstract: "Check each line of stdin: `crisis CATEGORY` or `ok` (with --generated: `blocked REASON` or `ok`).",
        discussion: """
            Categories: suicide, self_harm, crisis, abuse, substance_abuse. Reasons: pii.email, pii.phone, \
            pii.national_id, pii.card, medical.diagnosis, medical.medication. For evaluation: nothing is stored.
            """)

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "Locale whose lists to use (with its fallbacks, English included).")
    var locale: String = "en"

    @Flag(help: "Apply the output filter for generated text instead of the crisis gate.")
    var generated = false

    func run() throws {
        let language: Language
        do { language = try contentOptions.library.language(for: locale) } catch { throw fail(error) }
        var out = ""
        out.reserveCapacity(1 << 16)
        while let line = readLine(strippingNewline: true) {
            if generated {
                switch language.outputFilter.check(line) {
                case .ok: out += "ok\n"
                case .blocked(let reason): out += "blocked \(reason.rawValue)\n"
                }
            } else {
                switch language.safety.check(line) {
                case .ok: out += "ok\n"
                case .crisis(let category): out += "crisis \(category.rawValue)\n"
                }
            }
            if out.utf8.count > 1 << 15 {
                Terminal.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        Terminal.write(out)
    }
}

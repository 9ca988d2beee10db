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

            --report FILE measures the lists on a labelled file instead of reading stdin: one line per text, \
            `TEXT<TAB>LABEL`, where LABEL is `ok` or a category (a reason with --generated). Blank lines and lines \
            starting with `#` are skipped. It prints lines, true and false positives, false negatives, precision, \
            recall and F1 per label, a row `any` (flagged or not, whatever the category), and the false-alarm rate \
            on the `ok` lines. --misses lists every line whose verdict differs from its label.
            """)

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "Locale whose lists to use (with its fallbacks, English included).")
    var locale: String = "en"

    @Flag(help: "Apply the output filter for generated text instead of the crisis gate.")
    var generated = false

    @Option(help: "A labelled file (TEXT<TAB>LABEL per line): print precision, recall and F1 per label.")
    var report: String?

    @Flag(help: "With --report: also list the lines whose verdict differs from their label.")
    var misses = false

    func run() throws {
        let language: Language
        let library = try contentOptions.open()
        do { language = try library.language(for: locale) } catch { throw fail(error) }
        if let report {
            try printReport(report, language: language)
            return
        }
        var out = ""
        out.reserveCapacity(1 << 16)
        while let line = readLine(strippingNewline: true) {
            out += verdict(line, language: language) + "\n"
            if out.utf8.count > 1 << 15 {
                Terminal.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        Terminal.write(out)
    }

    /// `crisis CATEGORY`, `blocked REASON` or `ok`.
    private func verdict(_ line: String, language: Language) -> String {
        if let label = label(line, language: language) { return (generated ? "blocked " : "crisis ") + label }
        return "ok"
    }

    /// The category or reason found in `line`, nil when it is fine.
    private func label(_ line: String, language: Language) -> String? {
        if generated {
            if case .blocked(let reason) = language.outputFilter.check(line) { return reason.rawValue }
        } else {
            if case .crisis(let category) = language.safety.check(line) { return category.rawValue }
        }
        return nil
    }

    private func printReport(_ path: String, language: Language) throws {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw failure("\(path): cannot read the file (\(error.localizedDescription))")
        }
        let labels = [SafetyReport.negative] + (generated ? OutputFilter.Reason.allCases.map(\.rawValue) : SafetyCategory.allCases.map(\.rawValue))
        var pairs: [(expected: String, predicted: String)] = []
        var wrong: [String] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            guard let tab = line.lastIndex(of: "\t") else {
                throw failure("\(path):\(i + 1): expected TEXT<TAB>LABEL (no tab on this line)")
            }
            let sentence = String(line[..<tab]), expected = line[line.index(after: tab)...].trimmingCharacters(in: .whitespaces)
            guard labels.contains(expected) else {
                throw failure("\(path):\(i + 1): unknown label '\(expected)' (expected one of \(labels.joined(separator: ", ")))")
            }
            let predicted = label(sentence, language: language) ?? SafetyReport.negative
            pairs.append((expected, predicted))
            if misses, predicted != expected { wrong.append("\(path):\(i + 1): expected \(expected), got \(predicted): \(sentence)") }
        }
        let result = SafetyReport(labels: labels, pairs: pairs)
        print(result.table(title: "\(path) (locale \(locale), \(generated ? "output filter" : "crisis gate"), \(pairs.count) lines)"),
              terminator: "")
        for line in wrong { print(line) }
    }

    private func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        return ExitCode(1)
    }
}

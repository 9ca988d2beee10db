import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine

struct Detect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Label thoughts with a cognitive distortion: stdin lines, one thought explained, or a labelled file measured.",
        discussion: """
            Labels: overgeneralization, should_statement, labeling, personalization, catastrophizing, mind_reading, unknown.
            With no option, each line of stdin gets one label line (--confidence adds a TAB and the confidence).
            --explain TEXT shows which rules matched, which were cancelled (negation, someone else's quotation), the score \
            of each type and why the winner won. --report FILE measures the locale's rules against a labelled file \
            (thought TAB type per line; # comments): per-type precision, recall, F1 and coverage, overall coverage and \
            precision when routed (docs/distortions.md).
            """)

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "Locale whose rules to use.")
    var locale: String = "en"

    @Flag(help: "Print each label with its confidence (label TAB confidence).")
    var confidence = false

    @Option(help: "Explain the decision for one thought.")
    var explain: String?

    @Option(help: "Measure the rules against a labelled file (thought TAB type per line).")
    var report: String?

    @Option(help: "Report format: text or markdown.")
    var format: ReportFormat = .text

    @Flag(help: "With --report: also list every thought labelled wrongly.")
    var misses = false

    enum ReportFormat: String, ExpressibleByArgument { case text, markdown }

    func validate() throws {
        if explain != nil && report != nil { throw ValidationError("--explain and --report cannot be combined") }
    }

    func run() throws {
        let language: Language
        let library = try contentOptions.open()
        do { language = try library.language(for: locale) } catch { throw fail(error) }
        guard let detector = language.detector else {
            throw fail(.invalidContent(file: "locales/\(locale).yaml", line: nil, message: "no distortion rules for '\(locale)' or its fallbacks"))
        }
        if let explain {
            print(DetectFormat.explanation(detector.explain(explain)), terminator: "")
            return
        }
        if let report {
            let text: String
            do { text = try String(contentsOfFile: report, encoding: .utf8) } catch {
                throw fail(.invalidContent(file: report, line: nil, message: "cannot read the file as UTF-8 text"))
            }
            let items: [(line: Int, text: String, type: DistortionType)]
            do { items = try DistortionReport.parse(text) } catch {
                throw fail(.invalidContent(file: report, line: error.line, message: error.message))
            }
            let result = DistortionReport(items, detector: detector)
            let out = format == .markdown
                ? result.markdown
                : DetectFormat.text(result, file: report, locale: language.localizer.distortionSource?.tag ?? locale, threshold: detector.threshold)
            print(out, terminator: "")
            if misses { print(DetectFormat.misses(result), terminator: "") }
            return
        }
        var out = ""
        out.reserveCapacity(1 << 16)
        while let line = readLine(strippingNewline: true) {
            let d = detector.detection(line)
            out += d.type.rawValue
            if confidence { out += "\t" + DetectFormat.number(d.confidence) }
            out += "\n"
            if out.utf8.count > 1 << 15 {
                Terminal.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        Terminal.write(out)
    }
}

/// Text forms of detections, explanations and reports.
enum DetectFormat {
    static func number(_ x: Double) -> String { String(format: "%.2f", x) }

    static func explanation(_ e: DistortionExplanation) -> String {
        var out = ""
        if e.matches.isEmpty { out += "no rule matched\n" }
        for m in e.matches {
            let status: String
            switch m.status {
            case .counted: status = "counts"
            case .negated(let word): status = "cancelled by negation '\(word)'"
            case .quoted: status = "ignored: inside someone else's quotation"
            }
            out += "match  \(m.type.rawValue) (\(m.strength.rawValue) \(number(m.strength.weight))): rule \"\(m.rule)\" on \"\(m.text)\": \(status)\n"
        }
        for (i, s) in e.scores.enumerated() {
            out += "score  \(s.type.rawValue) \(number(s.score)) from \(s.rules) rule\(s.rules == 1 ? "" : "s")"
            if i > 0, s.competing != s.score { out += "; \(number(s.competing)) apart from the winner's words" }
            out += "\n"
        }
        let d = e.detection
        if let top = e.scores.first {
            let rivals = e.scores.dropFirst()
            var why = "highest score"
            if let tie = rivals.first(where: { $0.score == top.score }) {
                why = tie.start != top.start
                    ? "tie with \(tie.type.rawValue) at \(number(top.score)); its match comes first and frames the other's"
                    : "tie with \(tie.type.rawValue) at \(number(top.score)) over as many words, broken by priority ("
                        + e.priority.map(\.rawValue).joined(separator: " > ") + ")"
            }
            out += "winner \(top.type.rawValue): \(why)\n"
            let runner = rivals.max { $0.competing < $1.competing }
            out += "confidence \(number(d.confidence)) = \(number(top.score)) × (1 − \(number(runner?.competing ?? 0))/2)"
            out += runner.map { " (runner-up \($0.type.rawValue), counting only rules apart from the winner's words)" } ?? " (no runner-up)"
            out += "\n"
        }
        let verdict = d.type == .unknown && d.candidate != .unknown
            ? "unknown (\(d.candidate.rawValue) at \(number(d.confidence)) is below the threshold \(number(e.threshold)))"
            : d.type == .unknown ? "unknown (no rule counted)" : "\(d.type.rawValue) (confidence \(number(d.confidence)) ≥ threshold \(number(e.threshold)))"
        out += "result \(verdict)\n"
        return out
    }

    static func text(_ r: DistortionReport, file: String, locale: String, threshold: Double) -> String {
        var out = "\(file): \(r.thoughts) thoughts (\(r.distorted) distorted, \(r.undistorted) unknown), rules of \(locale), threshold \(number(threshold))\n"
        out += "type                 labelled named precision recall   F1  coverage\n"
        for row in r.rows {
            out += row.type.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)
                + String(format: " %8d %5d %9.2f %6.2f %5.2f %8.2f\n", row.labelled, row.named, row.precision, row.recall, row.f1, row.coverage)
        }
        out += String(format: "coverage %.2f (%d of %d distorted thoughts named a type)\n", r.coverage, r.routedDistorted, r.distorted)
        out += String(format: "precision when routed %.2f (%d of %d named thoughts right)\n", r.precisionWhenRouted, r.correct, r.routed)
        out += String(format: "false routes %d of %d unknown thoughts; macro F1 %.2f\n", r.falseRoutes, r.undistorted, r.macroF1)
        return out
    }

    static func misses(_ r: DistortionReport) -> String {
        var out = ""
        for m in r.misses {
            out += "line \(m.line): expected \(m.expected.rawValue), got \(m.got.type.rawValue)"
            if m.got.type == .unknown && m.got.candidate != .unknown { out += " (\(m.got.candidate.rawValue) \(number(m.got.confidence)))" }
            out += ": \(m.text)\n"
        }
        return out
    }
}

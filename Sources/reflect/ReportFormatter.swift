import Foundation
import ReflectCore

/// `reflect experiments report` as text, JSON or Markdown
/// (docs/experiments.md shows each).
struct ReportFormatter {
    let report: ExperimentReport

    func render(_ format: ReportFormat) throws -> String {
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        case .text: return text()
        case .md: return markdown()
        }
    }

    // MARK: Numbers

    static func number(_ x: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
    /// A sample's mean, or "—" when it has no value (a mean of nothing is not 0).
    static func mean(_ s: SampleSummary) -> String { s.count > 0 ? number(s.mean) : "—" }
    static func signed(_ x: Double, digits: Int = 2) -> String { (x >= 0 ? "+" : "−") + String(format: "%.\(digits)f", abs(x)) }
    static func percent(_ x: Double) -> String { String(format: "%.1f%%", x * 100) }
    static func points(_ x: Double) -> String { (x >= 0 ? "+" : "−") + String(format: "%.1f pts", abs(x) * 100) }
    static func p(_ x: Double) -> String { x < 0.0001 ? String(format: "%.1e", x) : String(format: "%.4f", x) }
    static func interval(_ i: Interval, _ f: (Double) -> String) -> String { "[\(f(i.low)), \(f(i.high))]" }

    // MARK: Sentences shared by both layouts

    var warnings: [String] {
        var out: [String] = []
        if report.sampleRatioMismatch, let srm = report.sampleRatio {
            out.append("Sample ratio mismatch: the people per variation do not match the configured weights "
                       + "(chi² = \(Self.number(srm.statistic)), p = \(Self.p(srm.pValue)) < 0.001). Something in assignment or "
                       + "exposure is broken; no verdict until it is found.")
        }
        if report.completionDiffers {
            out.append("Completion rates differ between variations: the completers-only comparison conditions on an outcome "
                       + "of the variation and is biased. Use the intent-to-treat result.")
        }
        let unconfirmed = report.comparisons.filter { $0.confirmedPerPerson == false }
        if !unconfirmed.isEmpty {
            let results = unconfirmed.map { "\($0.variation) \(welch($0.perPerson))" }.joined(separator: "; ")
            out.append("Sessions of one person are not independent: \(report.repeatPeople) people had more than one exposed session "
                       + "(up to \(report.mostSessionsPerPerson)). Counted per person (each person's mean change once), the result "
                       + "is not the same (\(results)), so the per-session p-value overstates how sure this is. Treat the verdict "
                       + "as unconfirmed.")
        }
        if report.excludedPeople > 0 {
            out.append("\(report.excludedPeople) people were exposed to more than one variation and are left out of every figure.")
        }
        return out
    }

    func verdict(_ c: ExperimentReport.Comparison) -> String {
        if report.sampleRatioMismatch { return "no verdict (sample ratio mismatch)" }
        switch c.verdict {
        case .better?: return "more relief than \(report.control) (p < 0.05 on the primary metric)"
        case .worse?: return "less relief than \(report.control) (p < 0.05 on the primary metric)"
        case .inconclusive?: return "no detectable difference from \(report.control) with this many sessions"
        case nil: return "not enough data for a test yet"
        }
    }

    /// The verdict, marked when the per-person check does not reach it.
    func judged(_ c: ExperimentReport.Comparison) -> String {
        verdict(c) + (c.confirmedPerPerson == false ? " (not confirmed when each person counts once)" : "")
    }

    /// The heading of the per-person rows, nil when nobody has a second
    /// exposed session (then they equal the per-session rows).
    var perPersonHeading: String? {
        guard report.repeatPeople > 0 else { return nil }
        return "Counted per person (each person's mean change once; \(report.repeatPeople) people had more than one exposed session, "
            + "up to \(report.mostSessionsPerPerson))"
    }

    func welch(_ w: WelchTest?) -> String {
        guard let w else { return "—" }
        var s = "\(Self.signed(w.difference)) \(Self.interval(w.interval) { Self.signed($0) })"
        if let lift = w.relativeLift, let li = w.relativeLiftInterval {
            s += ", lift \(Self.signed(lift * 100, digits: 1))% \(Self.interval(li) { Self.signed($0 * 100, digits: 1) + "%" })"
        }
        return s + ", p = \(Self.p(w.pValue))"
    }

    func proportion(_ t: TwoProportionTest?) -> String {
        guard let t else { return "—" }
        return "\(Self.points(t.difference)) \(Self.interval(t.interval) { Self.points($0) }), p = \(Self.p(t.pValue))"
    }

    func rate(_ x: Double?) -> String { x.map(Self.percent) ?? "—" }

    // MARK: Text

    func text() -> String {
        var lines = ["Experiment \(report.experiment) (\(report.status?.rawValue ?? "unknown")); control: \(report.control)", ""]
        lines.append(pad(["variation", "weight", "people", "sessions", "completed", "came back ≤7d"]))
        for a in report.arms {
            lines.append(pad([a.variation, a.weight.map(Self.percent) ?? "—", "\(a.people)", "\(a.sessions)", rate(a.completionRate),
                              rate(a.returnRate)]))
        }
        if let srm = report.sampleRatio {
            lines.append("")
            lines.append("Sample ratio: chi² = \(Self.number(srm.statistic)), p = \(Self.p(srm.pValue))"
                         + (report.sampleRatioMismatch ? "  MISMATCH" : "  (ok)"))
        }
        lines.append("")
        lines.append("Intensity change (pre − post, higher = more relief), intent to treat — primary")
        for a in report.arms {
            let c = report.comparisons.first { $0.variation == a.variation }
            lines.append("  \(a.variation): mean \(Self.mean(a.intentToTreat)) (n = \(a.intentToTreat.count))"
                         + (c.map { "  vs control " + welch($0.intentToTreat) } ?? ""))
        }
        if let heading = perPersonHeading {
            lines.append("  " + heading)
            for a in report.arms {
                let c = report.comparisons.first { $0.variation == a.variation }
                lines.append("    \(a.variation): mean \(Self.mean(a.perPerson)) (n = \(a.perPerson.count))"
                             + (c.map { "  vs control " + welch($0.perPerson) } ?? ""))
            }
        }
        lines.append("Completers only — secondary (biased when completion differs)")
        for a in report.arms {
            let c = report.comparisons.first { $0.variation == a.variation }
            lines.append("  \(a.variation): mean \(Self.mean(a.completers)) (n = \(a.completers.count))"
                         + (c.map { "  vs control " + welch($0.completers) } ?? ""))
        }
        lines.append("Completion, per exposed session")
        for c in report.comparisons { lines.append("  \(c.variation) vs control: " + proportion(c.completion)) }
        lines.append("Came back within 7 days, per person")
        for c in report.comparisons { lines.append("  \(c.variation) vs control: " + proportion(c.returned)) }
        if !warnings.isEmpty {
            lines.append("")
            for w in warnings { lines.append("WARNING: " + w) }
        }
        lines.append("")
        lines.append("Verdict")
        for c in report.comparisons { lines.append("  \(c.variation): " + judged(c)) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func pad(_ cells: [String]) -> String {
        let widths = [14, 8, 8, 9, 10, 13]
        return cells.enumerated().map { i, c in c.padding(toLength: max(widths[min(i, widths.count - 1)], c.count), withPad: " ", startingAt: 0) }
            .joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    // MARK: Markdown

    func markdown() -> String {
        var lines = ["# Experiment `\(report.experiment)`", "",
                     "Status: \(report.status?.rawValue ?? "unknown"). Control: `\(report.control)`.", ""]
        for w in warnings { lines.append("> **Warning:** " + w) }
        if !warnings.isEmpty { lines.append("") }
        lines += ["| variation | weight | people | sessions | completed | came back ≤ 7 d |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for a in report.arms {
            lines.append("| `\(a.variation)` | \(a.weight.map(Self.percent) ?? "—") | \(a.people) | \(a.sessions) | \(rate(a.completionRate)) | "
                         + "\(rate(a.returnRate)) |")
        }
        if let srm = report.sampleRatio {
            lines += ["", "Sample ratio: χ² = \(Self.number(srm.statistic)), p = \(Self.p(srm.pValue))"
                      + (report.sampleRatioMismatch ? " — **mismatch**." : " (ok).")]
        }
        lines += ["", "## Intensity change (pre − post), intent to treat — primary", "",
                  "| variation | mean | n | vs control (95% CI), lift, p | verdict |", "| --- | ---: | ---: | --- | --- |"]
        for a in report.arms {
            let c = report.comparisons.first { $0.variation == a.variation }
            lines.append("| `\(a.variation)` | \(Self.mean(a.intentToTreat)) | \(a.intentToTreat.count) | "
                         + "\(c.map { welch($0.intentToTreat) } ?? "control") | \(c.map(judged) ?? "") |")
        }
        if let heading = perPersonHeading {
            lines += ["", "### \(heading)", "", "| variation | mean | people | vs control (95% CI), lift, p |", "| --- | ---: | ---: | --- |"]
            for a in report.arms {
                let c = report.comparisons.first { $0.variation == a.variation }
                lines.append("| `\(a.variation)` | \(Self.mean(a.perPerson)) | \(a.perPerson.count) | "
                             + "\(c.map { welch($0.perPerson) } ?? "control") |")
            }
        }
        lines += ["", "## Completers only — secondary", "", "| variation | mean | n | vs control (95% CI), lift, p |", "| --- | ---: | ---: | --- |"]
        for a in report.arms {
            let c = report.comparisons.first { $0.variation == a.variation }
            lines.append("| `\(a.variation)` | \(Self.mean(a.completers)) | \(a.completers.count) | \(c.map { welch($0.completers) } ?? "control") |")
        }
        lines += ["", "## Proportions", "", "| variation | completion vs control | came back ≤ 7 d vs control |", "| --- | --- | --- |"]
        for c in report.comparisons { lines.append("| `\(c.variation)` | \(proportion(c.completion)) | \(proportion(c.returned)) |") }
        return lines.joined(separator: "\n") + "\n"
    }
}

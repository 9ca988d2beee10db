import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect report`: several weeks as Markdown or as one self-contained HTML
/// page (docs/journal.md).
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Several weeks at once (overview, week by week, mood calendar, activity heatmap), as Markdown or one HTML file.")

    enum Format: String, ExpressibleByArgument { case md, html, json }

    @Option(help: "How many weeks, ending with the current one (1–104).")
    var weeks: Int = 4

    @Option(help: "md, html or json.")
    var format: Format = .md

    @Option(help: "Write to this file instead of standard output.")
    var out: String?

    @Option(help: "Also write the pictures as SVG files into this directory (mood-calendar.svg, heatmap.svg).")
    var svg: String?

    @Option(help: "Language of the report (en, de, es, fr, ja, ko, pt-BR); also decides the pictures' first weekday.")
    var locale: String = "en"

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func validate() throws {
        guard (1...104).contains(weeks) else { throw ValidationError("--weeks must be from 1 to 104, got \(weeks)") }
    }

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        let data = try JournalData(store: store, user: storeOptions.user, now: now)
        let report = JournalReport.compose(entries: data.entries, moods: data.moods, cravings: data.cravings, weeks: weeks,
                                           through: data.today, streak: data.streak(through: data.today))
        let text: String
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            text = String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        } else {
            let language = try contentOptions.language(locale)
            let writer = ReportText(language: language, firstWeekday: FirstWeekday.of(locale: locale))
            text = format == .html ? writer.html(report) : writer.markdown(report)
            if let svg {
                let dir = URL(fileURLWithPath: svg, isDirectory: true)
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try JournalPictures.moodCalendar(report.days, title: writer.s("report.calendar"), numbers: language.localizer.numbers,
                                                 firstWeekday: writer.firstWeekday)
                    .write(to: dir.appendingPathComponent("mood-calendar.svg"), atomically: true, encoding: .utf8)
                try JournalPictures.heatmap(report.days, title: writer.s("report.heatmap"), firstWeekday: writer.firstWeekday)
                    .write(to: dir.appendingPathComponent("heatmap.svg"), atomically: true, encoding: .utf8)
            }
        }
        if let out {
            do { try text.write(toFile: out, atomically: true, encoding: .utf8) } catch {
                throw ValidationError("cannot write \(out): \(error.localizedDescription)")
            }
        } else {
            print(text, terminator: "")
        }
    }
}

/// The report in words, as Markdown or HTML.
struct ReportText {
    let language: Language
    /// The locale's first weekday for the pictures (``FirstWeekday``).
    let firstWeekday: Int

    func s(_ key: String, _ args: String...) -> String {
        Template(language.localizer.string(key) ?? key).render(args)
    }

    func weekLine(_ w: JournalReport.WeekSummary) -> (String, String, String, String, String) {
        (w.start.description, "\(w.entries)", w.mood.map(language.localizer.numbers.format) ?? "–", w.sleepHours.map(language.localizer.numbers.format) ?? "–",
         w.themes.map { s($0.nameKey) }.joined(separator: ", "))
    }

    var headers: [String] {
        [s("report.col.week"), s("report.col.entries"), s("insights.metric.mood"), s("insights.metric.sleep_hours"), s("report.col.themes")]
    }

    func markdown(_ r: JournalReport) -> String {
        var out = ["# " + s("report.title", r.from.description, r.to.description), ""]
        out.append("## " + s("report.overview"))
        out.append("")
        let overview = InsightsText(language: language, markdown: true).render(r.overview)
            .split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2) // its own title
        out += overview.map(String.init)
        out += ["## " + s("report.weeks"), "", "| " + headers.joined(separator: " | ") + " |", "|" + String(repeating: " --- |", count: 5)]
        for w in r.weeks {
            let l = weekLine(w)
            out.append("| \(l.0) | \(l.1) | \(l.2) | \(l.3) | \(l.4) |")
        }
        out.append("")
        return out.joined(separator: "\n")
    }

    func html(_ r: JournalReport) -> String {
        let e = HTMLText.escape
        let title = s("report.title", r.from.description, r.to.description)
        var body = "<h1>\(e(title))</h1>\n<section><h2>\(e(s("report.overview")))</h2>\n<ul>\n"
        let lines = InsightsText(language: language, markdown: false).render(r.overview).split(separator: "\n").dropFirst(1)
        for line in lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let nested = line.hasPrefix("  ")
            body += "<li\(nested ? " class=\"sub\"" : "")>\(e(line.trimmingCharacters(in: .whitespaces)))</li>\n"
        }
        body += "</ul></section>\n<section><h2>\(e(s("report.pictures")))</h2>\n<div class=\"pictures\">"
        body += "<figure>\(JournalPictures.moodCalendar(r.days, title: s("report.calendar"), numbers: language.localizer.numbers, firstWeekday: firstWeekday))<figcaption>\(e(s("report.calendar")))</figcaption></figure>"
        body += "<figure>\(JournalPictures.heatmap(r.days, title: s("report.heatmap"), firstWeekday: firstWeekday))<figcaption>\(e(s("report.heatmap")))</figcaption></figure>"
        body += "</div></section>\n<section><h2>\(e(s("report.weeks")))</h2>\n<table><thead><tr>"
        body += headers.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for w in r.weeks {
            let l = weekLine(w)
            body += "<tr><td>\(e(l.0))</td><td>\(e(l.1))</td><td>\(e(l.2))</td><td>\(e(l.3))</td><td>\(e(l.4))</td></tr>\n"
        }
        body += "</tbody></table></section>\n"
        return """
            <!DOCTYPE html>
            <html lang="\(e(language.tag))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.45; }
            h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
            ul { padding-left: 1.2rem; } li.sub { margin-left: 1.2rem; color: #444; }
            table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #ddd; padding: .3rem .5rem; text-align: left; }
            .pictures { display: flex; flex-wrap: wrap; gap: 2rem; } figure { margin: 0; } figcaption { font-size: .9rem; color: #555; }
            @media print { body { margin: 0; max-width: none; } section { break-inside: avoid; } }
            </style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }
}

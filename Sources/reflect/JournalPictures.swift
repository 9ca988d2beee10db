import ReflectCore

/// The report's pictures as SVG: a mood calendar (one square per day, tinted
/// from red, 1, to green, 10; grey without a mood) and an activity heatmap
/// (one square per day, darker with more entries). Weeks are rows (calendar)
/// or columns (heatmap), starting on the locale's first weekday
/// (``FirstWeekday``). Self-contained: no fonts, links or
/// scripts, so the files open anywhere and embed in the HTML report.
enum JournalPictures {
    static let cell = 22, gap = 3

    /// `hsl(hue, 60%, 55%)`: 1 → red (0°), 10 → green (120°).
    static func moodColor(_ mood: Double?) -> String {
        guard let mood else { return "#e6e6e6" }
        let hue = Int(((min(max(mood, 1), 10) - 1) / 9 * 120).rounded())
        return "hsl(\(hue), 60%, 55%)"
    }

    static func activityColor(_ entries: Int) -> String {
        switch entries {
        case 0: "#ebedf0"
        case 1: "#9be9a8"
        case 2: "#40c463"
        default: "#216e39"
        }
    }

    static func moodCalendar(_ days: [JournalReport.DaySummary], title: String, numbers: NumberText, firstWeekday: Int) -> String {
        guard let first = days.first, let last = days.last else { return svg(width: 1, height: 1, title: title, body: "") }
        let start = first.day.adding(days: -FirstWeekday.offset(of: first.day, first: firstWeekday))
        let rows = (last.day.ordinal - start.ordinal) / 7 + 1
        var body = ""
        for d in days {
            let row = (d.day.ordinal - start.ordinal) / 7, col = FirstWeekday.offset(of: d.day, first: firstWeekday)
            let x = col * (cell + gap), y = row * (cell + gap)
            let label = d.mood.map { "\(d.day): \(numbers.format($0))" } ?? "\(d.day)"
            body += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"3\" fill=\"\(moodColor(d.mood))\"><title>\(label)</title></rect>"
            body += "<text x=\"\(x + cell / 2)\" y=\"\(y + cell / 2 + 4)\" font-size=\"10\" text-anchor=\"middle\" fill=\"#222\">\(d.day.day)</text>"
        }
        return svg(width: 7 * (cell + gap), height: rows * (cell + gap), title: title, body: body)
    }

    static func heatmap(_ days: [JournalReport.DaySummary], title: String, firstWeekday: Int) -> String {
        guard let first = days.first, let last = days.last else { return svg(width: 1, height: 1, title: title, body: "") }
        let start = first.day.adding(days: -FirstWeekday.offset(of: first.day, first: firstWeekday))
        let columns = (last.day.ordinal - start.ordinal) / 7 + 1
        var body = ""
        for d in days {
            let x = ((d.day.ordinal - start.ordinal) / 7) * (cell + gap), y = FirstWeekday.offset(of: d.day, first: firstWeekday) * (cell + gap)
            body += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"3\" fill=\"\(activityColor(d.entries))\"><title>\(d.day): \(d.entries)</title></rect>"
        }
        return svg(width: columns * (cell + gap), height: 7 * (cell + gap), title: title, body: body)
    }

    static func svg(width: Int, height: Int, title: String, body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\">"
            + "<title>\(HTMLText.escape(title))</title>" + body + "</svg>"
    }
}

/// Escaping for text placed in HTML or SVG (the person's own words included).
enum HTMLText {
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}

import Foundation
import ReflectCore

/// The report's pictures in the terminal (`reflect insights --pictures`): a
/// month calendar tinted by mood and a 12-week activity heatmap. In colour
/// (256-colour backgrounds) unless `NO_COLOR` is set; without colour the
/// cells carry the values themselves (the mood 1–10, and ░ ▒ █ for 1, 2, 3+
/// entries), so nothing depends on colour alone.
struct TerminalPictures {
    /// One piece of a line: text, and the 256-colour background behind it.
    struct Cell {
        var text: String
        var background: UInt8?
    }

    let color: Bool
    /// The locale's first weekday (1 = Sunday, 2 = Monday; ``FirstWeekday``).
    var firstWeekday = 2

    /// Colour unless `NO_COLOR` is set to anything non-empty (no-color.org).
    static var colorWanted: Bool { (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty }

    /// 1 → red … 10 → green, on the 6×6×6 colour cube.
    static func moodColor(_ mood: Double) -> UInt8 {
        let palette: [UInt8] = [196, 202, 208, 214, 220, 226, 190, 154, 118, 46]
        return palette[min(max(Int(mood.rounded()) - 1, 0), 9)]
    }

    static func activityColor(_ entries: Int) -> UInt8 { [236, 22, 28, 34][min(entries, 3)] }

    /// Columns of one calendar day: three ("31 "), or the widest short
    /// weekday name and a space (日 takes two columns, "Dom" three).
    static func dayWidth(_ weekdays: [String]) -> Int {
        max(3, (weekdays.map { DisplayWidth.of($0) }.max() ?? 0) + 1)
    }

    /// The month of `month` (any day of it), weeks starting on the locale's
    /// first weekday; `weekdays` are the short weekday names (Sunday first,
    /// as `weekday.1…7.short`).
    func calendar(_ days: [JournalReport.DaySummary], month: CalendarDay, weekdays: [String]) -> [[Cell]] {
        let byDay = Dictionary(days.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        let order = FirstWeekday.order(from: firstWeekday)
        let width = Self.dayWidth(weekdays)
        var lines: [[Cell]] = [order.map { Cell(text: DisplayWidth.padded(weekdays[$0 - 1], to: width), background: nil) }]
        guard let first = CalendarDay(year: month.year, month: month.month, day: 1) else { return lines }
        var line: [Cell] = Array(repeating: Cell(text: String(repeating: " ", count: width), background: nil), count: FirstWeekday.offset(of: first, first: firstWeekday))
        var d = first
        while d.month == month.month {
            let mood = byDay[d]?.mood
            if color {
                line.append(Cell(text: DisplayWidth.padded(String(format: "%2d ", d.day), to: width), background: mood.map(Self.moodColor)))
            } else {
                let value = (mood.map { NumberScale.format($0.rounded()) } ?? "·").padding(3, left: true)
                line.append(Cell(text: DisplayWidth.padded(value, to: width), background: nil))
            }
            if line.count == 7 { lines.append(line); line = [] }
            d = d.adding(days: 1)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Rows from the locale's first weekday (labelled with the short
    /// weekday names, Sunday first as `weekday.1…7.short`), one column per
    /// calendar week (oldest first).
    func heatmap(_ days: [JournalReport.DaySummary], weekdays: [String]) -> [[Cell]] {
        guard let first = days.first, let last = days.last else { return [] }
        let start = first.day.adding(days: -FirstWeekday.offset(of: first.day, first: firstWeekday))
        let weeks = (last.day.ordinal - start.ordinal) / 7 + 1
        var grid = Array(repeating: Array(repeating: Cell(text: "  ", background: nil), count: weeks), count: 7)
        for d in days {
            let col = (d.day.ordinal - start.ordinal) / 7, row = FirstWeekday.offset(of: d.day, first: firstWeekday)
            guard col < weeks else { continue }
            grid[row][col] = color ? Cell(text: "  ", background: Self.activityColor(d.entries))
                                   : Cell(text: ["· ", "░░", "▒▒", "██"][min(d.entries, 3)], background: nil)
        }
        let order = FirstWeekday.order(from: firstWeekday)
        let width = Self.dayWidth(weekdays)
        return grid.enumerated().map { i, row in [Cell(text: DisplayWidth.padded(weekdays[order[i] - 1], to: width), background: nil)] + row }
    }

    /// Writes lines: text neutralised as always, colours as SGR sequences.
    static func write(_ lines: [[Cell]]) {
        for line in lines {
            for cell in line {
                if let bg = cell.background {
                    FileHandle.standardOutput.write(Data("\u{1B}[48;5;\(bg)m\u{1B}[38;5;16m".utf8))
                    Terminal.write(cell.text)
                    FileHandle.standardOutput.write(Data("\u{1B}[0m".utf8))
                } else {
                    Terminal.write(cell.text)
                }
            }
            Terminal.write("\n")
        }
    }
}

private extension String {
    /// Padded with spaces to `width` characters (on the right, or the left).
    func padding(_ width: Int, left: Bool = false) -> String {
        let pad = String(repeating: " ", count: max(0, width - count))
        return left ? pad + self : self + pad
    }
}

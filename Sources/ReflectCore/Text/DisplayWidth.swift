/// How many terminal columns text takes, and text wrapped to a width.
///
/// East Asian wide and full-width characters (CJK ideographs, kana, Hangul,
/// full-width forms, most emoji) take two columns; combining marks,
/// variation selectors, zero-width and format characters none; everything
/// else one. Used to align columns (`reflect flows`) and to wrap long lines
/// at the terminal's width.
public enum DisplayWidth {
    /// Columns a scalar takes.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(v) || v == 0x200B { return 0 }
        if isWide(v) { return 2 }
        return 1
    }

    /// Columns a string takes (a grapheme cluster counts once, as its widest scalar).
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// Columns a character takes.
    public static func of(_ character: Character) -> Int {
        character.unicodeScalars.map { of($0) }.max() ?? 0
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
             0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` padded with spaces to `width` columns (never cut).
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    /// Each line of `text` wrapped to at most `width` columns where it can
    /// be: at spaces, and between two wide characters (CJK has no spaces).
    /// A continuation keeps the line's leading indentation. A word longer
    /// than the width stays whole on its own line. Nothing is dropped but
    /// the spaces a break replaces.
    public static func wrapped(_ text: String, width: Int) -> String {
        guard width > 10 else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { wrapLine(String($0), width: width) }
            .joined(separator: "\n")
    }

    private static func wrapLine(_ line: String, width: Int) -> String {
        guard of(line) > width else { return line }
        let indent = String(line.prefix { $0 == " " })
        let indentWidth = indent.count
        // Tokens: runs of narrow non-space characters, single wide
        // characters, and runs of spaces.
        var tokens: [String] = []
        var current = ""
        func flush() { if !current.isEmpty { tokens.append(current); current = "" } }
        for ch in line.dropFirst(indent.count) {
            if ch == " " {
                if current.last != " " { flush() }
                current.append(ch)
            } else if of(ch) == 2 {
                flush()
                tokens.append(String(ch))
            } else {
                if current.last == " " { flush() }
                current.append(ch)
            }
        }
        flush()
        var lines: [String] = []
        var row = indent, rowWidth = indentWidth
        for token in tokens {
            let w = of(token)
            if token.first == " " {
                if rowWidth + w <= width { row += token; rowWidth += w } else { lines.append(row); row = indent; rowWidth = indentWidth }
                continue
            }
            if rowWidth + w > width, rowWidth > indentWidth {
                // Break here; the spaces before the break go.
                while row.last == " " { row.removeLast() }
                lines.append(row)
                row = indent
                rowWidth = indentWidth
            }
            row += token
            rowWidth += w
        }
        lines.append(row)
        return lines.joined(separator: "\n")
    }
}

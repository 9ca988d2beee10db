import Foundation

/// Line endings of text files people edit on any system (a locale file, a
/// PO file, checked out with Git's `autocrlf` on Windows): tools read
/// lines after ``normalized(_:)`` and write a file back with the endings
/// it had (``restoring(_:like:)``).
///
/// Swift compares `Character`s: "\r\n" is one character, not "\r" then
/// "\n", so splitting CRLF text at "\n" finds no line at all.
public enum LineEndings {
    /// `text` with every CRLF as LF, and a leading byte-order mark removed.
    public static func normalized(_ text: String) -> String {
        var out = text
        if out.hasPrefix("\u{FEFF}") { out.removeFirst() }
        guard out.unicodeScalars.contains("\r") else { return out }
        return out.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// Whether `text` ends its lines with CRLF (its first line break is one).
    public static func usesCRLF(_ text: String) -> Bool {
        guard let i = text.unicodeScalars.firstIndex(of: "\n") else { return false }
        return i > text.unicodeScalars.startIndex && text.unicodeScalars[text.unicodeScalars.index(before: i)] == "\r"
    }

    /// `text` (LF endings) with the endings of `original`: CRLF when it used them.
    public static func restoring(_ text: String, like original: String) -> String {
        usesCRLF(original) ? normalized(text).replacingOccurrences(of: "\n", with: "\r\n") : text
    }
}

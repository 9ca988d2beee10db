import Foundation
import Testing
@testable import ReflectCore

@Suite("TerminalText: control characters never reach a terminal")
struct TerminalTextTests {
    @Test("text: C0 controls become control pictures; line feed and tab stay", arguments: [
        ("\u{1B}]0;title\u{07}", "␛]0;title␇"),
        ("clear\u{1B}[2J\u{1B}[H", "clear␛[2J␛[H"),
        ("over\rwrite", "over␍write"),
        ("a\nb\tc", "a\nb\tc"),
        ("nul\u{00}del\u{7F}", "nul␀del␡"),
    ])
    func c0(input: String, shown: String) {
        #expect(TerminalText.neutralized(input) == shown)
    }

    @Test("text: C1 controls and bidi overrides become U+FFFD; ordinary text is untouched", arguments: [
        ("\u{9B}31m", "\u{FFFD}31m"),
        ("\u{9D}52;c;x\u{9C}", "\u{FFFD}52;c;x\u{FFFD}"),
        ("abc\u{202E}fed", "abc\u{FFFD}fed"),
        ("\u{2066}x\u{2069}", "\u{FFFD}x\u{FFFD}"),
        ("Grüße, 日本語, 😀 e\u{301}", "Grüße, 日本語, 😀 e\u{301}"),
    ])
    func c1AndBidi(input: String, shown: String) {
        #expect(TerminalText.neutralized(input) == shown)
    }

    @Test("json: DEL, C1, bidi controls and line separators are escaped; the value decodes unchanged")
    func json() throws {
        let value = "a\u{1B}b\u{7F}c\u{9B}d\u{202E}e\u{2028}f"
        let encoded = String(decoding: try JSONEncoder().encode([value]), as: UTF8.self)
        let line = TerminalText.escapedJSONLine(encoded)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E || $0.value == 0x2028 })
        #expect(line.contains(#"\u007f"#) && line.contains(#"\u009b"#) && line.contains(#"\u202e"#) && line.contains(#"\u2028"#))
        #expect(try JSONDecoder().decode([String].self, from: Data(line.utf8)) == [value])
    }
}

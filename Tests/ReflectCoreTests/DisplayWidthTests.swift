import Testing
@testable import ReflectCore

/// Issue 18, item 8: columns as a terminal shows them, and wrapping.
@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test("CJK and full-width characters take two columns, combining marks none")
    func widths() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("かんたんチェックイン") == 20)
        #expect(DisplayWidth.of("간단 체크인") == 11)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.padded("日本", to: 6) == "日本  ")
    }

    @Test("long lines wrap at spaces (and between CJK characters), keep their indentation, lose no word")
    func wrapping() {
        let text = "   Would you like to pause here? Everything you wrote is saved, and you can come back whenever you're ready."
        let wrapped = DisplayWidth.wrapped(text, width: 40)
        let lines = wrapped.split(separator: "\n").map(String.init)
        #expect(lines.count > 2)
        for line in lines {
            #expect(DisplayWidth.of(line) <= 40, "\(line)")
            #expect(line.hasPrefix("   ") && !line.hasSuffix(" "), "\(line)")
        }
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == text.trimmingCharacters(in: .whitespaces))
        let ja = String(repeating: "書いたことはすべて保存されています。", count: 4)
        for line in DisplayWidth.wrapped(ja, width: 30).split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= 30) }
        #expect(DisplayWidth.wrapped(ja, width: 30).replacingOccurrences(of: "\n", with: "") == ja)
        let long = String(repeating: "x", count: 50)
        #expect(DisplayWidth.wrapped("a " + long + " b", width: 20) == "a\n" + long + "\nb")
        #expect(DisplayWidth.wrapped("short", width: 20) == "short")
    }
}

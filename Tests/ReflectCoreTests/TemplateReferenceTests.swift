import Testing
@testable import ReflectCore

/// ``Template``'s one-pass byte parser (with its no-placeholder fast path)
/// agrees with a plain reading of the syntax by Unicode scalars on random
/// texts built from the syntax's own pieces, multi-byte characters included.
@Suite("Template reference")
struct TemplateReferenceTests {
    /// The syntax as documented: `%@` the next argument, `%N$@` / `%NN$@`
    /// argument N (1…99), `%%` one percent sign, any other `%` literal.
    static func reference(_ source: String) -> [Template.Piece] {
        let s = Array(source.unicodeScalars)
        var pieces: [Template.Piece] = []
        var literal = ""
        var next = 1
        func flush() {
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
        }
        func digit(_ k: Int) -> Int? {
            guard k < s.count, s[k].value >= 48, s[k].value <= 57 else { return nil }
            return Int(s[k].value) - 48
        }
        var i = 0
        while i < s.count {
            if s[i] == "%", i + 1 < s.count {
                if s[i + 1] == "@" { flush(); pieces.append(.argument(next)); next += 1; i += 2; continue }
                if s[i + 1] == "%" { literal.unicodeScalars.append("%"); i += 2; continue }
                if let d1 = digit(i + 1) {
                    var n = d1, k = i + 2
                    if let d2 = digit(k) { n = n * 10 + d2; k += 1 }
                    if n >= 1, k + 1 < s.count, s[k] == "$", s[k + 1] == "@" {
                        flush(); pieces.append(.argument(n)); i = k + 2; continue
                    }
                }
            }
            literal.unicodeScalars.append(s[i])
            i += 1
        }
        flush()
        return pieces
    }

    @Test("pieces and rendering agree with the reference on random texts")
    func agreesWithReference() {
        let parts = ["%", "@", "$", "%@", "%%", "%1$@", "%2$@", "%12$@", "%0$@", "%1$", "%1", "0", "7", "a", "b c", "é", "“", "✓", "😀", " ", "%%@", "%@%"]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for n in 0..<5000 {
            var text = ""
            for _ in 0..<(n % 11) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                text += parts[Int(x % UInt64(parts.count))]
            }
            let t = Template(text)
            #expect(t.pieces == TemplateReferenceTests.reference(text), "\(text)")
            let args = ["A", "", "ü", "x y"]
            let want = t.pieces.map { p -> String in
                switch p {
                case .text(let s): s
                case .argument(let k): k <= args.count ? args[k - 1] : ""
                }
            }.joined()
            #expect(t.render(args) == want, "\(text)")
            #expect(t.renderedUTF8Count(args) == want.utf8.count)
        }
    }
}

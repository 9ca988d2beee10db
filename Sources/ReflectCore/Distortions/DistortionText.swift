/// A thought prepared for rule matching: ``TextNormalizer`` bytes in which
/// sentence punctuation and quotation marks survive.
///
/// Normalisation turns non-ASCII punctuation into spaces; before that, this
/// maps the ideographic full stop and comma (。、) to `.` and `,`, and
/// opening and closing quotation marks (“ ” „ « » 「 」 『 』 ‹ ›) to the
/// control bytes ``open`` and ``close`` (German „…“ closes on “). The ASCII
/// `"` is kept and pairs with the next `"`.
struct DistortionText {
    static let open: UInt8 = 0x02
    static let close: UInt8 = 0x03

    /// Normalised bytes of `text` (see the type's description).
    static func bytes(_ text: String) -> [UInt8] {
        var scalars = String.UnicodeScalarView()
        var inLowQuote = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3002, 0xFF61: scalars.append(".")
            case 0x3001, 0xFF64: scalars.append(",")
            case 0x201E: // „
                inLowQuote = true
                scalars.append(Unicode.Scalar(open))
            case 0x201C: // “ opens, except that it closes „
                scalars.append(Unicode.Scalar(inLowQuote ? close : open))
                inLowQuote = false
            case 0x00AB, 0x300C, 0x300E, 0x2039, 0xFE41, 0xFE43:
                scalars.append(Unicode.Scalar(open))
            case 0x201D, 0x00BB, 0x300D, 0x300F, 0x203A, 0xFE42, 0xFE44:
                scalars.append(Unicode.Scalar(close))
            default:
                scalars.append(scalar)
            }
        }
        return TextNormalizer.bytes(String(scalars))
    }

    /// Ends a sentence: a rule's `...` does not reach past it.
    @inline(__always)
    static func endsSentence(_ b: UInt8) -> Bool {
        b == UInt8(ascii: ".") || b == UInt8(ascii: "!") || b == UInt8(ascii: "?") || b == UInt8(ascii: ";") || b == 10
    }

    /// Ends a clause: negation does not reach past it.
    @inline(__always)
    static func endsClause(_ b: UInt8) -> Bool {
        endsSentence(b) || b == UInt8(ascii: ",") || b == UInt8(ascii: ":") || b == UInt8(ascii: "\"")
            || b == open || b == close || b == UInt8(ascii: "(") || b == UInt8(ascii: ")")
    }

    /// Quoted spans (opening mark ..< closing mark) in prepared bytes, in
    /// order. An unclosed mark opens nothing; nested marks of one kind
    /// count as one span.
    static func quotes(_ t: UnsafeBufferPointer<UInt8>) -> [(open: Int, close: Int)] {
        var out: [(open: Int, close: Int)] = []
        var straight = -1
        var curly = -1, depth = 0
        for i in 0..<t.count {
            switch t[i] {
            case UInt8(ascii: "\""):
                if straight < 0 { straight = i } else { out.append((straight, i)); straight = -1 }
            case open:
                if depth == 0 { curly = i }
                depth += 1
            case close where depth > 0:
                depth -= 1
                if depth == 0 { out.append((curly, i)) }
            default: break
            }
        }
        return out.sorted { $0.open < $1.open }
    }
}

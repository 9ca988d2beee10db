import Foundation

/// How text is prepared before it is matched against word lists (distortion
/// keywords, vague phrases, crisis language): one function, so that a list
/// and the text it is matched against are always normalised the same way.
///
/// - ASCII text is only lowercased. This keeps the C anchors' rule: a word
///   byte is `[a-z0-9_]`.
/// - Other text is NFKC-normalised (full-width = half-width), case-folded
///   (`ß` = `ss`), stripped of accents (`é` = `e`), apostrophe variants
///   (’ ‘ ʼ ´ ′ ＇) become `'`, œ and æ become oe and ae, and non-ASCII
///   punctuation and spaces become a
///   space. After this, every byte ≥ 0x80 belongs to a letter, a digit or a
///   mark, so a word boundary is any byte outside `[a-z0-9_]` and < 0x80.
public enum TextNormalizer {
    /// The normalised UTF-8 bytes of `text`.
    public static func bytes(_ text: String) -> [UInt8] {
        var s = text
        return s.withUTF8 { raw in
            if !raw.contains(where: { $0 >= 0x80 }) {
                return raw.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }
            }
            return Array(unicodeFold(text).utf8)
        }
    }

    /// The normalised text (for tests, lists and messages).
    public static func string(_ text: String) -> String {
        String(decoding: bytes(text), as: UTF8.self)
    }

    static func unicodeFold(_ text: String) -> String {
        // Canonical composition after the compatibility mapping: on Linux the
        // latter leaves half-width ﾃﾞ as テ + U+3099 instead of デ.
        // Apostrophe variants first: NFKC would turn ´ into a space and an accent.
        var unified = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2019, 0x2018, 0x02BC, 0x00B4, 0x2032, 0xFF07: unified.append("'")
            default: unified.append(scalar)
            }
        }
        let folded = String(unified).precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var out = String.UnicodeScalarView()
        out.reserveCapacity(folded.unicodeScalars.count)
        for scalar in folded.unicodeScalars {
            switch scalar.value {
            case 0x0153: // œ: not a diacritic, a ligature
                out.append("o"); out.append("e")
            case 0x00E6: // æ
                out.append("a"); out.append("e")
            case 0..<0x80:
                out.append(scalar)
            default:
                let p = scalar.properties
                if p.isAlphabetic || p.numericType != nil || p.generalCategory == .nonspacingMark
                    || p.generalCategory == .spacingMark {
                    out.append(scalar)
                } else {
                    out.append(" ")
                }
            }
        }
        return String(out)
    }

    /// ASCII word bytes; after normalisation every byte ≥ 0x80 is a word byte too.
    @inline(__always)
    static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 95 || b >= 0x80
    }
}

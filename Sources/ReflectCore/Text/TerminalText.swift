/// Makes text safe to write to a terminal or to a JSON line.
///
/// Flow text (titles, prompts, `print`, error messages, even answers read
/// back) is content anyone can edit; written raw, an ESC or OSC sequence in
/// it could clear the screen, retitle the window or write the clipboard.
/// Hosts pass *everything* they write through here at the output layer,
/// never field by field.
///
/// - ``neutralized(_:)`` (text for people): line feed and tab are kept;
///   every other C0 control and DEL becomes its visible Control Pictures
///   symbol (ESC → `␛`, CR → `␍`, DEL → `␡`); C1 controls (U+0080–U+009F,
///   which some terminals obey as CSI/OSC) and the bidi embedding, override
///   and isolate controls (U+202A–U+202E, U+2066–U+2069, which can reorder
///   what a line appears to say) become `�`. Everything else is unchanged.
/// - ``escapedJSONLine(_:)`` (machine output): a JSON text already encoded
///   (C0 controls are escaped by the encoder) with DEL, C1, the bidi
///   controls and U+2028/U+2029 additionally written as `\uXXXX`. Outside
///   strings JSON is ASCII, so this keeps the line valid and equal in value.
public enum TerminalText {
    /// What a control-ish scalar becomes in text mode, or nil to keep it.
    @inline(__always)
    static func replacement(_ v: UInt32) -> Unicode.Scalar? {
        switch v {
        case 0x0A, 0x09: return nil
        case 0x00..<0x20: return Unicode.Scalar(0x2400 + v)  // ␀ … ␟
        case 0x7F: return "\u{2421}"  // ␡
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return "\u{FFFD}"
        default: return nil
        }
    }

    /// Whether the scalar needs escaping in a JSON line beyond what JSON requires.
    @inline(__always)
    static func needsJSONEscape(_ v: UInt32) -> Bool {
        v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x2028 || v == 0x2029
    }

    /// Text for a terminal: see the type's documentation. Linear; returns
    /// the input unchanged (no copy) when nothing needs neutralising.
    public static func neutralized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { replacement($0.value) != nil }) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars { out.append(replacement(s.value) ?? s) }
        return String(out)
    }

    /// A JSON line safe for terminals: see the type's documentation.
    public static func escapedJSONLine(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { needsJSONEscape($0.value) }) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 16)
        for s in json.unicodeScalars {
            if needsJSONEscape(s.value) {
                let hex = String(s.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(s)
            }
        }
        return out
    }
}

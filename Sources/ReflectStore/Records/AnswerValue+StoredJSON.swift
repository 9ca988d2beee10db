import Foundation
import ReflectCore

// An answer's stored JSON, written directly for the values every session
// writes (text, whole numbers, yes/no): the same bytes JSONEncoder writes
// (sorted keys), without its per-call machinery, on the durable write's
// path. Other values go through JSONEncoder. `StoredJSONTests` hold the two
// to the same bytes over many random values.
extension AnswerValue {
    /// The stored JSON text (`AnswerValue`'s coding, keys sorted).
    var storedJSON: String? {
        switch self {
        case .text(let s): return AnswerValue.jsonString(s)
        case .integer(let i): return String(i)
        case .boolean(let b): return b ? "true" : "false"
        default: return encodedJSON
        }
    }

    /// Through JSONEncoder: the general path.
    var encodedJSON: String? {
        guard let data = try? AnswerValue.encoder.encode(self) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// One encoder for every write (JSONEncoder is safe to share once configured).
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return e
    }()

    /// `s` as a JSON string, escaped as JSONEncoder escapes it: `"` and `\`,
    /// `/` as `\/`, the short forms of backspace, form feed, newline,
    /// carriage return and tab, other control characters as `\u00xx`.
    static func jsonString(_ s: String) -> String {
        let utf8 = s.utf8
        // Over the contiguous bytes (a native string's): a tight loop, not
        // the view's index-checked iteration (about ten times the cost).
        let needsEscape: (UInt8) -> Bool = { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x2F }
        let plain = utf8.withContiguousStorageIfAvailable { !$0.contains(where: needsEscape) } ?? !utf8.contains(where: needsEscape)
        if plain {
            var out = String()
            out.reserveCapacity(utf8.count + 2)
            out.append("\"")
            out.append(s)
            out.append("\"")
            return out
        }
        var out: [UInt8] = [0x22]
        out.reserveCapacity(utf8.count + 16)
        let hex = Array("0123456789abcdef".utf8)
        for b in utf8 {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x2F: out += [0x5C, 0x2F]
            case 0x08: out += [0x5C, 0x62]
            case 0x0C: out += [0x5C, 0x66]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case 0..<0x20: out += [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            default: out.append(b)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }
}

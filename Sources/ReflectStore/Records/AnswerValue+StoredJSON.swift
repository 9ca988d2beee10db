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
    /// carriage return and tab, other control characters as `\u00xx`
    /// (``writeJSONString(_:to:)``, which the answer's write also uses to
    /// write it straight into its bound values).
    static func jsonString(_ s: String) -> String {
        var s = s
        return s.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count * 6 + 2) { out in
                guard let start = out.baseAddress else { return 0 }
                return writeJSONString(bytes, to: start)
            }
        }
    }
}

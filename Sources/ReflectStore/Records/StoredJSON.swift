import Foundation

/// The JSON text of values the store keeps in JSON columns (an answer's
/// options as shown, a session's experiment arms and recalled entries):
/// one encoder, configured once and shared by every write instead of a new
/// encoder per value. Keys are sorted, as in an answer's own JSON
/// (``AnswerValue/storedJSON``): JSONEncoder's default order on Linux is a
/// dictionary's, which differs from one encoding to the next, so the same
/// options were stored as different text (`DirectStatementTests` found it);
/// readers decode either.
public enum StoredJSON {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return e
    }()

    /// `value` as JSON text; nil when it cannot be encoded.
    public static func text<T: Encodable>(_ value: T) -> String? {
        guard let data = try? encoder.encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation

/// The JSON text of values the store keeps in JSON columns (an answer's
/// options as shown, a session's experiment arms and recalled entries):
/// one encoder, configured once (JSONEncoder's defaults, the bytes every
/// earlier version wrote), shared by every write instead of a new encoder
/// per value. Answers themselves use ``AnswerValue/storedJSON`` (sorted keys).
public enum StoredJSON {
    static let encoder = JSONEncoder()

    /// `value` as JSON text; nil when it cannot be encoded.
    public static func text<T: Encodable>(_ value: T) -> String? {
        guard let data = try? encoder.encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A step's stable identifier inside a flow (`situation`, `pre`, `q3.labeling`).
///
/// Answers are stored against step ids, never positions, so a session saved
/// before an author edits a flow can be replayed onto the new version.
/// Legal: 1–64 characters (``SessionLimits/maxStepIDBytes``), a lowercase letter first, then lowercase letters,
/// digits, `_`, `-` or `.`.
public struct StepID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init?(_ raw: String) {
        guard StepID.isValid(raw) else { return nil }
        rawValue = raw
    }

    /// For literals in code and tests; an invalid literal is a programmer error.
    public init(stringLiteral value: String) {
        precondition(StepID.isValid(value), "invalid step id literal '\(value)'")
        rawValue = value
    }

    public static func isValid(_ raw: String) -> Bool {
        var raw = raw
        return raw.withUTF8 { bytes in
            guard (1...SessionLimits.maxStepIDBytes).contains(bytes.count), bytes[0] >= UInt8(ascii: "a"), bytes[0] <= UInt8(ascii: "z")
            else { return false }
            // Bits of the legal bytes: `-` `.` `0`...`9` below 64, `_` `a`...`z` from 64 to 127.
            let low: UInt64 = (1 << 45) | (1 << 46) | (0x3FF << 48)
            let high: UInt64 = (1 << (95 - 64)) | (0x3FF_FFFF << (97 - 64))
            for b in bytes {
                if b < 64 {
                    guard low >> b & 1 == 1 else { return false }
                } else {
                    guard b < 128, high >> (b - 64) & 1 == 1 else { return false }
                }
            }
            return true
        }
    }

    public var description: String { rawValue }

    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let id = StepID(raw) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(raw.prefix(80))' is not a valid step id"))
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}

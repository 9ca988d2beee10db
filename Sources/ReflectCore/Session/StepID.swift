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
        let bytes = raw.utf8
        guard (1...SessionLimits.maxStepIDBytes).contains(bytes.count), let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return false }
        return bytes.allSatisfy { b in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
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

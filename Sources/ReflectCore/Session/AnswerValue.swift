/// A validated answer, as stored in a session's answer log.
public enum AnswerValue: Hashable, Sendable {
    case text(String)
    case integer(Int)
    case boolean(Bool)
    /// The acknowledgement of a message step.
    case acknowledged
}

extension AnswerValue: Codable {
    private enum CodingKeys: String, CodingKey { case ack }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            self = .boolean(b)
        } else if let i = try? c.decode(Int.self) {
            self = .integer(i)
        } else if let s = try? c.decode(String.self) {
            self = .text(s)
        } else if let o = try? decoder.container(keyedBy: CodingKeys.self), (try? o.decode(Bool.self, forKey: .ack)) == true {
            self = .acknowledged
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "an answer must be text, an integer, a boolean or {\"ack\": true}"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .text(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .integer(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .boolean(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .acknowledged:
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(true, forKey: .ack)
        }
    }
}

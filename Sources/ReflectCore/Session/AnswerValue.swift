/// A validated answer, as stored in a session's answer log.
///
/// JSON: text is a string, intensity an integer, a number answer an integer
/// when whole and a decimal otherwise, yes/no a boolean,
/// `{"choice": "id"}`, `{"choices": ["a", "b"]}`,
/// `{"checklist": {"item": "done" | "partly" | "skip"}}`, `{"ack": true}` for
/// a message or action, `{"skipped": true}` for a skipped optional step.
public enum AnswerValue: Hashable, Sendable {
    case text(String)
    case integer(Int)
    /// A number answer that is not whole (7.25); whole ones are ``integer``.
    case number(Double)
    case boolean(Bool)
    case choice(String)
    case choices([String])
    case checklist([String: ChecklistMark])
    /// A message read, or an action done.
    case acknowledged
    /// An optional step the person skipped.
    case skipped
}

extension AnswerValue: Codable {
    private enum Keys: String, CodingKey { case ack, choice, choices, checklist, skipped }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            self = .boolean(b)
            return
        }
        if let i = try? c.decode(Int.self) {
            self = .integer(i)
            return
        }
        if let d = try? c.decode(Double.self), d.isFinite {
            self = d == d.rounded() && abs(d) < 1e15 ? .integer(Int(d)) : .number(d)
            return
        }
        if let s = try? c.decode(String.self) {
            self = .text(s)
            return
        }
        let bad = DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
            "an answer must be text, a number, a boolean, {\"choice\"}, {\"choices\"}, {\"checklist\"}, {\"ack\": true} or {\"skipped\": true}"))
        guard let o = try? decoder.container(keyedBy: Keys.self), o.allKeys.count == 1, let key = o.allKeys.first else { throw bad }
        switch key {
        case .ack:
            guard try o.decode(Bool.self, forKey: .ack) else { throw bad }
            self = .acknowledged
        case .skipped:
            guard try o.decode(Bool.self, forKey: .skipped) else { throw bad }
            self = .skipped
        case .choice: self = .choice(try o.decode(String.self, forKey: .choice))
        case .choices: self = .choices(try o.decode([String].self, forKey: .choices))
        case .checklist: self = .checklist(try o.decode([String: ChecklistMark].self, forKey: .checklist))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var single = encoder.singleValueContainer()
        var keyed: KeyedEncodingContainer<Keys> { encoder.container(keyedBy: Keys.self) }
        switch self {
        case .text(let s): try single.encode(s)
        case .integer(let i): try single.encode(i)
        case .number(let d): try single.encode(d)
        case .boolean(let b): try single.encode(b)
        case .choice(let id):
            var k = keyed
            try k.encode(id, forKey: .choice)
        case .choices(let ids):
            var k = keyed
            try k.encode(ids, forKey: .choices)
        case .checklist(let marks):
            var k = keyed
            try k.encode(marks, forKey: .checklist)
        case .acknowledged:
            var k = keyed
            try k.encode(true, forKey: .ack)
        case .skipped:
            var k = keyed
            try k.encode(true, forKey: .skipped)
        }
    }
}

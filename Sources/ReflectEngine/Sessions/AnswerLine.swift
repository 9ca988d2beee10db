import Foundation
import ReflectCore

/// One line of the machine interface's answer stream, decoded (the same
/// form transcript tests use for `answer:`; docs/events.md lists them).
///
/// A JSON string is text, a number an intensity, a boolean yes/no,
/// `{"choose": "id"}` a single choice (an option id or its 1-based number),
/// `{"choose": ["a", "b"]}` a multiple choice, `{"checklist": {"item":
/// "done" | "partly" | "skip"}}` a checklist, `{"done": true}` or
/// `{"ack": true}` acknowledges, `{"command": "quit"}` is a command. An
/// object has exactly one of these keys. Anything else is refused with the
/// reason; nothing is guessed.
public enum AnswerLine {
    /// The forms a line may take, for error messages.
    public static let forms = "a string, a number, true/false, {\"choose\": \"id\"}, {\"choose\": [\"a\", \"b\"]}, "
        + "{\"checklist\": {\"item\": \"done\"}}, {\"done\": true} or {\"command\": \"quit\"}"

    public static func parse(_ line: String) throws(AnswerLineError) -> AnswerInput {
        let json: JSONValue
        do { json = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) } catch {
            throw AnswerLineError(reason: "not a JSON answer (\(forms))")
        }
        return try input(json)
    }

    /// A JSON value, as decoded (no `Any`).
    private indirect enum JSONValue: Decodable {
        case boolean(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue]), null

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .boolean(b) }
            else if let d = try? c.decode(Double.self) { self = .number(d) }
            else if let s = try? c.decode(String.self) { self = .string(s) }
            else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
            else { self = .object(try c.decode([String: JSONValue].self)) }
        }
    }

    private static func input(_ json: JSONValue) throws(AnswerLineError) -> AnswerInput {
        switch json {
        case .boolean(let b): return .boolean(b)
        case .number(let d): return .number(d)
        case .string(let s): return .text(s)
        case .null, .array: throw AnswerLineError(reason: "not an answer (\(forms))")
        case .object(let object):
            guard object.count == 1, let (key, value) = object.first else {
                let keys = object.keys.sorted().joined(separator: ", ")
                throw AnswerLineError(reason: object.isEmpty ? "an empty object is not an answer (\(forms))"
                                      : "an answer object has one key; this one has \(object.count) (\(keys))")
            }
            return try input(key: key, value)
        }
    }

    private static func input(key: String, _ value: JSONValue) throws(AnswerLineError) -> AnswerInput {
        switch key {
        case "command":
            guard case .string(let name) = value else {
                throw AnswerLineError(reason: "\"command\" takes a command name, such as \"quit\"")
            }
            guard let command = SessionCommand(rawValue: name) else {
                throw AnswerLineError(reason: "unknown command '\(name)' (known: \(SessionCommand.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .command(command)
        case "done", "ack":
            guard case .boolean(true) = value else {
                throw AnswerLineError(reason: "{\"\(key)\": true} acknowledges; nothing else is allowed there")
            }
            return .acknowledge
        case "choose":
            if case .array(let list) = value {
                var ids: [String] = []
                for item in list { ids.append(try optionID(item)) }
                return .chooseMany(ids)
            }
            return .choose(try optionID(value))
        case "checklist":
            guard case .object(let marks) = value else {
                throw AnswerLineError(reason: "\"checklist\" takes an object of item id to mark, such as {\"water\": \"done\"}")
            }
            var answer: [String: String] = [:]
            for (item, mark) in marks {
                guard case .string(let m) = mark else {
                    throw AnswerLineError(reason: "checklist item '\(item)': a mark is \"done\", \"partly\" or \"skip\"")
                }
                answer[item] = m
            }
            return .checklist(answer)
        default:
            throw AnswerLineError(reason: "unknown answer object key '\(key)' (\(forms))")
        }
    }

    /// An option id, or its 1-based number (as a number or text).
    private static func optionID(_ value: JSONValue) throws(AnswerLineError) -> String {
        switch value {
        case .string(let s): return s
        case .number(let d) where d.isFinite && d == d.rounded() && abs(d) < 1e9: return String(Int(d))
        default: throw AnswerLineError(reason: "\"choose\" takes an option id (or its number), or a list of them")
        }
    }
}

public struct AnswerLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

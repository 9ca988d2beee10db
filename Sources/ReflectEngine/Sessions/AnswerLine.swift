import Foundation
import ReflectCore

/// One line of the machine interface's answer stream, decoded.
///
/// A JSON string is text, a number an intensity, a boolean yes/no,
/// `{"done": true}` or `{"ack": true}` acknowledges, `{"command": "quit"}`
/// is a command. Anything else is refused with the reason.
public enum AnswerLine {
    public static func parse(_ line: String) throws(AnswerLineError) -> AnswerInput {
        guard let data = line.data(using: .utf8) else { throw AnswerLineError(reason: "not UTF-8") }
        do {
            return try JSONDecoder().decode(Wire.self, from: data).input
        } catch let e as AnswerLineError {
            throw e
        } catch {
            throw AnswerLineError(reason: "not a JSON answer (a string, a number, a boolean, {\"done\": true} or {\"command\": \"quit\"})")
        }
    }

    private struct Wire: Decodable {
        let input: AnswerInput

        private enum Keys: String, CodingKey { case command, done, ack }

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) {
                input = .boolean(b)
            } else if let d = try? c.decode(Double.self) {
                input = .number(d)
            } else if let s = try? c.decode(String.self) {
                input = .text(s)
            } else {
                let o = try decoder.container(keyedBy: Keys.self)
                if let name = try o.decodeIfPresent(String.self, forKey: .command) {
                    guard let command = SessionCommand(rawValue: name) else {
                        throw AnswerLineError(reason: "unknown command '\(name)' (known: \(SessionCommand.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    input = .command(command)
                } else if try o.decodeIfPresent(Bool.self, forKey: .done) == true || o.decodeIfPresent(Bool.self, forKey: .ack) == true {
                    input = .acknowledge
                } else {
                    throw AnswerLineError(reason: "unknown answer object")
                }
            }
        }
    }
}

public struct AnswerLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

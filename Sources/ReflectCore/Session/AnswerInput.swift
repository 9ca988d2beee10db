import Foundation

/// What a person (or a test, or an app) submits for the current prompt,
/// before validation: the machine interface's answer line, decoded.
public enum AnswerInput: Sendable, Equatable {
    case text(String)
    case number(Double)
    case boolean(Bool)
    /// `{"done": true}` / `{"ack": true}`: acknowledges a message or action.
    case acknowledge
    case command(SessionCommand)
}

/// Session-level commands a person can give at any prompt.
public enum SessionCommand: String, Sendable, Equatable, CaseIterable {
    /// Leave now; the session stays resumable.
    case quit
}

/// Why an answer was not taken. The same prompt stands.
public struct InvalidAnswer: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension PromptKind {
    /// The range an intensity answer must fall in.
    public static let intensityRange = 0...10

    /// Validates an answer for this kind of prompt.
    ///
    /// Text accepts any string up to ``SessionSave/maxTextBytes``; intensity
    /// a whole number 0–10 (a numeric string such as "7" counts, "abc",
    /// 11 or 7.5 do not); yes/no a boolean or yes/no words; a message only an
    /// acknowledgement (or any text, for terminals where Enter is the answer).
    public func validate(_ input: AnswerInput) -> Result<AnswerValue, InvalidAnswer> {
        switch (self, input) {
        case (_, .command):
            return .failure(InvalidAnswer("a command is not an answer"))
        case (.text, .text(let s)):
            guard s.utf8.count <= SessionSave.maxTextBytes else {
                return .failure(InvalidAnswer("That is longer than \(SessionSave.maxTextBytes) bytes; please shorten it."))
            }
            return .success(.text(s))
        case (.text, _):
            return .failure(InvalidAnswer("Please answer in words."))
        case (.intensity, .number(let d)):
            return PromptKind.intensity(d)
        case (.intensity, .text(let s)):
            guard let d = Double(s.trimmingCharacters(in: .whitespaces)) else {
                return .failure(InvalidAnswer("Please enter a whole number from 0 to 10."))
            }
            return PromptKind.intensity(d)
        case (.intensity, _):
            return .failure(InvalidAnswer("Please enter a whole number from 0 to 10."))
        case (.yesNo, .boolean(let b)):
            return .success(.boolean(b))
        case (.yesNo, .text(let s)):
            switch s.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes", "true": return .success(.boolean(true))
            case "n", "no", "false": return .success(.boolean(false))
            default: return .failure(InvalidAnswer("Please answer yes or no."))
            }
        case (.yesNo, _):
            return .failure(InvalidAnswer("Please answer yes or no."))
        case (.message, .acknowledge), (.message, .text):
            return .success(.acknowledged)
        case (.message, _):
            return .failure(InvalidAnswer("Press Enter to continue."))
        }
    }

    /// Whether a stored answer fits this kind (used when replaying a save).
    public func accepts(_ value: AnswerValue) -> Bool {
        switch (self, value) {
        case (.text, .text), (.yesNo, .boolean), (.message, .acknowledged): return true
        case (.intensity, .integer(let i)): return PromptKind.intensityRange.contains(i)
        default: return false
        }
    }

    private static func intensity(_ d: Double) -> Result<AnswerValue, InvalidAnswer> {
        guard d.isFinite, d == d.rounded(), d >= Double(intensityRange.lowerBound), d <= Double(intensityRange.upperBound)
        else { return .failure(InvalidAnswer("Please enter a whole number from 0 to 10.")) }
        return .success(.integer(Int(d)))
    }
}

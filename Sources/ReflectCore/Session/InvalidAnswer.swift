import Foundation

/// Why an answer was not taken; the same prompt stands. `code` is stable
/// (it keys the localised message `invalid.<code>`).
public struct InvalidAnswer: Error, Sendable, Equatable {
    public var code: String
    /// The validator's own description, for hosts that run without locale
    /// files. A session with a loaded language shows the locale's
    /// `invalid.<code>` instead (the engine's `EngineString`).
    public var message: String
    /// Values for the localised message's `%1$@`, `%2$@` … (a number's
    /// range and step), in order. Numbers are in machine form (`0.25`); the
    /// engine writes them in the person's language (``NumberText``).
    public var arguments: [String]
    public init(_ code: String, _ message: String, arguments: [String] = []) {
        self.code = code
        self.message = message
        self.arguments = arguments
    }

    /// `keep` where no earlier answer is offered.
    public static let noDraft = InvalidAnswer("no_draft", "There is no earlier answer to keep here.")
    /// `back` at the first question.
    public static let backAtStart = InvalidAnswer("back_start", "This is the first question.")
    /// Text at an action or a message, which take only an acknowledgement.
    public static let ackExpected = InvalidAnswer("ack_expected", "Press Enter (or answer {\"done\": true}) when you are done.")
}

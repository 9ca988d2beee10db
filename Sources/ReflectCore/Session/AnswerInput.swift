import Foundation

/// What a person (or a test, or an app) submits at the current prompt,
/// before validation: the machine interface's answer line, decoded.
public enum AnswerInput: Sendable, Equatable {
    case text(String)
    case number(Double)
    case boolean(Bool)
    /// `{"choose": "id"}`
    case choose(String)
    /// `{"choose": ["a", "b"]}`
    case chooseMany([String])
    /// `{"checklist": {"item": "done"}}` (marks still unvalidated)
    case checklist([String: String])
    /// `{"done": true}` / `{"ack": true}`: a message read, an action done.
    case acknowledge
    case command(SessionCommand)
}

/// Commands a person can give at any prompt.
public enum SessionCommand: String, Sendable, Equatable, CaseIterable {
    /// Go back to the previous question; its answer becomes a draft.
    case back
    /// Skip this question (only when it is optional).
    case skip
    /// Keep the draft offered with this prompt as the answer.
    case keep
    /// Leave now; the session stays resumable.
    case quit
}

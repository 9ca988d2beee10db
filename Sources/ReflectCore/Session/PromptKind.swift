/// What a prompt asks for, and so which answers are legal.
public enum PromptKind: String, Sendable, Codable, CaseIterable {
    /// Free text.
    case text
    /// A whole number 0–10 (pre/post intensity, hunger, energy …).
    case intensity
    /// A number on a scale with min, max and step (``NumberScale``):
    /// mood 1–10, sleep hours 0–24 in steps of 0.25.
    case number
    /// `true` or `false`.
    case yesNo = "yes_no"
    /// Exactly one option id.
    case singleChoice = "single_choice"
    /// Zero or more distinct option ids (at least one when required).
    case multiChoice = "multi_choice"
    /// Every item marked done, partly or skip.
    case checklist
    /// Something to do (breathing, a timer) confirmed with "Done".
    case action
    /// Read-only text, acknowledged to go on.
    case message

    /// Whether a step of this kind counts in "2/5" progress by default.
    public var countsAsQuestion: Bool { self != .message }
}

/// How a checklist item went.
public enum ChecklistMark: String, Sendable, Codable, CaseIterable {
    case done, partly, skip
}

/// One option of a choice prompt, or one item of a checklist.
public struct PromptOption: Sendable, Equatable, Codable {
    /// Stable id (answers store it, never the text).
    public var id: String
    /// The text shown, in the session's locale.
    public var text: String

    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }
}

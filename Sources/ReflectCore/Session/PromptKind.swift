/// What a prompt asks for, and so which answers are legal.
public enum PromptKind: String, Sendable, Codable, CaseIterable {
    /// Free text. Any string, empty allowed unless the step requires text.
    case text
    /// An integer 0–10 (pre/post intensity).
    case intensity
    /// `true` or `false`.
    case yesNo = "yes_no"
    /// Read-only text; the answer is an acknowledgement.
    case message
}

/// What I Need Help stores at the end of every run (docs/coach.md): the
/// kind of craving, the branch's choice, when (local time), and the note.
public struct CravingNote: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case stress, habit, physical, other
    }

    public var kind: Kind
    /// The branch's choice (`grounding`, `time`, `water`, …), if any.
    public var detail: String?
    /// The person's note (may be empty).
    public var text: String

    public init(kind: Kind, detail: String?, text: String) {
        self.kind = kind
        self.detail = detail
        self.text = text
    }
}

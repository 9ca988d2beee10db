/// One item of a person's Prep Library (docs/coach.md, "Prep Library").
public struct PrepItem: Sendable, Equatable, Codable {
    /// A checklist item id: lowercase letters, digits, `_ - .` (`water`, `my-3`).
    public var id: String
    public var label: PrepItemLabel
    /// Core items (`produce`, `water`, `breakfast`) can be hidden for a day,
    /// never archived.
    public var core: Bool
    /// Archived items are kept (their marks still name them) but are not
    /// on the checklist.
    public var archived: Bool
    /// The logical day the item is hidden for (core items' "not today").
    public var hiddenOn: CalendarDay?

    public init(id: String, label: PrepItemLabel, core: Bool, archived: Bool = false, hiddenOn: CalendarDay? = nil) {
        self.id = id
        self.label = label
        self.core = core
        self.archived = archived
        self.hiddenOn = hiddenOn
    }

    /// Whether the item is on `day`'s checklist.
    public func isActive(on day: CalendarDay?) -> Bool {
        !archived && (hiddenOn == nil || hiddenOn != day)
    }
}

/// What an item says: a default item's locale key, or the person's own
/// words, shown exactly as written and never looked up as a key (a custom
/// item called `water.bottle` is text, not a key).
public enum PrepItemLabel: Sendable, Hashable, Codable {
    case key(String)
    case literal(String)

    /// The key or the text.
    public var raw: String {
        switch self {
        case .key(let k): k
        case .literal(let t): t
        }
    }

    public var isLiteral: Bool { if case .literal = self { true } else { false } }

    private enum CodingKeys: String, CodingKey { case key, literal }

    /// `{"key": "coach.prep.item.water"}` or `{"literal": "Fill the bottle"}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let k = try c.decodeIfPresent(String.self, forKey: .key) {
            self = .key(k)
        } else {
            self = .literal(try c.decode(String.self, forKey: .literal))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .key(let k): try c.encode(k, forKey: .key)
        case .literal(let t): try c.encode(t, forKey: .literal)
        }
    }
}

/// A Done / Partly / Skip mark of one item on one day.
public struct PrepMark: Sendable, Equatable, Codable {
    public var itemID: String
    public var mark: ChecklistMark

    public init(itemID: String, mark: ChecklistMark) {
        self.itemID = itemID
        self.mark = mark
    }
}

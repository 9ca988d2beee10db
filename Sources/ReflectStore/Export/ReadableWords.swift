import ReflectCore

/// The words an answer is read back with: yes and no, an acknowledged
/// message, a skipped question, nothing chosen, a checklist mark. The CSV
/// export writes its machine words (``machine``, stable for spreadsheets
/// and scripts); `reflect show` passes the person's language's.
public struct ReadableWords: Sendable {
    public var yes: String
    public var no: String
    public var acknowledged: String
    public var skipped: String
    public var none: String
    public var marks: [ChecklistMark: String]

    public init(yes: String, no: String, acknowledged: String, skipped: String, none: String, marks: [ChecklistMark: String]) {
        self.yes = yes
        self.no = no
        self.acknowledged = acknowledged
        self.skipped = skipped
        self.none = none
        self.marks = marks
    }

    /// The CSV export's words: the stored values, never translated.
    public static let machine = ReadableWords(yes: "yes", no: "no", acknowledged: "done", skipped: "(skipped)", none: "(none)",
                                              marks: Dictionary(uniqueKeysWithValues: ChecklistMark.allCases.map { ($0, $0.rawValue) }))

    /// A checklist mark's word (its stored value when none is given).
    public func mark(_ mark: ChecklistMark) -> String { marks[mark] ?? mark.rawValue }
}

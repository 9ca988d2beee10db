/// Something a coach flow asks the host to store with the answer that led
/// to it (a `FlowEffect.coach`): the evening's prep marks, an item the
/// person added to their Prep Library, an I Need Help craving note. The
/// host stores it for the session's logical day, in the answer's
/// transaction; storing it again (after going back) replaces it.
public enum CoachRecord: Sendable, Equatable {
    /// Marks of Prep Library items (ids of the session's facts snapshot).
    case prepMarks([PrepMark])
    /// A new custom item, the person's words; `slot` keeps one item per
    /// flow step, so editing the answer renames it instead of adding another.
    case prepItemAdded(text: String, slot: String)
    case cravingNote(CravingNote)
}

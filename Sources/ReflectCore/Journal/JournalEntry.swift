/// One stored session as the journal reads it: its flow, the logical day it
/// counts for, its answers (drafts left out), the themes auto-tagging found
/// in them, the distortions detected and the intensities before and after.
/// The input of ``Insights`` and ``WeeklyLetter``; built by the store.
public struct JournalEntry: Sendable, Equatable {
    public var sessionID: String
    public var flow: String
    /// The logical day the session started on (time zone and day boundary
    /// applied).
    public var day: CalendarDay
    /// When it started (ISO-8601): orders entries of the same day.
    public var startedAt: String
    public var completed: Bool
    public var answers: [StepID: AnswerValue]
    /// Themes per answered step, in ``Theme`` order.
    public var themes: [StepID: [Theme]]
    public var distortions: [DistortionType]
    public var pre: Int?
    public var post: Int?

    public init(sessionID: String, flow: String, day: CalendarDay, startedAt: String, completed: Bool = true,
                answers: [StepID: AnswerValue] = [:], themes: [StepID: [Theme]] = [:], distortions: [DistortionType] = [],
                pre: Int? = nil, post: Int? = nil) {
        self.sessionID = sessionID
        self.flow = flow
        self.day = day
        self.startedAt = startedAt
        self.completed = completed
        self.answers = answers
        self.themes = themes
        self.distortions = distortions
        self.pre = pre
        self.post = post
    }

    /// Every theme of the entry, once, in ``Theme`` order: the ones
    /// auto-tagging found in its answers and the ones the person chose (a
    /// `themes` step, as in a moment or a deep session).
    public var allThemes: [Theme] { Set(themes.values.joined()).union(chosenThemes).sorted() }

    /// The themes chosen in a `themes` step (a moment's, a deep session's).
    public var chosenThemes: [Theme] {
        guard case .choices(let ids)? = answers["themes"] else { return [] }
        return Set(ids.compactMap(Theme.init(rawValue:))).sorted()
    }

    /// A numeric answer (integer or decimal).
    public func number(_ step: StepID) -> Double? {
        switch answers[step] {
        case .integer(let i)?: Double(i)
        case .number(let d)?: d
        default: nil
        }
    }

    /// A text answer, nil when absent or blank.
    public func text(_ step: StepID) -> String? {
        guard case .text(let s)? = answers[step], !s.allSatisfy(\.isWhitespace) else { return nil }
        return s
    }
}

/// A day's entry in the 5-point mood log (`reflect log`), with the note
/// the person wrote with it (`--note`), the words the digest quotes back.
public struct MoodDay: Sendable, Equatable {
    public var day: CalendarDay
    public var mood: Mood
    public var note: String?
    public init(day: CalendarDay, mood: Mood, note: String? = nil) {
        self.day = day
        self.mood = mood
        self.note = note
    }
}

/// A craving noted on a day (the coach's craving notes): its type.
public struct CravingDay: Sendable, Equatable {
    public var day: CalendarDay
    public var type: String
    public init(day: CalendarDay, type: String) {
        self.day = day
        self.type = type
    }
}

/// The flows and steps the journal reads by id (docs/journal.md).
public enum JournalFlows {
    public static let checkIn = "journal.check-in"
    public static let moment = "journal.moment"
    /// Check-in metrics, in display order.
    public static let metrics: [StepID] = ["mood", "energy", "stress", "sleep_hours", "sleep_quality"]
    /// Steps whose answers are a "next step" the weekly letter can commit to.
    public static let nextSteps: Set<StepID> = ["next_step", "action"]
    /// Steps whose text the digest quotes for a best day, in this order: a
    /// check-in's note, a moment's quote, a deep session's title.
    public static let highlightSteps: [StepID] = ["note", "quote", "title"]
}

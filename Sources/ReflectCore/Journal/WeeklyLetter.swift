/// The weekly letter: a pure function of one week's entries (the same week
/// gives the same letter). Top 3 themes, 3 moments (most intense first,
/// ties by recency), 2 questions, 1 commitment from the week's "next step"
/// answers. An empty week (``isEmptyWeek(sessions:moods:)``, the digest's
/// rule too): a gentle empty letter; some entries: what there is (a week of
/// mood logs alone gets the moods it logged).
public struct WeeklyLetter: Sendable, Equatable, Encodable {
    /// Monday and Sunday of the week.
    public var start: CalendarDay
    public var end: CalendarDay
    /// Entries (sessions) of the week.
    public var entries: Int
    /// Mood-log entries of the week (`reflect log`).
    public var moodEntries: Int
    /// The week's mood-log entries per mood, best mood first (moods with
    /// none left out).
    public var moods: [MoodCount]
    /// Up to 3, most mentioned first (entries that mention each; ties in ``Theme`` order).
    public var themes: [ThemeCount]
    /// Up to 3 moments.
    public var moments: [LetterMoment]
    /// Always 2.
    public var questions: [LetterQuestion]
    /// The most recent "next step" answer of the week, if any.
    public var commitment: String?

    enum CodingKeys: String, CodingKey {
        case start, end, entries, moods, themes, moments, questions, commitment
        case moodEntries = "mood_entries"
    }

    /// No sessions and no mood entries this week.
    public var isEmpty: Bool { Self.isEmptyWeek(sessions: entries, moods: moodEntries) }

    /// The one rule the letter and the digest share: a week is empty (the
    /// gentle empty letter, the quiet digest) when it has no session and no
    /// mood-log entry; a mood logged with `reflect log` is an entry.
    public static func isEmptyWeek(sessions: Int, moods: Int) -> Bool { sessions == 0 && moods == 0 }

    public struct MoodCount: Sendable, Equatable, Encodable {
        public var mood: Mood
        public var entries: Int
    }

    public struct ThemeCount: Sendable, Equatable, Encodable {
        public var theme: Theme
        public var entries: Int
    }

    public struct LetterMoment: Sendable, Equatable, Encodable {
        public var quote: String
        public var intensity: Int?
        public var day: CalendarDay
        public var session: String
    }

    /// Which question to ask; the words come from the locale.
    public enum LetterQuestion: Sendable, Equatable, Encodable {
        /// What helped with the week's main theme.
        case helped(Theme)
        /// What the second theme needs next week.
        case needs(Theme)
        /// A moment to remember (no themes this week).
        case remember
        /// What to carry into next week.
        case carry

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .helped(let t): try c.encode("helped:\(t.rawValue)")
            case .needs(let t): try c.encode("needs:\(t.rawValue)")
            case .remember: try c.encode("remember")
            case .carry: try c.encode("carry")
            }
        }
    }

    /// The letter of the week starting on `monday` (any day of it is moved
    /// to its Monday) from `entries` and the mood log `moods` (those outside
    /// the week are ignored).
    public static func compose(week day: CalendarDay, entries all: [JournalEntry], moods allMoods: [MoodDay]) -> WeeklyLetter {
        let start = Insights.weekStart(day), end = start.adding(days: 6)
        let entries = all.filter { $0.day >= start && $0.day <= end }
            .sorted { ($0.day, $0.startedAt, $0.sessionID) < ($1.day, $1.startedAt, $1.sessionID) }
        let weekMoods = allMoods.filter { $0.day >= start && $0.day <= end }
        let moodCounts = Mood.allCases.reversed().compactMap { mood -> MoodCount? in
            let n = weekMoods.filter { $0.mood == mood }.count
            return n > 0 ? MoodCount(mood: mood, entries: n) : nil
        }

        var counts: [Theme: Int] = [:]
        for e in entries {
            for t in e.allThemes { counts[t, default: 0] += 1 }
        }
        let top = counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(3)
            .map { ThemeCount(theme: $0.key, entries: $0.value) }

        let moments = entries.filter { $0.flow == JournalFlows.moment }.compactMap { e -> (JournalEntry, LetterMoment)? in
            guard let quote = e.text("quote") else { return nil }
            return (e, LetterMoment(quote: quote, intensity: e.number("intensity").map { Int($0) }, day: e.day, session: e.sessionID))
        }
        .sorted { a, b in
            let (ia, ib) = (a.1.intensity ?? -1, b.1.intensity ?? -1)
            if ia != ib { return ia > ib }
            return (a.0.day, a.0.startedAt, a.0.sessionID) > (b.0.day, b.0.startedAt, b.0.sessionID)
        }
        .prefix(3).map(\.1)

        var questions: [LetterQuestion] = [top.first.map { .helped($0.theme) } ?? .remember]
        questions.append(top.count > 1 ? .needs(top[1].theme) : .carry)

        // The latest "next step" of the week (later entries first; within
        // one entry, steps by id).
        var commitment: String?
        for e in entries.reversed() where commitment == nil {
            for step in JournalFlows.nextSteps.sorted(by: { $0.rawValue < $1.rawValue }) {
                if let t = e.text(step) { commitment = t; break }
            }
        }
        return WeeklyLetter(start: start, end: end, entries: entries.count, moodEntries: weekMoods.count, moods: moodCounts,
                            themes: top, moments: moments,
                            questions: questions, commitment: commitment)
    }
}

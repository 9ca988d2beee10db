/// `reflect moments`: the person's kept moments, newest first, filtered by
/// theme, date and source, each with a link to the entry it was taken from.
/// Pure: the same entries and filter give the same list.
///
/// The link is found, not stored: a moment records the kind of its source
/// (`check-in` or `session`) and its words. Its source is the latest entry
/// of that kind, started before the moment, one of whose text answers
/// contains the quote (ignoring case and runs of spaces); when none does,
/// the latest such entry of the same logical day; else none (the source was
/// deleted, or written elsewhere).
public enum Moments {
    public struct Filter: Sendable, Equatable {
        public var theme: Theme?
        /// `check-in` or `session`.
        public var source: String?
        public var from: CalendarDay?
        public var to: CalendarDay?

        public init(theme: Theme? = nil, source: String? = nil, from: CalendarDay? = nil, to: CalendarDay? = nil) {
            self.theme = theme
            self.source = source
            self.from = from
            self.to = to
        }
    }

    /// The source kinds a moment records.
    public static let sources = ["check-in", "session"]

    public static func list(_ all: [JournalEntry], filter: Filter = Filter()) -> [MomentItem] {
        let ordered = all.sorted { ($0.day, $0.startedAt, $0.sessionID) < ($1.day, $1.startedAt, $1.sessionID) }
        var items: [MomentItem] = []
        for (index, e) in ordered.enumerated() where e.flow == JournalFlows.moment {
            guard let quote = e.text("quote") else { continue }
            var source: String?
            if case .choice(let id)? = e.answers["source"] { source = id }
            if let from = filter.from, e.day < from { continue }
            if let to = filter.to, e.day > to { continue }
            if let wanted = filter.source, source != wanted { continue }
            if let theme = filter.theme, !e.allThemes.contains(theme) { continue }
            var emotions: [String] = []
            if case .choices(let ids)? = e.answers["emotions"] { emotions = ids }
            items.append(MomentItem(session: e.sessionID, day: e.day, quote: quote, themes: e.allThemes, emotions: emotions,
                                    intensity: e.number("intensity").map { Int($0) }, asks: e.text("asks"), source: source,
                                    link: link(quote: quote, source: source, before: ordered[..<index], day: e.day)))
        }
        return items.reversed()
    }

    static func link(quote: String, source: String?, before: ArraySlice<JournalEntry>, day: CalendarDay) -> MomentLink? {
        let candidates = before.reversed().filter { e in
            guard e.flow != JournalFlows.moment else { return false }
            switch source {
            case "check-in"?: return e.flow == JournalFlows.checkIn
            case "session"?: return e.flow != JournalFlows.checkIn
            default: return true
            }
        }
        let needle = normalized(quote)
        if !needle.isEmpty, let e = candidates.first(where: { e in
            e.answers.values.contains { if case .text(let t) = $0 { normalized(t).contains(needle) } else { false } }
        }) {
            return MomentLink(session: e.sessionID, flow: e.flow, day: e.day, by: .quote)
        }
        if let e = candidates.first(where: { $0.day == day }) {
            return MomentLink(session: e.sessionID, flow: e.flow, day: e.day, by: .sameDay)
        }
        return nil
    }

    /// Lowercased, with every run of white space one space, trimmed.
    static func normalized(_ s: String) -> String {
        s.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// One kept moment as `reflect moments` lists it.
public struct MomentItem: Sendable, Equatable, Encodable {
    public var session: String
    public var day: CalendarDay
    public var quote: String
    /// Chosen and auto-tagged, in ``Theme`` order.
    public var themes: [Theme]
    public var emotions: [String]
    public var intensity: Int?
    /// "What this asks of me".
    public var asks: String?
    /// `check-in` or `session`, as the person answered.
    public var source: String?
    public var link: MomentLink?
}

/// The entry a moment was taken from (see ``Moments``).
public struct MomentLink: Sendable, Equatable, Encodable {
    public enum Match: String, Sendable, Encodable {
        /// One of the entry's answers contains the quote.
        case quote
        /// No answer contains it: the latest entry of that kind that day.
        case sameDay = "same_day"
    }
    public var session: String
    public var flow: String
    public var day: CalendarDay
    public var by: Match
}

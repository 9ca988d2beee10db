/// What the Today screen shows at an instant (docs/coach.md, "Today"):
/// the phase, which sections show in which order and how, the last seven
/// days, and that I Need Help is always there. Built by ``build(_:)``
/// from plain inputs: pure, no store, no clock of its own.
public struct TodayModel: Sendable, Equatable, Encodable {
    public enum SectionID: String, Sendable, Codable, CaseIterable {
        case lastNightPrep = "last_night_prep"
        case morningFocus = "morning_focus"
        case endOfDay = "end_of_day"
        case prepTonight = "prep_tonight"

        /// The locale key of its label.
        public var labelKey: String { "coach.today.\(rawValue)" }
    }

    public enum Display: String, Sendable, Codable {
        case expanded, collapsed
        /// Not shown, still reachable (a link opens it).
        case hidden
    }

    public struct Section: Sendable, Equatable, Encodable {
        public var id: SectionID
        public var label: String
        public var display: Display
        public var dimmed: Bool
        public var readOnly: Bool
        /// Whether its check-in is done today (the morning for Morning
        /// Focus, the evening for the other two); nil for Last Night's Prep.
        public var done: Bool?
        /// Marks shown in it (Last Night's Prep: last night's; Prep Tonight: tonight's so far).
        public var marks: [MarkLine]
        public var link: String

        enum CodingKeys: String, CodingKey {
            case id, label, display, dimmed, done, marks, link
            case readOnly = "read_only"
        }
    }

    public struct MarkLine: Sendable, Equatable, Encodable {
        public var id: String
        public var text: String
        public var mark: ChecklistMark
    }

    public struct Day: Sendable, Equatable, Encodable {
        public var day: CalendarDay
        /// "Today", or "Fri • Aug 30" in the person's language.
        public var label: String
        public var morningDone: Bool
        public var eveningDone: Bool
        /// The day's prep marks, in Prep Library order, with their items' text.
        public var prep: [MarkLine]

        enum CodingKeys: String, CodingKey {
            case day, label, prep
            case morningDone = "morning_done", eveningDone = "evening_done"
        }
    }

    public struct NeedHelp: Sendable, Equatable, Encodable {
        public var label: String
        public var available: Bool
        public var link: String
    }

    public var day: CalendarDay
    public var phase: DayPhase
    public var localTime: String
    public var sections: [Section]
    public var lastSevenDays: [Day]
    public var needHelp: NeedHelp

    enum CodingKeys: String, CodingKey {
        case day, phase, sections
        case localTime = "local_time", lastSevenDays = "last_seven_days", needHelp = "need_help"
    }

    /// What one logical day holds.
    public struct DayRecord: Sendable, Equatable {
        public var morningDone: Bool
        public var eveningDone: Bool
        public var prep: [PrepMark]

        public init(morningDone: Bool = false, eveningDone: Bool = false, prep: [PrepMark] = []) {
            self.morningDone = morningDone
            self.eveningDone = eveningDone
            self.prep = prep
        }
    }

    /// The inputs: where now falls, what each recent day holds, the Prep
    /// Library (for the marks' texts), and the person's language.
    public struct Input: Sendable {
        public var moment: DayMoment
        public var days: [CalendarDay: DayRecord]
        public var library: [PrepItem]
        /// A locale key's text.
        public var text: @Sendable (String) -> String
        /// "Fri • Aug 30" for a past day.
        public var dayLabel: @Sendable (CalendarDay) -> String

        public init(moment: DayMoment, days: [CalendarDay: DayRecord], library: [PrepItem], text: @escaping @Sendable (String) -> String,
                    dayLabel: @escaping @Sendable (CalendarDay) -> String) {
            self.moment = moment
            self.days = days
            self.library = library
            self.text = text
            self.dayLabel = dayLabel
        }
    }

    public static func build(_ input: Input) -> TodayModel {
        let today = input.moment.day
        let record = input.days[today] ?? DayRecord()
        let lastNight = input.days[today.adding(days: -1)]?.prep ?? []
        func lines(_ marks: [PrepMark]) -> [MarkLine] {
            let order = Dictionary(input.library.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
            return marks.sorted { (order[$0.itemID] ?? .max, $0.itemID) < (order[$1.itemID] ?? .max, $1.itemID) }.map { m in
                let label = input.library.first { $0.id == m.itemID }?.label ?? .literal(m.itemID)
                let text = switch label {
                case .key(let k): input.text(k)
                case .literal(let t): t
                }
                return MarkLine(id: m.itemID, text: text, mark: m.mark)
            }
        }
        func section(_ id: SectionID, _ display: Display, dimmed: Bool = false, readOnly: Bool = false, done: Bool?,
                     marks: [PrepMark] = [], link: DeepLink) -> Section {
            Section(id: id, label: input.text(id.labelKey), display: display, dimmed: dimmed, readOnly: readOnly, done: done,
                    marks: lines(marks), link: link.url)
        }
        let sections: [Section]
        switch input.moment.phase {
        case .day:
            sections = [
                section(.lastNightPrep, .collapsed, dimmed: true, readOnly: true, done: nil, marks: lastNight, link: .reviewPrep),
                section(.morningFocus, .expanded, done: record.morningDone, link: .reviewPrep),
                section(.endOfDay, .hidden, done: record.eveningDone, link: .prepTonight),
                section(.prepTonight, .hidden, done: record.eveningDone, marks: record.prep, link: .prepTonight),
            ]
        case .evening:
            sections = [
                section(.morningFocus, .collapsed, dimmed: true, done: record.morningDone, link: .reviewPrep),
                section(.endOfDay, .expanded, done: record.eveningDone, link: .prepTonight),
                section(.prepTonight, .expanded, done: record.eveningDone, marks: record.prep, link: .prepTonight),
                section(.lastNightPrep, .hidden, dimmed: true, readOnly: true, done: nil, marks: lastNight, link: .reviewPrep),
            ]
        }
        let week = (0..<7).reversed().map { back -> Day in
            let d = today.adding(days: -back)
            let r = input.days[d] ?? DayRecord()
            return Day(day: d, label: back == 0 ? input.text("coach.today.today") : input.dayLabel(d), morningDone: r.morningDone,
                       eveningDone: r.eveningDone, prep: lines(r.prep))
        }
        return TodayModel(day: today, phase: input.moment.phase, localTime: input.moment.clock.iso8601, sections: sections,
                          lastSevenDays: week, needHelp: NeedHelp(label: input.text("coach.today.need_help"), available: true,
                                                                  link: DeepLink.needHelp.url))
    }
}

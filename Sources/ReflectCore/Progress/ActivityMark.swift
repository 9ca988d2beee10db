/// One thing logged on a day, as the progress tables record it: the one
/// shape every kind of logged action takes on its way to streaks and
/// achievements (an answer, a completed flow, a mood log, a craving note, a
/// prep mark).
public struct ActivityMark: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A step's answer was saved.
        case saved
        /// A step's answer was a Yes, or a checklist with at least one Done.
        case positive
        /// The flow was completed.
        case completed
        /// Something logged outside a flow (`step` names it: `mood`, …).
        case logged
    }

    public var day: CalendarDay
    /// The flow id; empty for something logged outside a flow.
    public var flow: String
    /// The step id; empty for a completion.
    public var step: String
    public var kind: Kind

    public init(day: CalendarDay, flow: String, step: String, kind: Kind) {
        self.day = day
        self.flow = flow
        self.step = step
        self.kind = kind
    }

    /// The marks an answer leaves: `saved`, and `positive` for a Yes or a
    /// checklist with at least one item Done. A skipped step leaves none.
    public static func answer(_ value: AnswerValue, flow: String, step: StepID, day: CalendarDay) -> [ActivityMark] {
        if case .skipped = value { return [] }
        var marks = [ActivityMark(day: day, flow: flow, step: step.rawValue, kind: .saved)]
        if value.isPositive { marks.append(ActivityMark(day: day, flow: flow, step: step.rawValue, kind: .positive)) }
        return marks
    }

    public static func completed(flow: String, day: CalendarDay) -> ActivityMark {
        ActivityMark(day: day, flow: flow, step: "", kind: .completed)
    }

    /// Something logged outside a flow: `what` is `mood`, `craving`, `prep`…
    public static func logged(_ what: String, day: CalendarDay) -> ActivityMark {
        ActivityMark(day: day, flow: "", step: what, kind: .logged)
    }
}

extension AnswerValue {
    /// A Yes, or a checklist with at least one item Done.
    var isPositive: Bool {
        switch self {
        case .boolean(let b): b
        case .checklist(let marks): marks.values.contains(.done)
        default: false
        }
    }
}

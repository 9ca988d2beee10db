import ReflectCore

/// Labels for the ids of answers stored without the options they offered
/// (sessions stored before schema v12 kept the chosen ids only): the
/// options each step offers in the flow as it is now, read by replaying the
/// session on it in its own language (the CLI does; the store holds no
/// flow). They are today's labels, not necessarily the ones shown then.
public struct RecoveredOptionLabels: Sendable, Equatable {
    /// Per step, the options the flow offers there now.
    public var options: [StepID: [PromptOption]]
    /// Why a step has no labels (the flow is no longer installed, it
    /// changed before that step, no content was found); nil: the flow no
    /// longer asks that step.
    public var unavailable: String?

    public init(options: [StepID: [PromptOption]], unavailable: String? = nil) {
        self.options = options
        self.unavailable = unavailable
    }

    /// Whether `answer` holds option ids but not the options it offered.
    public static func needed(for answer: AnswerRecord) -> Bool {
        (answer.options?.isEmpty ?? true) && answer.value.choosesOptions
    }
}

extension AnswerValue {
    /// A choice, choices or a checklist: ids of the options a step offered.
    public var choosesOptions: Bool {
        switch self {
        case .choice, .choices, .checklist: true
        default: false
        }
    }
}

import ReflectCore

/// What a flow asks for at its end with `s:feedback { ... }`: three short
/// slots (affirmation, observation, takeaway) about the session.
///
/// Contract: fulfilled like a ``GenerationRequest`` (outside the flow's
/// budget, recorded in the save under `feedback.<slot>`, never asked again
/// on replay); each slot falls back to the offline template's text. With
/// no provider (`none`) nothing is generated and there is no `feedback`
/// event. Shown as one `feedback` event after `done`.
public struct FeedbackRequest: Sendable, Equatable {
    /// The slots, in the order they are shown.
    public enum Slot: String, CaseIterable, Sendable {
        case affirmation, observation, takeaway

        /// The id of the slot's text in the save.
        public var id: StepID { StepID("feedback.\(rawValue)") ?? "feedback" }
        public var purpose: String { "feedback.\(rawValue)" }
    }

    /// Answers the takeaway may quote (the last one first).
    public var inputs: [String]
    /// Intensities, distortion, framework.
    public var context: GenerationContext
    /// The id of the flow's final-question request: whether it was
    /// personalised goes into the feedback.
    public var finalQuestion: StepID?
    public var timeout: Duration

    public init(inputs: [String] = [], context: GenerationContext = GenerationContext(), finalQuestion: StepID? = nil,
                timeout: Duration = .milliseconds(1500)) {
        self.inputs = inputs
        self.context = context
        self.finalQuestion = finalQuestion
        self.timeout = timeout
    }

    /// The generation request of one slot.
    public func request(_ slot: Slot, fallback: String) -> GenerationRequest {
        GenerationRequest(id: slot.id, purpose: slot.purpose, inputs: inputs, fallback: fallback, timeout: timeout, context: context)
    }
}

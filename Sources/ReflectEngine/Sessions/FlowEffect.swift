import ReflectCore

/// What one resume of a flow produced: where it stopped, and what it did on
/// the way.
///
/// Contract: ``FlowRun/advance(answering:passing:)`` returns this as a value;
/// nothing about it is left in shared state for the session to pick up.
/// `yield` is nil when the flow finished.
struct FlowStep {
    var yield: FlowYield?
    var effects: [FlowEffect]
}

/// Where a flow stopped and what it waits for.
enum FlowYield {
    /// A question for the person; the flow resumes with the answer.
    case prompt(FlowAPI.PromptSpec)
    /// A request the host fulfils outside the flow's budget (the CPU and
    /// time limits cover Lua's own work only); the flow resumes with the
    /// text.
    case generate(GenerationRequest)
    /// Feedback at the flow's end (`s:feedback`), fulfilled like
    /// `generate`; the flow resumes with nothing.
    case feedback(FeedbackRequest)
    /// `s:related`: the person's related past entries, looked up by the
    /// host (read-only) outside the flow's budget; the flow resumes with them.
    case related(RelatedRequest)
}

/// A side effect of a flow step, as data.
///
/// The rule: **an effect fires once, when live.** The session applies every
/// effect in one place (`FlowSession.apply(_:live:)`): while it replays
/// answers (going back, resuming) it only updates its own view (which step
/// had which distortion) and drops the rest; live, it journals the effect
/// with the answer that led to it and turns it into an event. So a person
/// who goes back five times still has one distortion row per step, and a
/// celebration or an experiment exposure (next features) is counted once.
/// Adding an effect: docs/engine.md, "Adding an engine feature".
public enum FlowEffect: Sendable, Equatable {
    /// `s:distortion` examined the answer to `step` and found `type`, with
    /// the detector's confidence (the last call of a step wins: one event
    /// and one row per step).
    case distortion(step: StepID, type: DistortionType, confidence: Double)
    /// A coach record (`s:prep_marks`, `s:prep_add`, `s:craving_note`),
    /// stored with the answer to `step` for the session's logical day.
    /// No event: what it stores shows in `reflect today` and the export.
    case coach(step: StepID, record: CoachRecord)
    /// The prompt `step` uses the person's arm `variation` of `experiment`
    /// (a varied key, the arm's personality, or a value the flow read with
    /// `s:variant`). Produced with every such prompt; the session records
    /// and announces it once per experiment and session, live only.
    case exposure(step: StepID, experiment: String, variation: String)
    /// `s:celebrate` after the answer to `step`: the tier the content's
    /// rules asked for (the session applies the rate limit, drops it when
    /// celebrations are off or it already fired, and records it once).
    case celebration(FiredCelebration)
}

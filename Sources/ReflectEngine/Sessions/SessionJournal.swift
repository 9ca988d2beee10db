import ReflectCore

/// Where a session's changes go as they happen (the store, for the CLI).
///
/// Contract: ``answered(_:position:prompt:)`` is called after an answer is
/// validated and *before* the flow moves on; when it returns, the answer is
/// durable, and only then does the session emit `saved`. If it throws, the
/// answer is not taken and the session is unchanged.
public protocol SessionJournal: AnyObject {
    /// `safety` is the gate's category when the answer signals a crisis; the
    /// journal stores the flag and a category-and-time event, never the words twice.
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws
    /// Going back: the step's answer became a draft.
    func wentBack(from step: StepID) throws
    func detected(_ type: DistortionType, step: StepID) throws
    func probed(step: StepID) throws
    func finished(_ summary: DoneSummary) throws
}

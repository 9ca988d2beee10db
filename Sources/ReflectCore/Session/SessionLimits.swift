/// The bounds a session respects at both ends: what a running flow may
/// produce (checked by the flow API as the flow runs) and what a save may
/// contain (checked by ``SessionSave/validate()`` when it is loaded). One
/// definition each, so that a session the engine records is always one it
/// can resume: a flow cannot ask a 1,001st question, offer a 101st option
/// or show a prompt text that would make every stored answer megabytes.
public enum SessionLimits {
    /// Answers in one session (every prompt shown is answered, messages
    /// included); also the most drafts a save holds.
    public static let maxAnswers = 1_000
    /// A text answer, in UTF-8 bytes. Also the most text a flow may hand to
    /// a helper that reads answers (`s:quote`, `s:distortion`, `args`).
    public static let maxTextBytes = 20_000
    /// A step id, and an option or checklist item id (same grammar).
    public static let maxStepIDBytes = 64
    /// Options of a choice, items of a checklist; so also the ids in one
    /// multiple-choice or checklist answer.
    public static let maxOptions = 100
    /// A flow id (`reflection.negative`).
    public static let maxFlowIDBytes = 128
    /// A locale tag (BCP 47's practical maximum).
    public static let maxLocaleTagBytes = 35
    /// A prompt's text as shown (placeholders filled). It is stored with
    /// every answer, so it is bounded like an answer is.
    public static let maxPromptTextBytes = 4_096
    /// One option's or item's text, and a prompt's hint.
    public static let maxOptionTextBytes = 1_024
}

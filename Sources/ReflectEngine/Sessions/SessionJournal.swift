import ReflectCore

/// What an answer led to: journalled together with it, so that a kill
/// leaves all of it or none of it (no answer without its distortion).
public struct AnswerOutcome: Sendable {
    /// The safety gate's category when the answer signals a crisis.
    public var safety: SafetyCategory?
    /// Whether a "be more specific" probe was shown for it.
    public var probed: Bool
    /// Distortions the flow detected while taking it (step, type).
    public var distortions: [(step: StepID, type: DistortionType)]
    /// Set when this answer ended the session.
    public var finished: DoneSummary?
    /// Texts generated since the last answer (kept in the save; a journal
    /// that resumes sessions must keep them too, or a resume asks again).
    public var generated: [GeneratedText] = []
    /// Coach records the flow made while taking it (prep marks, a new prep
    /// item, a craving note), for the session's logical day.
    public var coach: [CoachRecord] = []
    /// Experiment arms first shown by the prompt this answer leads to
    /// (once per experiment and session; a journal that resumes sessions
    /// must keep them, or a resume counts them again).
    public var exposures: [VariantAssignment] = []
    /// Celebrations the answer earned, after the rate limit (each fires
    /// once: a journal stores each once per session, step and reason).
    public var celebrations: [FiredCelebration] = []
    /// The themes a text answer mentions (auto-tagging with the session
    /// language's theme lists), in ``Theme`` order; empty for other answers.
    public var themes: [Theme] = []
    /// Every related-entries request of the session with what it found
    /// (the save's ``SessionSave/recalled``, whole), when one was fulfilled
    /// since the last answer; nil otherwise. A journal that resumes
    /// sessions must keep them, or a resume searches again.
    public var recalled: [RecalledEntries]?

    public init(safety: SafetyCategory? = nil, probed: Bool = false, distortions: [(step: StepID, type: DistortionType)] = [],
                finished: DoneSummary? = nil) {
        self.safety = safety
        self.probed = probed
        self.distortions = distortions
        self.finished = finished
    }
}

/// Where a session's changes go as they happen (the store, for the CLI).
///
/// Contract: ``answered(_:position:prompt:outcome:)`` is called once the
/// answer is validated and the flow has computed what it leads to, *before*
/// anything of it is shown; when it returns, the answer and its outcome are
/// durable, and only then does the session emit `saved`. If it throws, the
/// answer is not taken and the session is back at the same prompt.
public protocol SessionJournal: AnyObject {
    /// Whether this journal stores anything. A session whose journal does
    /// not never reports `saved`. Default: true.
    var persists: Bool { get }
    /// The answer and everything it led to. A journal that can write
    /// atomically does so in one transaction (``StoreJournal``); the
    /// default calls the individual methods below in order.
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, outcome: AnswerOutcome) throws
    /// `safety` is the gate's category when the answer signals a crisis; the
    /// journal stores the flag and a category-and-time event, never the words twice.
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws
    /// A text typed at the offer to pause after `step`'s crisis notice was
    /// flagged too (``FlowSession/screenAtPause(_:after:)``): a
    /// category-and-time event, never the text. Default: nothing stored.
    func flaggedAtPause(_ category: SafetyCategory, step: StepID) throws
    /// Going back: the step's answer became a draft.
    func wentBack(from step: StepID) throws
    func detected(_ type: DistortionType, step: StepID) throws
    func probed(step: StepID) throws
    func finished(_ summary: DoneSummary) throws
    /// The prompt about to be shown when a session opens (or after going
    /// back) is the first of this session to use these arms.
    func exposed(_ exposures: [VariantAssignment]) throws
}

extension SessionJournal {
    public var persists: Bool { true }

    public func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, outcome: AnswerOutcome) throws {
        try answered(answer, position: position, prompt: prompt, safety: outcome.safety)
        if outcome.probed { try probed(step: answer.step) }
        for d in outcome.distortions { try detected(d.type, step: d.step) }
        if !outcome.exposures.isEmpty { try exposed(outcome.exposures) }
        if let summary = outcome.finished { try finished(summary) }
    }

    public func exposed(_ exposures: [VariantAssignment]) throws {}
    public func flaggedAtPause(_ category: SafetyCategory, step: StepID) throws {}
}

/// The journal of a session that stores nothing (`reflect dev`, the flow
/// explorer, tests, an app that keeps ``FlowSession/save`` itself). With it,
/// the session never reports `saved`.
public final class NoJournal: SessionJournal {
    public init() {}
    public var persists: Bool { false }
    public func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws {}
    public func wentBack(from step: StepID) throws {}
    public func detected(_ type: DistortionType, step: StepID) throws {}
    public func probed(step: StepID) throws {}
    public func finished(_ summary: DoneSummary) throws {}
}

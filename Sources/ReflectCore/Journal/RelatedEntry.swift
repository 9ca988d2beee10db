/// One of the person's past answers that resembles what they are writing
/// now (the related-entries search, docs/journal.md): "You wrote about
/// something similar on …".
///
/// Contract: only the person's own kept, unflagged free-text answers are
/// ever returned (a draft, a skipped or a safety-flagged answer is not in
/// the index), never from the session asking, never written after its clock.
public struct RelatedEntry: Sendable, Equatable, Codable {
    /// The local date the answer was written (`YYYY-MM-DD`).
    public var day: String
    /// The answer, as written.
    public var text: String
    /// The flow and session it belongs to, and its step.
    public var flow: String
    public var session: String
    public var step: StepID
    /// 0.7 × relevance + 0.3 × recency, rounded to 4 decimals (docs/journal.md).
    public var score: Double

    public init(day: String, text: String, flow: String, session: String, step: StepID, score: Double) {
        self.day = day
        self.text = text
        self.flow = flow
        self.session = session
        self.step = step
        self.score = score
    }
}

/// What one `s:related` request showed, kept in the session's save like a
/// generated text: replay (back, resume) that reaches the request with the
/// same `basis` (a digest of the text searched for) gets these entries
/// again and never searches anew, so the person sees the same entries and
/// the flow takes the same branch.
public struct RecalledEntries: Sendable, Equatable, Codable {
    public var id: StepID
    public var basis: String
    public var entries: [RelatedEntry]

    public init(id: StepID, basis: String, entries: [RelatedEntry]) {
        self.id = id
        self.basis = basis
        self.entries = entries
    }
}

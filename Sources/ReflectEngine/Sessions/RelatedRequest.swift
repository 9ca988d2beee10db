import ReflectCore

/// `s:related { id, text [, limit] }`: the person's past entries most like
/// `text`, which the host looks up outside the flow's budget (the
/// related-entries search, docs/journal.md), as a yield like
/// ``GenerationRequest``.
///
/// Contract: read-only; what was found is kept in the save
/// (``RecalledEntries``) and replay with the same ``basis`` reuses it and
/// never searches again. `text` is "" when the answer it came from was
/// flagged by the safety gate: nothing is searched for then.
public struct RelatedRequest: Sendable, Equatable {
    public static let maxLimit = 5

    public var id: StepID
    public var text: String
    public var limit: Int

    public init(id: StepID, text: String, limit: Int = 3) {
        self.id = id
        self.text = text
        self.limit = limit
    }

    /// A digest of what is searched for (the text and the limit).
    public var basis: String {
        String(SHA256.hex("related\u{1F}\(limit)\u{1F}\(text)").prefix(16))
    }
}

/// Where a session finds related past entries: the host's store
/// (`StoreRelatedEntries` for the CLI). Read-only.
public protocol RelatedEntrySource: Sendable {
    /// At most `limit` of the person's past entries most like `text`, best
    /// first, answered before `now` (ISO-8601), none of session `excluding`.
    func relatedEntries(to text: String, now: String, excluding: String, limit: Int) throws -> [RelatedEntry]
}

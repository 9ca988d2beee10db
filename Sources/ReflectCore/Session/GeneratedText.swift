/// A text the host generated for a flow (a personalised question, feedback),
/// as the person saw it.
///
/// Contract: kept in the save under the request's id, with `basis`, a digest
/// of what it was generated from. Replay (back, resume) that reaches the
/// request with the same basis feeds the flow this text and never calls a
/// provider again, so the person sees the same words and a flow that
/// branches on them takes the same branch; an edited answer changes the
/// basis, and the text is generated anew. `generated` is false when the request's fallback was used (no
/// provider, a timeout, or a text the engine's checks refused).
public struct GeneratedText: Sendable, Equatable, Codable {
    public var id: StepID
    public var text: String
    public var generated: Bool
    /// A digest of the request's purpose and inputs (no text of the person's).
    public var basis: String
    /// Why a provider's text was not shown (`pii.phone`, `medical.medication`,
    /// `crisis.self_harm`, `rule.too_long`): logged as an event kind and a
    /// time, never with the text. Nil when nothing was refused.
    public var refused: String?

    public init(id: StepID, text: String, generated: Bool, basis: String = "", refused: String? = nil) {
        self.id = id
        self.text = text
        self.generated = generated
        self.basis = basis
        self.refused = refused
    }

    private enum CodingKeys: String, CodingKey { case id, text, generated, basis, refused }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(StepID.self, forKey: .id)
        text = try c.decode(String.self, forKey: .text)
        generated = try c.decode(Bool.self, forKey: .generated)
        basis = try c.decodeIfPresent(String.self, forKey: .basis) ?? ""
        refused = try c.decodeIfPresent(String.self, forKey: .refused)
    }
}

import ReflectCore

/// Text a flow asks the host to generate (`s:generate { ... }`).
///
/// Contract: the flow yields the request like a prompt; the session fulfils
/// it outside the flow's CPU and time budget (through
/// ``SessionOptions/generator``, or with ``fallback`` at once when there is
/// none, when it fails or runs past ``timeout``, or when its text does not
/// pass the engine's checks), records the text in the save, and resumes the
/// flow with it. Replay feeds the recorded text back and never asks again.
public struct GenerationRequest: Sendable, Equatable {
    /// Unique within the flow, like a step id: the key of the result in the save.
    public var id: StepID
    /// What to write ("final_question", "feedback.observation", ...), for the provider.
    public var purpose: String
    /// Earlier answers (or other texts) the generated text may draw on, in the flow's order.
    public var inputs: [String]
    /// The text used when nothing else can be: already resolved in the session's language.
    public var fallback: String
    /// How long the host may wait for a provider.
    public var timeout: Duration

    public init(id: StepID, purpose: String, inputs: [String] = [], fallback: String, timeout: Duration = .milliseconds(1500)) {
        self.id = id
        self.purpose = purpose
        self.inputs = inputs
        self.fallback = fallback
        self.timeout = timeout
    }

    /// What the text is generated from, as a digest: a recorded text is
    /// reused only for the same basis (``GeneratedText/basis``).
    public var basis: String {
        String(SHA256.hex(([purpose] + inputs).joined(separator: "\u{1F}")).prefix(16))
    }
}

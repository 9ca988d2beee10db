/// Writes the text a ``GenerationRequest`` asks for (a provider: a template,
/// an OpenAI-compatible server, a test double).
///
/// Contract: called by the session between two resumes of the flow, never
/// while Lua runs, so its time is not the flow's. It should honour
/// `request.timeout`; the session also refuses (and falls back from) an
/// answer that arrives later. Throwing means "use the fallback". What it
/// returns still passes the engine's checks (the output filter) before a
/// person sees it.
public protocol TextGenerator: Sendable {
    func generate(_ request: GenerationRequest) throws -> String
}

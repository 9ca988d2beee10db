/// Writes the text a ``GenerationRequest`` asks for (a provider: the
/// offline template, an OpenAI-compatible server, a test double).
///
/// Contract: called by the host between two resumes of a flow, never while
/// Lua runs, so its time is not the flow's. It runs as a task the host
/// cancels when `request.timeout` has passed (``GenerationDeadline``): the
/// person never waits longer, whatever the provider does, and a provider
/// should stop its work when cancelled. Throwing means "use the fallback".
/// What it returns still passes the engine's checks
/// (``GeneratedTextScreen``) before a person sees it.
public protocol TextGenerator: Sendable {
    /// A short name for logs and `reflect` options (`template`, `openai`).
    var name: String { get }
    func generate(_ request: GenerationRequest) async throws -> String
}

/// Why a provider gave no text; never shown to the person (they see the fallback).
public enum GenerationFailure: Error, Sendable, Equatable {
    /// The provider ran past the request's timeout and was cancelled.
    case timeout
    /// The provider has nothing for this purpose (the template provider for an unknown purpose).
    case unsupported(String)
    /// The server answered with an HTTP error status.
    case http(status: Int)
    /// The server's reply could not be read (not JSON, no message).
    case malformed(String)
    /// The connection failed.
    case transport(String)
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where an OpenAI-compatible chat-completions server is (llama.cpp's
/// server, Ollama, vLLM, LM Studio, …).
///
/// Contract: nothing is ever sent unless a person configured one, by
/// settings or by the environment (`REFLECT_LLM_URL`, `REFLECT_LLM_MODEL`,
/// `REFLECT_LLM_KEY`).
public struct OpenAIConfiguration: Sendable, Equatable {
    /// The API base (`http://127.0.0.1:8080/v1`); requests go to `<base>/chat/completions`.
    public var baseURL: URL
    public var model: String
    /// Sent as `Authorization: Bearer <key>` when given.
    public var key: String?

    public init(baseURL: URL, model: String, key: String? = nil) {
        self.baseURL = baseURL
        self.model = model
        self.key = key
    }

    /// From `REFLECT_LLM_URL`, `REFLECT_LLM_MODEL` (default `default`) and
    /// `REFLECT_LLM_KEY`; nil when no URL is set or it is not http(s).
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) -> OpenAIConfiguration? {
        guard let raw = env["REFLECT_LLM_URL"], !raw.isEmpty, let url = URL(string: raw),
              url.scheme == "http" || url.scheme == "https" else { return nil }
        let model = env["REFLECT_LLM_MODEL"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        return OpenAIConfiguration(baseURL: url, model: model, key: env["REFLECT_LLM_KEY"].flatMap { $0.isEmpty ? nil : $0 })
    }

    var endpoint: URL {
        let s = baseURL.absoluteString
        if s.hasSuffix("/chat/completions") { return baseURL }
        return URL(string: (s.hasSuffix("/") ? String(s.dropLast()) : s) + "/chat/completions") ?? baseURL
    }
}

/// A provider talking to an OpenAI-compatible chat-completions server
/// through Foundation's URLSession (FoundationNetworking on Linux).
///
/// It sends only what the request needs: the prompt template of the
/// purpose (`prompts/`), filled with the request's inputs and context (no
/// other sessions, no ids). The HTTP request carries the request's timeout,
/// and cancelling the task (``GenerationDeadline``) cancels the connection.
public struct OpenAIGenerator: TextGenerator {
    public let configuration: OpenAIConfiguration
    public let prompts: PromptLibrary
    public var name: String { "openai" }
    private let session: URLSession

    public init(configuration: OpenAIConfiguration, prompts: PromptLibrary) {
        self.configuration = configuration
        self.prompts = prompts
        let config = URLSessionConfiguration.ephemeral
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.httpShouldSetCookies = false
        session = URLSession(configuration: config)
    }

    public func generate(_ request: GenerationRequest) async throws -> String {
        guard let template = prompts.template(for: request.purpose, prompt: request.prompt) else {
            throw GenerationFailure.unsupported("no prompt for \(request.purpose)")
        }
        let body = try JSONEncoder().encode(ChatCompletionRequest(model: configuration.model, messages: messages(request, template),
                                                                  maxTokens: OpenAIGenerator.maxTokens(request.purpose)))
        var http = URLRequest(url: configuration.endpoint)
        http.httpMethod = "POST"
        http.httpBody = body
        http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key = configuration.key { http.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        http.timeoutInterval = max(0.1, Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) / 1e18)
        let (data, status) = try await send(http)
        guard (200..<300).contains(status) else { throw GenerationFailure.http(status: status) }
        guard let reply = try? JSONDecoder().decode(ChatCompletionReply.self, from: data),
              let content = reply.choices.first?.message.content else {
            throw GenerationFailure.malformed("not a chat-completions reply")
        }
        let text = content.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw GenerationFailure.malformed("an empty message") }
        return text
    }

    /// Room for the reply: a chat turn or a digest's few sentences (in any
    /// script) need more than a question or a feedback line.
    static func maxTokens(_ purpose: String) -> Int {
        if purpose.hasPrefix("chat.") { return 400 }
        return purpose == DigestNarration.purpose ? 300 : 120
    }

    /// The messages: the template's system text, then (chat) the turns so
    /// far, or the template's user text.
    func messages(_ request: GenerationRequest, _ template: PromptTemplate) -> [ChatMessage] {
        let c = request.context
        var values: [PromptPlaceholder: String] = [
            .entry: request.inputs.filter { !$0.isEmpty }.map { "- \($0)" }.joined(separator: "\n"),
            .emotion: c.mood?.rawValue ?? "",
            .framework: c.framework ?? "",
            .distortion: c.distortion.map { $0 == .unknown ? "none detected" : $0.rawValue } ?? "none detected",
            .language: c.locale,
            .personalization: c.personality ?? "default",
            .nudge: c.nudge ?? "",
            .slot: request.purpose.hasPrefix(GenerationRequest.Purpose.feedbackPrefix)
                ? String(request.purpose.dropFirst(GenerationRequest.Purpose.feedbackPrefix.count)) : "",
            .mode: request.purpose == GenerationRequest.Purpose.chatAskCoach ? "ask_coach" : "just_talk",
        ]
        if let pre = c.pre, let post = c.post { values[.state] = "intensity \(pre) before, \(post) after (0-10)" }
        values[.context] = c.coachLines.isEmpty
            ? [c.framework.map { "framework: \($0)" }, c.mood.map { "mood: \($0.rawValue)" },
               c.personalised.map { "final question personalised: \($0)" }].compactMap { $0 }.joined(separator: "; ")
            : c.coachLines.joined(separator: "\n")
        let (system, user) = template.render(values)
        guard !request.conversation.isEmpty else {
            return [ChatMessage(role: "system", content: system), ChatMessage(role: "user", content: user)]
        }
        return [ChatMessage(role: "system", content: system + "\n\n" + user)]
            + request.conversation.map { ChatMessage(role: $0.role == .person ? "user" : "assistant", content: $0.text) }
    }

    private func send(_ request: URLRequest) async throws -> (Data, Int) {
        let holder = TaskHolder()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, Int), Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        let cancelled = (error as NSError).code == NSURLErrorCancelled || (error as NSError).code == NSURLErrorTimedOut
                        continuation.resume(throwing: cancelled ? GenerationFailure.timeout : GenerationFailure.transport(error.localizedDescription))
                        return
                    }
                    continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
                }
                holder.set(task)
                task.resume()
            }
        } onCancel: {
            holder.cancel()
        }
    }
}

/// The URLSession task of a request, cancellable from the cancellation handler.
private final class TaskHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func set(_ t: URLSessionDataTask) {
        let already = lock.withLock { () -> Bool in
            task = t
            return cancelled
        }
        if already { t.cancel() }
    }

    func cancel() {
        let t = lock.withLock { () -> URLSessionDataTask? in
            cancelled = true
            return task
        }
        t?.cancel()
    }
}

struct ChatMessage: Codable, Equatable {
    var role: String
    var content: String
}

struct ChatCompletionRequest: Encodable {
    var model: String
    var messages: [ChatMessage]
    var maxTokens: Int
    var temperature = 0.7
    var stream = false

    enum CodingKeys: String, CodingKey {
        case model, messages, temperature, stream
        case maxTokens = "max_tokens"
    }
}

struct ChatCompletionReply: Decodable {
    struct Choice: Decodable {
        struct Message: Decodable { var content: String? }
        var message: Message
    }
    var choices: [Choice]
}

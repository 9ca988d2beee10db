import ReflectCore

/// The default provider: offline and deterministic. It builds the final
/// question, the feedback slots and chat replies from the person's own
/// words, the detected distortion, the intensity shift and the
/// personality, with templates from the locale files (`generation.*`,
/// `feedback.*`, `chat.template.*`; a personality pack may override them,
/// which is how feedback takes the pack's voice). Same inputs, same output.
///
/// It throws ``GenerationFailure/unsupported(_:)`` for a purpose it has no
/// template for, or when it has nothing of the person's to quote; the
/// caller then uses the fallback.
public struct TemplateGenerator: TextGenerator {
    public let language: Language
    public var name: String { "template" }

    public init(language: Language) { self.language = language }

    public func generate(_ request: GenerationRequest) async throws -> String {
        try text(for: request)
    }

    /// The same text, synchronously (it never waits on anything).
    public func text(for request: GenerationRequest) throws(GenerationFailure) -> String {
        let c = request.context
        let quoted = request.inputs.lazy.map(Quote.excerpt).first { !$0.isEmpty }
        switch request.purpose {
        case GenerationRequest.Purpose.finalQuestion:
            guard let quoted else { throw .unsupported("nothing to quote") }
            let key = "generation.final.\(c.framework ?? "default")"
            return try render(language.localizer.string(key) != nil ? key : "generation.final.default", [quoted])
        case "feedback.affirmation":
            let improved = c.pre.flatMap { p in c.post.map { $0 < p } } ?? false
            return try render(improved ? "feedback.affirmation.eased" : "feedback.affirmation", [])
        case "feedback.observation":
            guard let pre = c.pre, let post = c.post else { throw .unsupported("no intensities") }
            let direction = post < pre ? "down" : post > pre ? "up" : "same"
            if let d = c.distortion, d != .unknown, let name = language.localizer.string("feedback.distortion.\(d.rawValue)") {
                return try render("feedback.observation.\(direction).distortion", [String(pre), String(post), name])
            }
            return try render("feedback.observation.\(direction)", [String(pre), String(post)])
        case "feedback.takeaway":
            let personal = c.personalised == true
            guard let quoted else { return try render(personal ? "feedback.takeaway.personal.plain" : "feedback.takeaway.plain", []) }
            return try render(personal ? "feedback.takeaway.personal" : "feedback.takeaway", [quoted])
        case GenerationRequest.Purpose.chatJustTalk:
            let said = request.conversation.last { $0.role == .person }.map { Quote.excerpt($0.text) } ?? ""
            return try render(said.isEmpty ? "chat.template.just_talk.plain" : "chat.template.just_talk", said.isEmpty ? [] : [said])
        case GenerationRequest.Purpose.chatAskCoach:
            if let step = c.commitment, !step.isEmpty {
                return try render("chat.template.ask_coach", [Quote.excerpt(step)])
            }
            return try render("chat.template.ask_coach.plain", [])
        default:
            throw .unsupported(request.purpose)
        }
    }

    private func render(_ key: String, _ args: [String]) throws(GenerationFailure) -> String {
        guard let template = language.localizer.string(key) else { throw .unsupported("no string '\(key)'") }
        return Template(template).render(args)
    }
}

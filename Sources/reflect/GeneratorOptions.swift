import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine

/// `--generator`: which text provider fulfils a flow's generated texts and
/// the chat (docs/generation.md). The default is `openai` when a server is
/// configured (`REFLECT_LLM_URL`, else the settings `llm_url` and
/// `llm_model`), else the offline `template`; nothing is
/// sent over the network unless a server is configured.
struct GeneratorOptions: ParsableArguments {
    enum Provider: String, ExpressibleByArgument, CaseIterable { case none, template, openai }

    @Option(help: "Text provider: none, template (offline; the default) or openai (REFLECT_LLM_URL, REFLECT_LLM_MODEL, REFLECT_LLM_KEY; the default when REFLECT_LLM_URL is set).")
    var generator: Provider?

    /// The provider chosen, or nil for `none`.
    /// - Throws: `ValidationError` for `openai` without a configured server,
    ///   ``EngineError`` for a malformed prompt file.
    func make(language: Language, library: ContentLibrary, settings: Settings = Settings()) throws -> (any TextGenerator)? {
        let configured = OpenAIConfiguration.fromEnvironment() ?? settings.llmURL.flatMap { url in
            OpenAIConfiguration.fromEnvironment(["REFLECT_LLM_URL": url, "REFLECT_LLM_MODEL": settings.llmModel])
        }
        switch generator ?? (configured == nil ? .template : .openai) {
        case .none:
            return nil
        case .template:
            return TemplateGenerator(language: language)
        case .openai:
            guard let configured else {
                throw ValidationError("--generator openai needs a server: set REFLECT_LLM_URL (e.g. http://127.0.0.1:8080/v1) and REFLECT_LLM_MODEL, "
                                      + "or the settings llm_url and llm_model")
            }
            return OpenAIGenerator(configuration: configured, prompts: try library.prompts())
        }
    }

    /// Session options with the provider and the prompts (advice markers) set.
    func apply(to options: inout SessionOptions, language: Language, library: ContentLibrary, settings: Settings = Settings()) throws {
        options.generator = try make(language: language, library: library, settings: settings)
        options.prompts = try library.prompts()
    }
}

import Foundation
import Yams

/// The prompt templates and generation rules of a content directory
/// (`prompts/`), loaded once.
///
/// Files: `prompts/<name>.v<N>.yaml` with `system:` and `user:` (see
/// ``PromptTemplate``), and `prompts/rules.yaml` with the phrases that mark
/// advice per locale (`advice: { en: [...], de: [...] }`), which a final
/// question may not contain. Which version a request uses: its `prompt`
/// field (`final_question.v2`, which an experiment's variation may set),
/// else the newest version of the purpose's template.
public struct PromptLibrary: Sendable {
    public private(set) var templates: [PromptTemplate] = []
    /// Advice markers by locale tag, lowercased.
    public private(set) var advice: [String: [String]] = [:]
    /// Second-person words and their first-person reading, by locale tag
    /// (`you` → `i`, `yourself` → `myself`), lowercased.
    public private(set) var perspective: [String: [String: String]] = [:]

    public init(templates: [PromptTemplate] = [], advice: [String: [String]] = [:], perspective: [String: [String: String]] = [:]) {
        self.templates = templates
        self.advice = advice
        self.perspective = perspective
    }

    /// The first-person readings for a locale chain, the most specific locale winning.
    public func perspectiveWords(for tags: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for t in tags.reversed() { out.merge(perspective[t] ?? [:]) { _, new in new } }
        return out
    }

    /// The template for a request: the one `prompt` names, else the newest
    /// of the purpose's family (`final_question`, `feedback`, `coach_chat`).
    public func template(for purpose: String, prompt: String? = nil) -> PromptTemplate? {
        if let prompt { return templates.first { $0.id == prompt } }
        let family: String
        if purpose.hasPrefix(GenerationRequest.Purpose.feedbackPrefix) {
            family = "feedback"
        } else if purpose.hasPrefix("chat.") {
            family = "coach_chat"
        } else {
            family = purpose
        }
        return templates.filter { $0.name == family }.max { $0.version < $1.version }
    }

    /// The advice markers for a locale chain (the tag, its language, English).
    public func adviceMarkers(for tags: [String]) -> [String] {
        var out: [String] = []
        for t in tags { out += advice[t] ?? [] }
        return out
    }

    /// Reads `prompts/` under `root`; a directory without one gives an empty
    /// library (then an LLM provider has no prompt and every request falls back).
    /// - Throws: ``EngineError/invalidContent(file:line:message:)`` naming the
    ///   file and line: a malformed file, a name not `<name>.v<N>.yaml`, a
    ///   missing `system` or `user`, an unknown placeholder.
    public static func load(_ root: ContentRoot) throws(EngineError) -> PromptLibrary {
        let dir = root.url.appendingPathComponent("prompts", isDirectory: true)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        var library = PromptLibrary()
        for file in files {
            let display = "prompts/\(file)"
            let text = try ContentText.read(dir.appendingPathComponent(file)) { .invalidContent(file: display, line: $0, message: $1) }
            let doc = try YAMLDocument(text: text, file: display)
            if file == "rules.yaml" {
                (library.advice, library.perspective) = try rules(doc)
                continue
            }
            library.templates.append(try template(doc, fileName: file))
        }
        return library
    }

    static func template(_ doc: YAMLDocument, fileName: String) throws(EngineError) -> PromptTemplate {
        let base = String(fileName.dropLast(5))
        guard let dot = base.range(of: ".v", options: .backwards), let version = Int(base[dot.upperBound...]), version > 0,
              !base[..<dot.lowerBound].isEmpty else {
            throw doc.fail(nil, "a prompt file is named <name>.v<N>.yaml (final_question.v1.yaml)")
        }
        var system: String?, user: String?
        for (key, keyNode, value) in try doc.mapping(doc.root, "a prompt file") {
            let text = try doc.string(value, key)
            switch key {
            case "system": system = text
            case "user": user = text
            default: throw doc.fail(keyNode, "unknown field '\(key)' (a prompt has 'system' and 'user')")
            }
            // Block scalars start on the line after their key.
            let first = (value.mark?.line ?? keyNode.mark?.line ?? 1) + (value.scalar?.style == .literal || value.scalar?.style == .folded ? 1 : 0)
            if let unknown = PromptTemplate.unknownPlaceholders(in: text).first {
                throw .invalidContent(file: doc.file, line: first + unknown.line, message: "unknown placeholder {\(unknown.name)} in '\(key)' "
                    + "(known: " + PromptPlaceholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ") + ")")
            }
        }
        guard let system, let user else { throw doc.fail(doc.root, "a prompt needs both 'system' and 'user'") }
        return PromptTemplate(name: String(base[..<dot.lowerBound]), version: version, system: system, user: user, file: doc.file)
    }

    static func rules(_ doc: YAMLDocument) throws(EngineError) -> ([String: [String]], [String: [String: String]]) {
        var advice: [String: [String]] = [:]
        var perspective: [String: [String: String]] = [:]
        for (key, keyNode, value) in try doc.mapping(doc.root, "rules.yaml") {
            switch key {
            case "advice":
                for (tag, _, list) in try doc.mapping(value, "advice") {
                    advice[tag] = try doc.strings(list, "advice.\(tag)").map { $0.lowercased() }
                }
            case "perspective":
                for (tag, _, words) in try doc.mapping(value, "perspective") {
                    var map: [String: String] = [:]
                    for (from, _, to) in try doc.mapping(words, "perspective.\(tag)") { map[from.lowercased()] = try doc.string(to, from).lowercased() }
                    perspective[tag] = map
                }
            default:
                throw doc.fail(keyNode, "unknown field '\(key)' (rules.yaml has 'advice' and 'perspective')")
            }
        }
        return (advice, perspective)
    }
}

import Foundation

/// The placeholders a prompt template may use: a fixed list, so a typo
/// (`{ENTRYS}`) is an author error (`reflect check`), never text sent as is.
public enum PromptPlaceholder: String, CaseIterable, Sendable {
    /// The person's answers as shown (or their chat message), one per line.
    case entry = "ENTRY"
    /// The flow's framework and mood, or the day's coach context (chat).
    case context = "CONTEXT"
    /// The mood category.
    case emotion = "EMOTION"
    /// The intensity before and after.
    case state = "STATE"
    /// The personality pack's voice.
    case personalization = "PERSONALIZATION"
    /// The detected distortion.
    case distortion = "DISTORTION"
    /// The method of the flow (cbt, act, ba).
    case framework = "FRAMEWORK"
    /// The language to write in (a locale tag).
    case language = "LANGUAGE"
    /// The feedback slot (affirmation, observation, takeaway).
    case slot = "SLOT"
    /// The coach's nudge of the day.
    case nudge = "NUDGE"
    /// The chat mode (Just Talk, Ask the Coach).
    case mode = "MODE"
}

/// One versioned prompt, `prompts/<name>.v<N>.yaml`: a `system` and a
/// `user` text with `{PLACEHOLDER}`s from ``PromptPlaceholder``.
///
/// Contract: a template that loaded uses only known placeholders (an
/// unknown one is refused with its file and line); rendering replaces every
/// placeholder, missing values with "".
public struct PromptTemplate: Sendable, Equatable {
    public var name: String
    public var version: Int
    public var system: String
    public var user: String
    /// The file it came from (`prompts/final_question.v1.yaml`).
    public var file: String

    /// `name.vN`, as a flow's `prompt` field names it.
    public var id: String { "\(name).v\(version)" }

    public init(name: String, version: Int, system: String, user: String, file: String) {
        self.name = name
        self.version = version
        self.system = system
        self.user = user
        self.file = file
    }

    public func render(_ values: [PromptPlaceholder: String]) -> (system: String, user: String) {
        (PromptTemplate.fill(system, values), PromptTemplate.fill(user, values))
    }

    static func fill(_ text: String, _ values: [PromptPlaceholder: String]) -> String {
        var out = text
        for p in PromptPlaceholder.allCases { out = out.replacingOccurrences(of: "{\(p.rawValue)}", with: values[p] ?? "") }
        return out
    }

    /// `{WORD}` tokens in `text` that are not placeholders of the list, with
    /// their line offset within the text (0-based).
    public static func unknownPlaceholders(in text: String) -> [(name: String, line: Int)] {
        var out: [(String, Int)] = []
        for (n, line) in text.components(separatedBy: "\n").enumerated() {
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "{") {
                let after = rest[rest.index(after: open)...]
                guard let close = after.firstIndex(of: "}") else { break }
                let token = after[..<close]
                if !token.isEmpty, token.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }),
                   PromptPlaceholder(rawValue: String(token)) == nil {
                    out.append((String(token), n))
                }
                rest = after[after.index(after: close)...]
            }
        }
        return out
    }
}

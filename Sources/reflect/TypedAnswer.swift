import Foundation
import ReflectCore

/// What a person types at the terminal, turned into an answer for the
/// current prompt: `:back`, `:skip`, `:keep`, `:quit` are commands; Enter on
/// a prompt with a draft keeps the draft; a checklist takes one mark per item,
/// in order, in the person's language (`done`/`d`, `hecho`, `a medias` …).
enum TypedAnswer {
    static let help = "Commands: :back (previous question), :skip (optional questions), :keep (keep the earlier answer), :quit"

    /// nil for an unknown `:command` (the help is shown instead).
    static func parse(_ line: String, for prompt: Prompt) -> AnswerInput? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix(":") {
            return SessionCommand(rawValue: String(trimmed.dropFirst()).lowercased()).map { .command($0) }
        }
        if trimmed.isEmpty, prompt.draft != nil { return .command(.keep) }
        switch prompt.kind {
        case .message, .action:
            return .acknowledge
        case .checklist:
            // One mark per item, in order, in the person's language (checked by
            // validation); commas separate marks that contain spaces ("a medias").
            let separator: (Character) -> Bool = trimmed.contains(",") ? { $0 == "," } : { $0 == " " }
            let marks = trimmed.split(whereSeparator: separator).map { $0.trimmingCharacters(in: .whitespaces) }
            var answer: [String: String] = [:]
            for (item, mark) in zip(prompt.options, marks) { answer[item.id] = mark }
            return .checklist(answer)
        default:
            return .text(line)
        }
    }
}

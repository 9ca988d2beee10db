import Foundation
import ReflectCore

/// What a person types at the terminal, turned into an answer for the
/// current prompt: exactly `:back`, `:skip`, `:keep`, `:quit` are commands;
/// Enter on a prompt with a draft keeps the draft; a checklist takes one
/// mark per item, in order, in the person's language (`done`/`d`, `hecho`,
/// `a medias` …).
///
/// An answer may start with ":" (":) lunch with my sister"): only the exact
/// command words are commands, and "::" at the start types one ":"
/// ("::quit" is the text ":quit"). A lone word after ":" that is not a
/// command (":qiut", ":help") is taken for a mistyped command: the help
/// (`terminal.commands`) is shown instead, and nothing is answered.
enum TypedAnswer {
    /// nil for a mistyped `:command` (the help is shown instead).
    static func parse(_ line: String, for prompt: Prompt) -> AnswerInput? {
        var line = line
        var trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("::") {
            // The escape: one colon is dropped, the rest is an answer.
            if let colon = line.firstIndex(of: ":") { line.remove(at: colon) }
            trimmed = line.trimmingCharacters(in: .whitespaces)
        } else if trimmed.hasPrefix(":") {
            let word = String(trimmed.dropFirst())
            if let command = SessionCommand(rawValue: word.lowercased()) { return .command(command) }
            if mistypedCommand(word) { return nil }
        }
        if trimmed.isEmpty, prompt.draft != nil { return .command(.keep) }
        switch prompt.kind {
        case .message, .action:
            // Enter acknowledges; anything typed is checked like any answer
            // (the language's "done" is taken, other text refused: it would
            // not be kept), as in JSON lines and the library.
            return trimmed.isEmpty ? .acknowledge : .text(line)
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

    /// ":" then one short word of letters only: meant as a command.
    private static func mistypedCommand(_ word: String) -> Bool {
        !word.isEmpty && word.count <= 12 && word.allSatisfy { $0.isASCII && $0.isLetter }
    }
}

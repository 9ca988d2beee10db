import Foundation
import LuaHost
import ReflectCore
import ReflectEngine

/// Prints events for people (text) or programs (jsonl, one object per line).
final class EventPrinter {
    let format: Run.OutputFormat
    let interactive: Bool
    /// Hints come from the session's language once it is known.
    private var language: Language?

    init(format: Run.OutputFormat, interactive: Bool) {
        self.format = format
        self.interactive = interactive
    }

    /// A hint in the session's language (``begin(_:language:)`` or
    /// ``use(_:)`` comes first).
    private func hint(_ string: EngineString) -> String {
        (language ?? .none).string(string)
    }

    /// A terminal line in the session's language, its `%@` filled.
    func text(_ string: EngineString, _ args: String...) -> String {
        Template(hint(string)).render(args)
    }

    /// Speaks `language` from now on (before a session's title is shown).
    func use(_ language: Language) { self.language = language }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// Text for people is wrapped at word boundaries to the terminal's
    /// width (when stdout is a terminal); JSON never is.
    private func write(_ s: String, to stream: Terminal.Stream = .out) {
        if format == .text, stream == .out, let width = LineEditor.columns {
            Terminal.write(DisplayWidth.wrapped(s, width: width), to: stream)
        } else {
            Terminal.write(s, to: stream)
        }
    }

    func begin(_ flow: FlowDefinition, language: Language) {
        self.language = language
        guard format == .text else { return }
        let title = language.flowTitle(flow.title) ?? flow.id
        write("\(title)\n" + String(repeating: "─", count: min(max(title.count, 12), 60)) + "\n")
        if interactive { write(hint(.hintCommands) + "\n") }
    }

    /// What a person sees before typing an answer ("" in jsonl).
    var askPrompt: String { format == .text ? "> " : "" }

    func ask() { write(askPrompt) }

    /// Asks a yes/no question at the terminal, in the session's language
    /// when it is known (Enter = `defaultYes`, shown as [Y/n] or [y/N] in
    /// that language). At a terminal, a line that is neither yes nor no in
    /// that language is refused and the question asked again; from a pipe
    /// it counts as no.
    /// `heard`: called with such a line first (the pause after a crisis
    /// notice screens it: docs/safety.md); when it returns true it has
    /// answered the line itself (shown the notice again), and the whole
    /// question is asked again without the refusal.
    /// - Parameter whenInputEnds: the answer when input ends before one is
    ///   given (nil: the default, as for an empty line).
    func confirm(_ question: String, input: AnswerSource, defaultYes: Bool = true, whenInputEnds: Bool? = nil) -> Bool {
        confirm(question, input: input, defaultYes: defaultYes, whenInputEnds: whenInputEnds) { _ in false }
    }

    func confirm(_ question: String, input: AnswerSource, defaultYes: Bool = true, whenInputEnds: Bool? = nil,
                 heard: (String) throws -> Bool) rethrows -> Bool {
        let choices = hint(defaultYes ? .terminalYesDefault : .terminalNoDefault)
        let whole = question
        var question = question
        while true {
            guard let typed = input.readText(prompt: question + " " + choices + " ") else { return whenInputEnds ?? defaultYes }
            if typed.trimmingCharacters(in: .whitespaces).isEmpty { return defaultYes }
            if let answer = (language?.localizer.answerWords ?? AnswerWords.english).boolean(typed) { return answer }
            if try heard(typed) {
                question = whole
                continue
            }
            // A person who typed something else (an answer meant for the
            // question to come, a few words of how they feel) is asked
            // again: their line is never taken for "no".
            guard interactive else { return false }
            if let refused = EngineString(invalid: "yes_no") { write("  ↳ " + hint(refused) + "\n") }
            question = question.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? question
        }
    }

    func note(_ text: String) {
        guard format == .text else { return }
        write("  \(text)\n")
    }

    /// One JSONL line for an event of the command itself (not the flow's).
    func printJSON(_ event: some Encodable) {
        guard format == .jsonl, let data = try? EventPrinter.encoder.encode(event) else { return }
        Terminal.writeJSON(data + Data("\n".utf8))
    }

    func print(_ events: [FlowEvent]) {
        for event in events {
            switch format {
            case .jsonl:
                if let data = try? EventPrinter.encoder.encode(event) { Terminal.writeJSON(data + Data("\n".utf8)) }
            case .text:
                if let line = text(event) { write(line + "\n") }
            }
        }
    }

    /// Reports an engine error: the event on stdout (jsonl), and for people
    /// the message with its traceback on stderr.
    func fail(_ error: EngineError) {
        if format == .jsonl { print([error.event]) }
        var report = "error: \(error.description) [\(error.code)]"
        if case .lua(let lua) = error, !lua.frames.isEmpty {
            report += "\nstack traceback:" + lua.frames.map { "\n\t\($0)" }.joined()
        }
        write(report + "\n", to: .err)
    }

    private func text(_ event: FlowEvent) -> String? {
        switch event {
        case .prompt(let p):
            var lines: [String] = [""]
            let progress = p.counted ? p.total.map { "\(p.index)/\($0) · " } ?? "\(p.index) · " : ""
            lines.append(progress + p.text)
            if p.kind == .action, let button = p.options.first {
                lines.append("   [ \(button.text) ]")
            } else {
                for (i, o) in p.options.enumerated() { lines.append("   \(i + 1). \(o.text)") }
            }
            // The flow's own hint (an example, a reassurance), then how to answer.
            if p.kind != .intensity, let flowHint = p.hint { lines.append("   " + flowHint) }
            switch p.kind {
            case .intensity: lines.append("   " + (p.hint ?? "0–10"))
            case .number:
                if let scale = p.scale { lines.append("   " + scaleLine(scale)) }
                if let hint = p.hint { lines.append("   " + hint) }
            case .yesNo: lines.append("   " + hint(.hintYesNo))
            case .multiChoice: lines.append("   " + hint(.hintMultiChoice))
            case .checklist: lines.append("   " + hint(.hintChecklist))
            case .message, .action: lines.append("   " + hint(.hintAck))
            default: break
            }
            if !p.required, p.kind != .message, p.kind != .action { lines.append("   " + hint(.hintOptional)) }
            if let draft = p.draft {
                lines.append("   " + Template(hint(.hintDraft)).render([describe(draft, options: p.options)]))
            }
            return lines.joined(separator: "\n")
        case .probe(_, let text): return "  ✎ " + text
        case .safety(let n):
            var lines = ["", "  " + n.text]
            for r in n.resources { lines.append("    • " + r) }
            return lines.joined(separator: "\n")
        case .distortion, .variant: return nil
        case .celebration(let c):
            // A tiny one's "·" heads its line; alone it would be a stray
            // dot, so a tiny celebration without a line is a checkmark.
            let mark = switch c.tier {
            case .big?: "🎉"
            case .medium?: "✨"
            case .tiny? where c.line != nil: "·"
            case .tiny?, nil: "✓"
            }
            return "  \(mark)" + (c.line.map { " " + $0.text } ?? "")
        case .invalid(_, _, let message): return "  ↳ " + message
        case .saved: return nil
        case .done(let d):
            var line = "\n" + hint(.doneThanks)
            if let pre = d.pre, let post = d.post, let delta = d.delta {
                line += " " + Template(hint(.doneIntensity)).render(
                    ["\(pre)", "\(post)", "\(delta > 0 ? "+" : "")\(delta)"])
            }
            return line
        case .feedback(let f):
            return ["", "  " + f.affirmation, "  " + f.observation, "  " + f.takeaway].joined(separator: "\n")
        case .resumable(let session, _, let startedAt, let answered):
            return "  " + text(.terminalResumable, String(session.prefix(8)), startedAt, "\(answered)")
        case .error(let code, let message, let file, let line):
            let at = file.map { f in line.map { "\(f):\($0): " } ?? "\(f): " } ?? ""
            return "error: \(at)\(message) [\(code)]"
        }
    }

    /// How numbers are written for the person (a decimal comma in de, es,
    /// fr, pt-BR).
    private var numbers: NumberText { language?.localizer.numbers ?? .machine }

    /// `1 = <min label> … 10 = <max label>`, `0 … 24 (in steps of 0.25)`: a
    /// number prompt's range, end labels and step.
    private func scaleLine(_ scale: NumberScale) -> String {
        func end(_ v: Double, _ label: String?) -> String {
            numbers.format(v) + (label.map { " = \($0)" } ?? "")
        }
        let step = scale.step == 1 ? "" : " (" + Template(hint(.hintNumberStep)).render([numbers.format(scale.step)]) + ")"
        return end(scale.min, scale.minLabel) + " … " + end(scale.max, scale.maxLabel) + step
    }

    /// An earlier answer as the person sees it: options by their labels,
    /// yes/no and checklist marks in the session's answer words (what they
    /// would type; a skipped question as `:skip`), never ids or English.
    private func describe(_ v: AnswerValue, options: [PromptOption]) -> String {
        let words = language?.localizer.answerWords ?? AnswerWords.english
        func label(_ id: String) -> String { options.first { $0.id == id }?.text ?? id }
        switch v {
        case .text(let s): return "“\(Quote.excerpt(s))”"
        case .integer(let i): return "\(i)"
        case .number(let d): return numbers.format(d)
        case .boolean(let b): return words.word(for: b)
        case .choice(let id): return label(id)
        case .choices(let ids): return ids.map(label).joined(separator: ", ")
        case .checklist(let marks):
            // In the checklist's order, as the marks are typed.
            let ordered = options.map(\.id).filter { marks[$0] != nil } + marks.keys.filter { id in !options.contains { $0.id == id } }.sorted()
            return ordered.compactMap { id in marks[id].map { "\(label(id)): \(words.word(for: $0))" } }.joined(separator: ", ")
        case .acknowledged: return words.word(for: .done)
        case .skipped: return ":skip"  // the command that skipped it, in every language
        }
    }
}

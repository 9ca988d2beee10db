import Foundation
import ReflectCore

/// Runs a flow many times with generated answers, to find what a person
/// could run into before anyone does: runtime errors, steps no answer
/// reaches, locale keys the flow uses that a locale lacks, placeholders with
/// no answer, and a declared `total` that does not match.
///
/// Deterministic for a given seed. Each run answers every prompt with a
/// candidate drawn from: for text, an empty answer, a 2,000-character one,
/// "idk", a neutral sentence and one thought per distortion type; for
/// intensity 0, 5 and 10; yes and no; every option of a choice (none, one,
/// all for multiple choice); checklists all done, all skipped or mixed. One
/// answer in ten is a `back` command instead.
public struct FlowExplorer: Sendable {
    public struct Report: Sendable {
        public var runs = 0
        public var reached = Set<StepID>()
        public var keys = Set<String>()
        public var diagnostics: [Diagnostic] = []
    }

    public let runs: Int
    public let seed: UInt64

    public init(runs: Int = 60, seed: UInt64 = 1) {
        self.runs = runs
        self.seed = seed
    }

    static let thoughts = ["", String(repeating: "I keep going over what happened at work today. ", count: 45), "idk",
                           "I had a meeting at 3pm", "I always mess everything up", "I should have done better", "I'm such a failure",
                           "It's my fault the project failed", "I always ruin everything", "She thinks I'm an idiot"]

    public func explore(_ source: FlowSource, language: Language) -> Report {
        final class Sink: @unchecked Sendable {
            let lock = NSLock()
            var keys = Set<String>()
            var unfilled: [String: StepID] = [:]
            func take(_ o: FlowAPI.Observation) {
                lock.withLock {
                    switch o {
                    case .resolvedKey(let k): keys.insert(k)
                    case .unfilledPlaceholder(let step, let key): unfilled[key] = step
                    }
                }
            }
        }
        let sink = Sink()
        var report = Report()
        var rng = SeededRandom(seed: seed)
        var seen = Set<String>()
        func add(_ d: Diagnostic) {
            if seen.insert("\(d.code)|\(d.line ?? 0)|\(d.message)").inserted { report.diagnostics.append(d) }
        }
        var moods: [Mood?] = [nil]
        if let def = try? FlowSession.definitionOnly(source), !def.moods.isEmpty { moods = def.moods }

        for run in 0..<runs {
            report.runs += 1
            var options = SessionOptions(sessionID: "explore-\(run)", mood: moods[run % moods.count],
                                         clock: FlowClock(iso8601: run % 2 == 0 ? "2026-01-05T08:00:00+00:00" : "2026-07-15T21:30:00+09:00")
                                             ?? .system(),
                                         seed: UInt64(run))
            options.observer = { sink.take($0) }
            let session: FlowSession
            do { session = try FlowSession.open(source, language: language, options: options) } catch {
                add(FlowExplorer.diagnostic(error, file: source.name))
                break
            }
            var counted: [StepID: Bool] = [:]
            var steps = 0
            do {
                while let prompt = session.current, steps < 400 {
                    steps += 1
                    report.reached.insert(prompt.step)
                    counted[prompt.step] = prompt.counted
                    let input: AnswerInput
                    if !session.save.answers.isEmpty, rng.integer(in: 0...9) == 0 {
                        input = .command(.back)
                    } else {
                        input = FlowExplorer.candidate(for: prompt, rng: &rng)
                    }
                    _ = try session.submit(input)
                }
                if session.isFinished, let total = session.definition.total {
                    let asked = session.save.answers.filter { counted[$0.step] == true }.count
                    if asked != total {
                        add(Diagnostic(.totalMismatch, file: source.name, line: FlowExplorer.line(of: "total", in: source.text),
                                       message: "flow '\(session.definition.id)' declares total = \(total), but a run asked \(asked) counted questions"))
                    }
                }
            } catch {
                add(FlowExplorer.diagnostic(error, file: source.name))
            }
        }
        report.keys = sink.keys
        for (key, step) in sink.unfilled.sorted(by: { $0.key < $1.key }) {
            add(Diagnostic(.unfilledPlaceholder, file: source.name, line: FlowExplorer.line(of: "\"\(step)\"", in: source.text),
                           message: "step '\(step)' shows '\(key)', whose %@ gets no answer"))
        }
        for (step, line) in FlowExplorer.declaredSteps(in: source.text) where !report.reached.contains(step) {
            add(Diagnostic(.unreachableStep, file: source.name, line: line,
                           message: "step '\(step)' was never reached in \(report.runs) explored runs"))
        }
        return report
    }

    static func candidate(for prompt: Prompt, rng: inout SeededRandom) -> AnswerInput {
        func pick<T>(_ items: [T]) -> T { items[Int(rng.integer(in: 0...Int64(items.count - 1)))] }
        let ids = prompt.options.map(\.id)
        switch prompt.kind {
        case .text: return .text(pick(thoughts))
        case .intensity: return .number(pick([0, 5, 10]))
        case .yesNo: return .boolean(pick([true, false]))
        case .singleChoice: return .choose(pick(ids))
        case .multiChoice: return .chooseMany(pick([[], [ids[0]], ids]))
        case .checklist:
            let marks = pick([["done"], ["skip"], ["done", "partly", "skip"]])
            return .checklist(Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($0.element, marks[$0.offset % marks.count]) }))
        case .action, .message: return .acknowledge
        }
    }

    static func diagnostic(_ error: EngineError, file: String) -> Diagnostic {
        switch error {
        case .lua(let e):
            switch e.kind {
            case .syntax:
                return Diagnostic(.syntax, file: e.chunk ?? file, line: e.line, column: nil, message: e.message)
            case .memoryLimit, .budgetExceeded:
                return Diagnostic(.limit, file: e.chunk ?? file, line: e.line, message: e.message)
            default:
                let code: DiagnosticCode = e.message.contains("unknown locale key") ? .unknownKey : .runtime
                return Diagnostic(code, file: e.chunk ?? file, line: e.line, message: e.message)
            }
        case .invalidFlow(let f, let line, let message):
            let code: DiagnosticCode = message.contains("twice") || message.contains("yielded") ? .invalidStep : .notAFlow
            return Diagnostic(code, file: f, line: line, message: message)
        default:
            return Diagnostic(.runtime, file: error.file ?? file, line: error.line, message: error.message)
        }
    }

    /// Step ids written literally in prompt calls, with their lines.
    static func declaredSteps(in source: String) -> [(StepID, Int)] {
        let pattern = #"s:(ask|intensity|yesno|choose|choose_many|checklist|action|message)\s*\{[^}]*?\bid\s*=\s*"([^"]+)""#
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        let ns = source as NSString
        var out: [(StepID, Int)] = []
        for m in regex.matches(in: source, range: NSRange(location: 0, length: ns.length)) {
            let idRange = m.range(at: 2)
            guard let id = StepID(ns.substring(with: idRange)) else { continue }
            let line = ns.substring(to: idRange.location).filter { $0 == "\n" }.count + 1
            out.append((id, line))
        }
        return out
    }

    /// The first line containing `needle`, if any.
    static func line(of needle: String, in source: String) -> Int? {
        for (i, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(needle) {
            return i + 1
        }
        return nil
    }
}

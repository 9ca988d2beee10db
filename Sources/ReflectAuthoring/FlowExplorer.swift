import Foundation
import ReflectCore
import ReflectEngine

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
///
/// Bounded as a whole, not only per step: a ``Budget`` caps the steps run
/// (answers plus the answers `back` replays) and the wall-clock time of
/// one exploration; the running Lua call is cancelled at the deadline. A
/// spent budget is reported as diagnostic R012 (a warning) and the
/// exploration stops there; steps it did not reach are then not reported
/// as unreachable.
public struct FlowExplorer: Sendable {
    public struct Report: Sendable {
        public var runs = 0
        public var reached = Set<StepID>()
        public var keys = Set<String>()
        public var diagnostics: [Diagnostic] = []
        /// Whether the budget ran out before every run was explored.
        public var exhausted = false
        /// Whether a run stopped on an error (reported as such): the steps
        /// after it are then not reported as unreachable (R009), that being
        /// the same problem again.
        public var stoppedByError = false
    }

    /// What one exploration may spend.
    public struct Budget: Sendable, Equatable {
        /// Steps over all runs: each answer counts 1, each `back` 1 plus the answers it replays.
        public var steps: Int
        /// Wall-clock seconds for the whole exploration of one flow.
        public var seconds: Double
        public init(steps: Int = 20_000, seconds: Double = 20) {
            self.steps = steps
            self.seconds = seconds
        }
    }

    public let runs: Int
    public let seed: UInt64
    public let budget: Budget

    public init(runs: Int = 60, seed: UInt64 = 1, budget: Budget = Budget()) {
        self.runs = runs
        self.seed = seed
        self.budget = budget
    }

    static let thoughts = ["", String(repeating: "I keep going over what happened at work today. ", count: 45), "idk",
                           "I had a meeting at 3pm", "I always mess everything up", "I should have done better", "I'm such a failure",
                           "It's my fault the project failed", "I always ruin everything", "She thinks I'm an idiot"]

    /// Explores `source`; `deadline` (an overall one, `reflect check`'s)
    /// shortens the budget's time when it comes first. Even runs are a new
    /// person's (no facts); odd runs a person with a history: `earlier`
    /// (other flows' answers, see ``earlierAnswers(of:)``), a streak, the
    /// default Prep Library plus an item of their own with last night's
    /// marks, so steps a flow shows only to such a person are explored too.
    public func explore(_ source: FlowSource, language: Language, deadline: Date? = nil,
                        earlier: [EarlierAnswer] = []) -> Report {
        final class Sink: @unchecked Sendable {
            let lock = NSLock()
            var keys = Set<String>()
            var unfilled: [String: StepID] = [:]
            var sources: [StepID: String] = [:]
            func take(_ o: FlowAPI.Observation) {
                lock.withLock {
                    switch o {
                    case .resolvedKey(let k): keys.insert(k)
                    case .unfilledPlaceholder(let step, let key): unfilled[key] = step
                    case .promptSource(let step, let text): sources[step] = text
                    }
                }
            }
            func source(of step: StepID) -> String? { lock.withLock { sources[step] } }
        }
        let sink = Sink()
        var report = Report()
        var rng = SeededRandom(seed: seed)
        var seen = Set<String>()
        func add(_ d: Diagnostic) {
            if seen.insert("\(d.code)|\(d.line ?? 0)|\(d.message)").inserted { report.diagnostics.append(d) }
        }
        var moods: [Mood?] = [nil]
        if let def = try? FlowCatalog.summary(of: source), !def.moods.isEmpty { moods = def.moods }

        let started = Date()
        let seconds = min(budget.seconds, deadline.map { $0.timeIntervalSince(started) } ?? budget.seconds)
        let cancellation = SessionCancellation()
        // The timer stops a Lua call in progress; between steps the clock is
        // read directly, so a late timer (a busy global queue) cannot let
        // the exploration run on past its budget.
        let stop = started.addingTimeInterval(max(seconds, 0))
        DispatchQueue.global().asyncAfter(deadline: .now() + max(seconds, 0)) { cancellation.cancel() }
        var spent = 0
        func exhausted() -> Bool {
            if !cancellation.isCancelled, Date() >= stop { cancellation.cancel() }
            guard cancellation.isCancelled || spent >= budget.steps else { return false }
            if !report.exhausted {
                report.exhausted = true
                let what = spent >= budget.steps ? "\(budget.steps) steps" : String(format: "%.0f s", seconds)
                add(Diagnostic(.explorationBudget, file: source.name, line: nil,
                               message: "exploration stopped after \(report.runs) of \(runs) runs: its budget (\(what)) ran out"))
            }
            return true
        }

        for run in 0..<runs {
            if exhausted() { break }
            report.runs += 1
            var options = SessionOptions(sessionID: "explore-\(run)", mood: moods[run % moods.count],
                                         clock: FlowClock(iso8601: run % 2 == 0 ? "2026-01-05T08:00:00+00:00" : "2026-07-15T21:30:00+09:00")
                                             ?? .system(),
                                         seed: UInt64(run))
            options.observer = { sink.take($0) }
            options.cancellation = cancellation
            // Every other run finds past entries for `s:related` (0 to 3 of
            // its own texts), so steps shown only with them are explored too.
            options.relatedEntries = ExploredRelatedEntries(count: run % 2 == 0 ? 0 : 1 + (run / 2) % 3)
            if run % 2 == 1 { options.facts = FlowExplorer.livedIn(clock: options.clock, earlier: earlier) }
            let session: FlowSession
            do { session = try FlowSession.open(source, language: language, options: options) } catch {
                if !exhausted() { add(FlowExplorer.diagnostic(error, file: source.name, source: source.text)) }
                report.stoppedByError = true
                break
            }
            var counted: [StepID: Bool] = [:]
            var steps = 0
            do {
                while let prompt = session.current, steps < 400 {
                    if exhausted() { break }
                    steps += 1
                    spent += 1
                    report.reached.insert(prompt.step)
                    counted[prompt.step] = prompt.counted
                    let input: AnswerInput
                    if !session.save.answers.isEmpty, rng.integer(in: 0...9) == 0 {
                        input = .command(.back)
                        spent += session.save.answers.count
                    } else {
                        input = FlowExplorer.candidate(for: prompt, rng: &rng)
                    }
                    _ = try session.submit(input)
                    // An answer the flow put into a prompt's text itself
                    // (`..`, string.format) instead of through `args`. A
                    // text the host generated (`s:generate`) is not the
                    // flow's doing: it is screened as generated text.
                    if let next = session.current, let written = sink.source(of: next.step),
                       !session.save.generated.contains(where: { $0.text == written }),
                       FlowExplorer.quotedOutsideArgs(written, answers: session.save.answers) != nil {
                        add(Diagnostic(.quotedOutsideArgs, file: source.name,
                                       line: FlowExplorer.line(of: "\"\(next.step)\"", in: source.text),
                                       message: "step '\(next.step)' puts an earlier answer into its text itself, not through `args`"))
                    }
                }
                if session.isFinished, let total = session.definition.total {
                    let asked = session.save.answers.filter { counted[$0.step] == true }.count
                    if asked != total {
                        add(Diagnostic(.totalMismatch, file: source.name, line: FlowExplorer.line(of: "total", in: source.text),
                                       message: "flow '\(session.definition.id)' declares total = \(total), but a run asked \(asked) counted questions"))
                    }
                }
            } catch {
                if !exhausted() { add(FlowExplorer.diagnostic(error, file: source.name, source: source.text)) }
                report.stoppedByError = true
            }
        }
        report.keys = sink.keys
        for (key, step) in sink.unfilled.sorted(by: { $0.key < $1.key }) {
            add(Diagnostic(.unfilledPlaceholder, file: source.name, line: FlowExplorer.line(of: "\"\(step)\"", in: source.text),
                           message: "step '\(step)' shows '\(key)', whose %@ gets no answer"))
        }
        for (step, line) in FlowExplorer.declaredSteps(in: source.text) where !report.exhausted && !report.stoppedByError && !report.reached.contains(step) {
            add(Diagnostic(.unreachableStep, file: source.name, line: line,
                           message: "step '\(step)' was never reached in \(report.runs) explored runs"))
        }
        return report
    }

    /// Answers a person with a history has given in the flows `sources`:
    /// each literal step of a text, intensity, number or yes/no prompt with
    /// a plausible value (choices are left out: their option ids are not
    /// known without running the flow).
    public static func earlierAnswers(of sources: [FlowSource]) -> [EarlierAnswer] {
        var out: [EarlierAnswer] = []
        for source in sources {
            let scanner = FlowSourceScanner(source.text)
            guard let flow = scanner.header.id else { continue }
            for call in scanner.promptCalls {
                let value: AnswerValue
                switch call.function {
                case "ask": value = .text("Dance to one song in the kitchen")
                case "intensity", "number": value = .integer(5)
                case "yesno": value = .boolean(true)
                default: continue
                }
                out.append(EarlierAnswer(flow: flow, step: call.step, value: value))
            }
        }
        return Array(out.prefix(SessionLimits.maxAnswers))
    }

    /// The facts of a person who has been using Reflect for a while.
    static func livedIn(clock: FlowClock, earlier: [EarlierAnswer]) -> UserFacts {
        let moment = DayRules().moment(clock)
        let own = PrepItem(id: "my-1", label: .literal("Lay out my walking shoes"), core: false)
        let items = PrepLibrary.defaults + [own]
        return UserFacts(day: moment.day.description, phase: moment.phase, earlierAnswers: earlier,
                         streak: StreakFigures(current: 4, longest: 9, lastSevenDays: 5), firstToday: false, firstEver: false,
                         prepItems: items, lastNightPrep: items.prefix(2).map { PrepMark(itemID: $0.id, mark: .done) })
    }

    /// The start of a text answer found in a prompt text as the flow wrote
    /// it, if any. Only the explorer's own distinctive answers (12
    /// characters or more) count, so a flow's fixed wording never matches.
    static func quotedOutsideArgs(_ written: String, answers: [RecordedAnswer]) -> String? {
        for answer in answers {
            guard case .text(let text) = answer.value, text.count >= 12 else { continue }
            let start = String(text.prefix(12))
            if written.contains(start) { return start + "…" }
        }
        return nil
    }

    static func candidate(for prompt: Prompt, rng: inout SeededRandom) -> AnswerInput {
        func pick<T>(_ items: [T]) -> T { items[Int(rng.integer(in: 0...Int64(items.count - 1)))] }
        let ids = prompt.options.map(\.id)
        switch prompt.kind {
        case .text: return .text(pick(thoughts))
        case .intensity: return .number(pick([0, 5, 10]))
        case .number:
            guard let s = prompt.scale else { return .number(0) }
            return .number(pick([s.min, s.min + ((s.max - s.min) / s.step / 2).rounded(.down) * s.step, s.max]))
        case .yesNo: return .boolean(pick([true, false]))
        case .singleChoice: return .choose(pick(ids))
        case .multiChoice: return .chooseMany(pick([[], [ids[0]], ids]))
        case .checklist:
            let marks = pick([["done"], ["skip"], ["done", "partly", "skip"]])
            return .checklist(Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($0.element, marks[$0.offset % marks.count]) }))
        case .action, .message: return .acknowledge
        }
    }

    /// The diagnostic for an error loading or running a flow. Given the
    /// flow's text, an unknown field is placed on the line that writes it
    /// (the error itself names the line of the call, `flow {` or `s:ask {`).
    static func diagnostic(_ error: EngineError, file: String, source: String? = nil) -> Diagnostic {
        var d = plainDiagnostic(error, file: file)
        if let source, let line = d.line, d.code == .invalidStep || d.code == .notAFlow,
           let r = d.message.range(of: ": unknown field '"), let end = d.message[r.upperBound...].firstIndex(of: "'") {
            let field = String(d.message[r.upperBound..<end])
            d.line = FlowExplorer.line(ofField: field, in: source, from: line) ?? line
        }
        return d
    }

    /// The first line at or after `from` where `field` is written as a
    /// table field (`field =`).
    static func line(ofField field: String, in source: String, from: Int) -> Int? {
        for (offset, text) in LineEndings.normalized(source).split(separator: "\n", omittingEmptySubsequences: false).enumerated().dropFirst(from - 1) {
            var rest = Substring(text)
            while let r = rest.range(of: field) {
                let before = rest[..<r.lowerBound].last
                let after = rest[r.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
                if before.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true, after.first == "=", after.dropFirst().first != "=" {
                    return offset + 1
                }
                rest = rest[r.upperBound...]
            }
        }
        return nil
    }

    private static func plainDiagnostic(_ error: EngineError, file: String) -> Diagnostic {
        switch error {
        case .lua(let e):
            switch e.kind {
            case .syntax:
                return Diagnostic(.syntax, file: e.chunk ?? file, line: e.line, column: nil, message: e.message)
            case .memoryLimit, .budgetExceeded:
                return Diagnostic(.limit, file: e.chunk ?? file, line: e.line, message: e.message)
            default:
                let code: DiagnosticCode = e.message.contains("unknown locale key") ? .unknownKey
                    : e.message.contains("twice; step ids must be unique") || e.message.contains(": unknown field '") ? .invalidStep : .runtime
                return Diagnostic(code, file: e.chunk ?? file, line: e.line, message: e.message)
            }
        case .invalidFlow(let f, let line, let message):
            let code: DiagnosticCode = message.contains("twice") || message.contains("yielded") ? .invalidStep : .notAFlow
            return Diagnostic(code, file: f, line: line, message: message)
        default:
            return Diagnostic(.runtime, file: error.file ?? file, line: error.line, message: error.message)
        }
    }

    /// Step ids written literally in prompt calls, with their lines: one
    /// linear pass of ``FlowSourceScanner`` (no backtracking regex on
    /// untrusted text).
    static func declaredSteps(in source: String) -> [(StepID, Int)] {
        FlowSourceScanner(source).promptSteps
    }

    /// The first line containing `needle`, if any: a byte search, at most
    /// (source length × needle length) compares, needles being short keys
    /// and step ids.
    static func line(of needle: String, in source: String) -> Int? {
        let hay = Array(source.utf8), n = Array(needle.utf8)
        guard let first = n.first, n.count <= hay.count else { return nil }
        var offset: Int?
        var i = 0, line = 1  // the line of position i
        while i + n.count <= hay.count {
            if hay[i] == 10 { line += 1 }
            if hay[i] == first {
                var m = 1
                while m < n.count, hay[i + m] == n[m] { m += 1 }
                if m == n.count { offset = i; break }
            }
            i += 1
        }
        return offset == nil ? nil : line
    }
}

/// `s:related` while exploring: `count` entries of the explorer's own
/// texts, whenever there is text to search for.
struct ExploredRelatedEntries: RelatedEntrySource {
    let count: Int

    func relatedEntries(to text: String, now: String, excluding: String, limit: Int) throws -> [RelatedEntry] {
        guard !text.isEmpty else { return [] }
        return (0..<min(count, limit)).map { i in
            RelatedEntry(day: "2025-12-0\(i + 1)", text: "A walk by the river helped", flow: "journal.check-in", session: "explored-\(i)",
                         step: "note", score: 1)
        }
    }
}

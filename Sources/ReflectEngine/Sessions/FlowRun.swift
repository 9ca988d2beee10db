import Foundation
import LuaHost
import ReflectCore

/// One execution of a flow from its start: a sandboxed state, the flow's
/// coroutine, and what it has asked so far. A session replaces its run
/// when the person goes back (replay needs a fresh start); a run is never
/// rewound.
final class FlowRun: FlowAPI.Host {
    let definition: FlowDefinition
    let language: Language
    let clock: FlowClock
    let mood: Mood?
    // A run is used from one thread at a time (its session's), and the API's
    // calls into it never overlap an access in progress (no mutation of these
    // fields runs Lua or calls back: the memos' computations are the gate's
    // and the probe's): the fields each step touches skip the runtime's
    // exclusivity bookkeeping (`@exclusivity(unchecked)`).
    private let lua: LuaState
    private let coroutine: LuaCoroutine
    @exclusivity(unchecked) private var generator: SeededRandom
    private let observer: (@Sendable (FlowAPI.Observation) -> Void)?
    let facts: UserFacts?
    /// What the API accepted last (a prompt or a generation request), and
    /// the token its yield carries.
    @exclusivity(unchecked) private var pending: (token: Int64, yield: FlowYield)?
    @exclusivity(unchecked) private var asked = StepIDSet(capacity: 16)
    @exclusivity(unchecked) private var requested = StepIDSet(capacity: 4)
    /// The texts `s:generate` handed the flow (``FlowAPI/Host/isGeneratedText(_:)``):
    /// a few per run (one per `s:generate`, each id once), so a list searched
    /// with `==` (the equality a set would use) instead of hashing every
    /// prompt's text.
    @exclusivity(unchecked) private var generatedTexts: [String] = []
    @exclusivity(unchecked) private var distortionCalls = 0
    /// Bounds what `print` sends to the author's log, per step.
    private let printGate = PrintGate()
    /// Counted questions shown so far (progress index).
    @exclusivity(unchecked) private(set) var countedSoFar = 0
    /// While one `advance` runs: the step whose answer the flow works with,
    /// and the effects it produced. Reset by every `advance`, returned by it.
    @exclusivity(unchecked) private var answering: StepID?
    @exclusivity(unchecked) private var effects: [FlowEffect] = []
    /// Experiments the flow read with `s:variant` (the person is in them):
    /// every prompt from then on uses them.
    private var readExperiments: [String] = []
    /// Verdicts of the texts this run has screened, so that an answer
    /// quoted into a later prompt is not screened twice.
    @exclusivity(unchecked) private var verdicts = TextMemo<SafetyVerdict>()

    func screen(_ text: String) -> SafetyVerdict {
        verdicts.value(for: text) { language.safety.check($0) }
    }
    @exclusivity(unchecked) private var nonAnswers = TextMemo<Bool>()

    func isNonAnswer(_ text: String) -> Bool {
        nonAnswers.value(for: text) { language.probe?.isNonAnswer($0) == true }
    }
    /// The celebration rules' entry points (`after(s, step, answer)` and
    /// `finish(s)`), when the flow's directory has rules.
    private var rulesAfter: LuaFunction?
    private var rulesFinish: LuaFunction?

    init(source: FlowSource, language: Language, options: SessionOptions, seed: UInt64, clock: FlowClock, mood: Mood?,
         facts: UserFacts?) throws(EngineError) {
        self.language = language
        self.clock = clock
        self.mood = mood
        self.facts = facts
        generator = SeededRandom(seed: seed)
        observer = options.observer
        do {
            let gate = printGate
            lua = try LuaState(limits: options.limits, seed: seed, print: options.log.map { log in
                { @Sendable line in gate.pass(line).map(log) }
            })
        } catch {
            throw .lua(error)
        }
        options.cancellation?.register(lua.cancellation)
        // `definition` and `coroutine` are set below; the API needs `self`
        // only once the flow runs.
        var def: FlowDefinition?
        var co: LuaCoroutine?
        do {
            try FlowAPI.installDeclarations(in: lua)
            let chunk = try lua.load(source.text, as: source.name)
            let d = try FlowDefinition.parse(try lua.callTopLevel(chunk).first, file: source.name)
            let boot = try lua.load(FlowAPI.bootSource, as: "reflect:session")
            let started = try lua.call(boot, [.function(d.run)])
            guard let body = started.first?.functionValue, started.count == 1 else {
                throw EngineError.invalidFlow(file: source.name, line: nil, message: "cannot start the flow")
            }
            co = try lua.makeCoroutine(body)
            def = d
        } catch {
            throw .loading(error, file: source.name)
        }
        guard let def, let co else { throw .invalidFlow(file: source.name, line: nil, message: "cannot start the flow") }
        definition = def
        coroutine = co
        do { try FlowAPI.installSession(in: lua, host: self, flow: co) } catch { throw .lua(error) }
        if let rules = source.celebrationRules {
            do {
                let chunk = try lua.load(rules.text, as: rules.name)
                let boot = try lua.load(FlowAPI.rulesBootSource, as: "reflect:rules")
                let entry = try lua.callTopLevel(boot, [.function(chunk)])
                rulesAfter = entry.first?.functionValue
                rulesFinish = entry.count > 1 ? entry[1].functionValue : nil
            } catch {
                throw .loading(error, file: rules.name)
            }
        }
    }

    /// Runs the celebration rules for the answer just given to `step`
    /// (before the flow resumes with it); returns the effects.
    func afterAnswer(_ step: StepID, _ value: LuaValue) throws(EngineError) -> [FlowEffect] {
        guard let rulesAfter else { return [] }
        answering = step
        effects = []
        defer { answering = nil }
        do { _ = try lua.callTopLevel(rulesAfter, [.string(step.rawValue), value]) } catch { throw .lua(error) }
        return effects
    }

    deinit { lua.close() }

    var memoryInUse: Int {
        lua.collectGarbage()
        return lua.gcCount
    }

    /// Resumes the flow with `value` (nothing on the first call; the
    /// answer to `step`, or a generated text, later) and runs it to its next
    /// yield. Returns where it stopped and the effects of the way there;
    /// nothing of it stays behind in this run for anyone to read.
    func advance(answering step: StepID?, passing value: LuaValue?) throws(EngineError) -> FlowStep {
        pending = nil
        distortionCalls = 0
        printGate.reset()
        answering = step
        effects = []
        defer { answering = nil }
        // What the flow returns when it ends is not used: it stays in the state.
        let result: LuaResumptionInPlace
        do { result = try lua.resumeInPlace(coroutine, passing: value) } catch { throw .lua(FlowAPI.withSuggestion(error)) }
        guard case .yielded(let yielded) = result else {
            // The flow ended: the rules' `finish` celebrates the run.
            if let rulesFinish, step != nil {
                do { _ = try lua.callTopLevel(rulesFinish) } catch { throw .lua(error) }
            }
            return FlowStep(yield: nil, effects: effects)
        }
        // Only what the API accepted, yielded by the API itself, is shown or
        // fulfilled: a raw `coroutine.yield` (even after a call that failed) is not.
        guard let (token, yield) = pending.take(), yielded == .one(.integer(token)) else {
            throw .invalidFlow(file: definition.file, line: lua.suspendedLine(coroutine),
                               message: "flow '\(definition.id)' yielded without asking anything (use s:ask and friends, not coroutine.yield)")
        }
        switch yield {
        case .prompt(let spec):
            guard asked.insert(spec.step) else {
                throw .invalidFlow(file: definition.file, line: nil,
                                   message: "flow '\(definition.id)' asks step '\(spec.step)' twice; step ids must be unique")
            }
            if spec.counted { countedSoFar += 1 }
            // Every prompt using an arm carries its exposure; the session keeps one per experiment.
            for a in language.variants.assignments
            where spec.experiments.contains(a.experiment) || readExperiments.contains(a.experiment)
                || language.variants.sessionWide.contains(a.experiment) {
                effects.append(.exposure(step: spec.step, experiment: a.experiment, variation: a.variation))
            }
        case .generate(let request):
            guard requested.insert(request.id) else {
                throw .invalidFlow(file: definition.file, line: lua.suspendedLine(coroutine),
                                   message: "flow '\(definition.id)' generates '\(request.id)' twice; generation ids must be unique")
            }
        case .related(let request):
            guard requested.insert(request.id) else {
                throw .invalidFlow(file: definition.file, line: lua.suspendedLine(coroutine),
                                   message: "flow '\(definition.id)' asks for related entries '\(request.id)' twice; request ids must be unique")
            }
        case .feedback:
            guard requested.insert("feedback") else {
                throw .invalidFlow(file: definition.file, line: nil, message: "flow '\(definition.id)' asks for feedback twice")
            }
        }
        return FlowStep(yield: yield, effects: effects)
    }

    /// Hands the flow a generation request's text: the resume after a
    /// `.generate` yield. The text is remembered as finished, so a prompt
    /// that shows it shows it as it is.
    func advance(answering step: StepID?, generated text: String) throws(EngineError) -> FlowStep {
        if !generatedTexts.contains(text) { generatedTexts.append(text) }
        return try advance(answering: step, passing: .string(text))
    }

    // MARK: FlowAPI.Host

    func observe(_ observation: FlowAPI.Observation) { observer?(observation) }

    func isGeneratedText(_ text: String) -> Bool { generatedTexts.contains(text) }

    func prompt(_ spec: FlowAPI.PromptSpec) throws(LuaHostError) -> Int64 {
        // Raised at the call, so the error names the line that asks it again.
        guard !asked.contains(spec.step) else {
            throw LuaHostError("flow '\(definition.id)' asks step '\(spec.step)' twice; step ids must be unique")
        }
        // Every prompt is answered and saved: a flow may not ask more than a
        // save can hold (the same limit the save is checked against).
        guard asked.count < SessionLimits.maxAnswers else {
            throw LuaHostError("'\(spec.step)' would be question \(asked.count + 1) of this session "
                               + "(a session holds at most \(SessionLimits.maxAnswers) answers)")
        }
        return pend(.prompt(spec))
    }

    func generate(_ request: GenerationRequest) throws(LuaHostError) -> Int64 {
        guard requested.count < SessionLimits.maxAnswers || requested.contains(request.id) else {
            throw LuaHostError("generate '\(request.id)': a session holds at most \(SessionLimits.maxAnswers) generated texts")
        }
        return pend(.generate(request))
    }

    func related(_ request: RelatedRequest) throws(LuaHostError) -> Int64 {
        guard requested.count < SessionLimits.maxAnswers || requested.contains(request.id) else {
            throw LuaHostError("s:related '\(request.id)': a session holds at most \(SessionLimits.maxAnswers) requests")
        }
        return pend(.related(request))
    }

    func feedback(_ request: FeedbackRequest) throws(LuaHostError) -> Int64 {
        return pend(.feedback(request))
    }

    /// Records what the flow yields for and returns the one-time token the
    /// yield must carry (``advance(answering:passing:)`` accepts no other).
    private func pend(_ yield: FlowYield) -> Int64 {
        let token = Int64.random(in: Int64.min...Int64.max)
        pending = (token, yield)
        return token
    }

    func random(in range: ClosedRange<Int64>) -> Int64 { generator.integer(in: range) }

    func variant(_ experiment: String) throws(LuaHostError) -> String {
        if let arm = language.variants.variation(of: experiment) {
            if !readExperiments.contains(experiment) { readExperiments.append(experiment) }
            return arm
        }
        if let control = language.variants.controls[experiment] { return control }
        let known = language.variants.controls.keys.sorted()
        throw LuaHostError("s:variant: unknown experiment '\(experiment)' (" + (known.isEmpty ? "no experiments/*.yaml"
            : "known: \(known.joined(separator: ", "))") + ")")
    }

    func celebrate(tier: CelebrationTier?, reason: CelebrationReason, pool: String?, item: String?) throws(LuaHostError) {
        guard let step = answering else {
            throw LuaHostError("s:celebrate: a celebration follows an answer; call it after a prompt has returned")
        }
        var line: PoolLine?
        if let pool { line = try self.line(from: pool) }
        // One per step, reason and item: the last call wins.
        let fired = FiredCelebration(step: step, tier: tier, reason: reason, line: line, item: item)
        effects.removeAll { if case .celebration(let c) = $0 { c.isSame(as: fired) } else { false } }
        effects.append(.celebration(fired))
    }

    /// A line from a pool, chosen with the session's seeded random (a
    /// replay draws the same), never the pool's line the person saw last.
    func line(from name: String) throws(LuaHostError) -> PoolLine {
        guard let pool = LinePool(rawValue: name) else {
            throw LuaHostError("unknown line pool '\(name)' (known: \(LinePool.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let previous = facts?.progress?.lastLines.first { $0.pool == pool }?.index
        let index = pool.choose(draw: generator.integer(in: 1...Int64(pool.size)), avoiding: previous)
        guard let text = language.localizer.string(pool.key(index)) else {
            throw LuaHostError("line pool '\(name)': locale key '\(pool.key(index))' is missing")
        }
        // Screened like generated text: a pack's override is content too.
        return PoolLine(pool: pool, index: index, text: language.screen(generated: text).text)
    }

    func distortion(in text: String) throws(LuaHostError) -> DistortionDetection {
        distortionCalls += 1
        guard distortionCalls <= FlowAPILimits.maxDistortionCallsPerStep else {
            throw LuaHostError("s:distortion: called more than \(FlowAPILimits.maxDistortionCallsPerStep) times in one step")
        }
        let detection = language.detector?.detection(text) ?? .none
        if let step = answering {
            // One effect per step: the last result.
            effects.removeAll { if case .distortion(step, _, _) = $0 { true } else { false } }
            effects.append(.distortion(step: step, type: detection.type, confidence: detection.confidence))
        }
        return detection
    }

    func coach(_ record: CoachRecord) throws(LuaHostError) {
        guard let step = answering else {
            throw LuaHostError("coach records follow an answer: call this after the prompt whose answer it stores")
        }
        if case .prepMarks(let marks) = record {
            let known = Set((facts?.prepItems ?? []).map(\.id))
            if let unknown = marks.first(where: { !known.contains($0.itemID) }) {
                throw LuaHostError("s:prep_marks: '\(unknown.itemID)' is not an item of the session's Prep Library (s:facts().prep)")
            }
        }
        // One record of a kind per step: the last call wins.
        effects.removeAll { effect in
            guard case .coach(step, let old) = effect else { return false }
            switch (old, record) {
            case (.prepMarks, .prepMarks), (.cravingNote, .cravingNote): return true
            case (.prepItemAdded(_, let a), .prepItemAdded(_, let b)): return a == b
            default: return false
            }
        }
        effects.append(.coach(step: step, record: record))
    }
}

/// What one step may `print`: ``FlowAPILimits/maxPrintLinesPerStep`` lines
/// of at most ``FlowAPILimits/maxPrintBytes`` each, then one notice.
final class PrintGate: @unchecked Sendable {
    private let lock = NSLock()
    private var lines = 0

    func reset() { lock.withLock { lines = 0 } }

    /// The line to log, cut to size, or nil once the step's lines are spent.
    func pass(_ line: String) -> String? {
        let n = lock.withLock { () -> Int in
            lines += 1
            return lines
        }
        if n <= FlowAPILimits.maxPrintLinesPerStep { return FlowAPILimits.truncated(line, max: FlowAPILimits.maxPrintBytes) }
        if n == FlowAPILimits.maxPrintLinesPerStep + 1 {
            return "… (more than \(FlowAPILimits.maxPrintLinesPerStep) lines printed in this step; the rest are dropped)"
        }
        return nil
    }
}

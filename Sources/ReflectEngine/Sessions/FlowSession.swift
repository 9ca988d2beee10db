import LuaHost
import ReflectCore

/// One person going through one flow, one prompt at a time.
///
/// Lifecycle: ``open(_:language:options:resuming:lenient:)`` compiles the flow and
/// runs it to its first prompt, or, with a save, replays the saved answers
/// by step id and stops at the first unanswered prompt. ``current`` is then
/// the prompt waiting for an answer (nil once finished). ``submit(_:)``
/// takes an answer or a command:
/// - an invalid answer gives `[invalid, prompt]`: the same prompt again;
/// - a valid one is appended to ``save`` (`saved`), and the flow runs on:
///   `[saved, probe?, distortion?, prompt | done]`; if the flow fails
///   after taking it, `submit` throws and ``shownBeforeFailure`` holds
///   `[saved, safety?, probe?]`, to show before the error;
/// - `back` sets the previous answer aside as a draft and replays the flow
///   up to that question, so later texts follow edited answers; a draft is
///   offered again (``Prompt/draft``) when its step returns, and `keep`
///   accepts it;
/// - `skip` records a skip when the step is optional.
///
/// Determinism: a flow sees only the injected clock, the seeded random, its
/// answers, the facts snapshot and the generated texts its save holds, so
/// replaying the same answers reaches the same prompt.
///
/// Effects: what a step does besides asking (``FlowEffect``) is applied in
/// one place, `apply(_:live:)`. An effect fires once, when live: replay only
/// rebuilds the session's view. Generation requests are fulfilled between
/// two resumes, outside the flow's budget (``GenerationRequest``).
public final class FlowSession {
    public var definition: FlowDefinition { run.definition }
    public let sessionID: String
    // A session is used from one thread at a time (it is not Sendable), and
    // no change to one of these fields runs code that could reach the
    // session (the closures passed to their mutations are local and pure):
    // no access can overlap another, so the fields each answer touches skip
    // the runtime's exclusivity bookkeeping (`@exclusivity(unchecked)`).
    /// The answer log, drafts and everything needed to resume.
    @exclusivity(unchecked) public private(set) var save: SessionSave
    /// The prompt waiting for an answer; nil when finished.
    @exclusivity(unchecked) public private(set) var current: Prompt?
    public var isFinished: Bool { current == nil }
    /// Bytes the session's Lua state holds now (GCCOUNT).
    public var memoryInUse: Int { run.memoryInUse }
    /// Distortions the flow detected, by the step whose answer it examined.
    @exclusivity(unchecked) public private(set) var distortions: [StepID: DistortionType] = [:]
    /// The options each step offered as the last replay asked it (choices,
    /// checklists, actions; the standing prompt's too), in the session's
    /// language: what `reflect show` reads the ids of an answer stored
    /// without its options by (stored before schema v12).
    public private(set) var replayedOptions: [StepID: [PromptOption]] = [:]
    /// Receives every change as it happens (see ``SessionJournal``), held
    /// strongly. The default, ``NoJournal``, stores nothing, and a session
    /// whose journal stores nothing never reports `saved`.
    public var journal: any SessionJournal = NoJournal()
    /// What the last ``submit(_:)`` showed for its answer when the flow then
    /// failed (it threw): the answer was taken and stored all the same, so
    /// a host shows these events (`saved`, then `safety` and `probe` if any)
    /// before the error, and a crisis notice reaches the person whatever
    /// the flow does after the answer. Empty after any other submit.
    @exclusivity(unchecked) public private(set) var shownBeforeFailure: [FlowEvent] = []
    /// Generated texts recorded in the save but not yet journalled (they go
    /// with the next answer).
    @exclusivity(unchecked) private var unjournalledTexts: [GeneratedText] = []
    /// Whether the save's related entries changed since the last answer
    /// was journalled (they go with the next answer).
    @exclusivity(unchecked) private var unjournalledRecall = false

    private let source: FlowSource
    /// The language the session runs in (strings, word lists).
    public let language: Language
    private let options: SessionOptions
    @exclusivity(unchecked) private var run: FlowRun
    @exclusivity(unchecked) private var spec: FlowAPI.PromptSpec?
    private var lenient = false
    /// The exposures the standing prompt carries (from the drive that
    /// reached it), for ``begin()`` and going back.
    @exclusivity(unchecked) private var standingExposures: [VariantAssignment] = []

    /// Opens a session, replaying `save` if given.
    /// - Throws: ``EngineError``: `.lua` (syntax, runtime, budget, memory,
    ///   with file and line), `.invalidFlow`, `.flowChanged` when the save no
    ///   longer fits the flow, `.invalidSave`.
    /// - Parameter lenient: for live editing (`reflect dev`): when the flow
    ///   no longer fits the save, stop the replay there and keep the rest of
    ///   the answers as drafts instead of failing with `.flowChanged`.
    public static func open(_ source: FlowSource, language: Language = .none, options: SessionOptions,
                            resuming save: SessionSave? = nil, lenient: Bool = false) throws(EngineError) -> FlowSession {
        if let save {
            do { try save.validate() } catch { throw .invalidSave(error) }
        }
        let clock = save.flatMap { FlowClock(iso8601: $0.now) } ?? options.clock
        let seed = save?.seed ?? options.seed
        let mood = save?.mood ?? options.mood
        // A new session snapshots the facts; a resumed one keeps its snapshot.
        let facts = save == nil ? options.facts : save?.facts
        let run = try FlowRun(source: source, language: language, options: options, seed: seed, clock: clock, mood: mood,
                              facts: facts)
        if let save, save.flow != run.definition.id {
            throw .invalidSave(SaveValidationError(field: "flow", reason: "save is for '\(save.flow)', not '\(run.definition.id)'"))
        }
        let fresh = SessionSave(flow: run.definition.id, flowVersion: run.definition.version, seed: seed,
                                now: clock.iso8601, locale: language.tag, mood: mood, facts: facts,
                                variants: language.variants.assignments)
        let session = FlowSession(source: source, language: language, options: options, run: run, save: save ?? fresh)
        session.lenient = lenient
        try session.replay()
        return session
    }

    private init(source: FlowSource, language: Language, options: SessionOptions, run: FlowRun, save: SessionSave) {
        self.source = source
        self.language = language
        self.options = options
        self.run = run
        self.save = save
        self.sessionID = options.sessionID
    }

    /// What a host shows when it opens the session, with the journal set:
    /// records the standing prompt's experiment exposures that this session
    /// has not recorded yet (``SessionJournal/exposed(_:)``), then
    /// returns their `variant` events and ``openingEvents``.
    /// - Throws: `.journal` when the exposures cannot be recorded (nothing
    ///   is shown then).
    public func begin() throws(EngineError) -> [FlowEvent] {
        try exposeStanding() + openingEvents
    }

    /// What a host shows when it opens the session: the standing prompt, or
    /// `done` when the replay reached the end. Records no exposure (see
    /// ``begin()``).
    public var openingEvents: [FlowEvent] {
        current.map { [.prompt($0)] } ?? [.done(summary)] + (feedback.map { [.feedback($0)] } ?? [])
    }

    /// The feedback the save holds (`s:feedback`), nil when there is none
    /// (no provider, or the flow asks for none).
    public var feedback: SessionFeedback? {
        // Each slot needs a text of its own: fewer texts, no feedback.
        guard save.generated.count >= FeedbackRequest.Slot.allCases.count else { return nil }
        let slots = FeedbackRequest.Slot.allCases.map { slot in save.generated.first { $0.id == slot.id } }
        guard let a = slots[0], let o = slots[1], let t = slots[2] else { return nil }
        return SessionFeedback(session: sessionID, affirmation: a.text, observation: o.text, takeaway: t.text,
                               generated: slots.contains { $0?.generated == true })
    }

    /// The intensity steps a summary reports.
    private static let preStep: StepID = "pre", postStep: StepID = "post"

    public var summary: DoneSummary {
        func intensity(_ step: StepID) -> Int? {
            save.answers.last { $0.step == step }.flatMap { if case .integer(let i) = $0.value { i } else { nil } }
        }
        return DoneSummary(session: sessionID, pre: intensity(Self.preStep), post: intensity(Self.postStep))
    }

    /// Answers the current prompt, or runs a command. See the type's
    /// documentation for the events each case produces.
    public func submit(_ input: AnswerInput) throws(EngineError) -> [FlowEvent] {
        shownBeforeFailure = []
        // Only the spec's probe flag is read here (no copy of the spec).
        guard let prompt = current, let probes = spec?.probe else { throw .sessionFinished }
        let value: AnswerValue
        switch input {
        case .command(.back):
            return try goBack()
        case .command(.quit):
            return []
        case .command(.keep):
            guard let draft = prompt.draft else {
                return [.invalid(step: prompt.step, code: InvalidAnswer.noDraft.code, message: language.message(for: .noDraft)),
                        .prompt(prompt)]
            }
            value = draft
        default:
            // Only yes/no, checklist and action answers are read with the
            // language's answer words (``PromptShape/validate(_:)``).
            let readsWords: Bool
            switch prompt.kind {
            case .yesNo, .checklist, .action, .message: readsWords = true
            default: readsWords = false
            }
            let words = readsWords ? language.localizer.answerWords : AnswerWords()
            switch prompt.shape(words: words).validate(input) {
            case .failure(let invalid):
                return try refused(input, at: prompt, invalid)
            case .success(let v):
                value = v
            }
        }
        let recorded = RecordedAnswer(step: prompt.step, value: value)
        // Every answer passes the safety gate before the flow goes on.
        var flag: SafetyCategory?
        if case .text(let text) = value, case .crisis(let category) = run.screen(text) { flag = category }
        // What the save was, to put back if the journal refuses the answer
        // (kept as parts, not a copy of the save: appending to an answer
        // list another copy shares would copy the list).
        let before = SaveUndo(save)
        // Room for a session's usual answers at once (not regrown 1, 2, 4, 8).
        if save.answers.isEmpty { save.answers.reserveCapacity(16) }
        save.answers.append(recorded)
        if save.drafts.contains(where: { $0.step == prompt.step }) { save.drafts.removeAll { $0.step == prompt.step } }
        save.flowVersion = definition.version
        // No "could you be more specific?" after a crisis notice.
        let probed = flag == nil && probes && { if case .text(let text) = value { language.probe?.isVague(text) == true } else { false } }()
        // The flow computes what the answer leads to (distortion, next
        // prompt) first; then the answer and all of that are journalled in
        // one go, before anything is shown. If the journal fails, the
        // session goes back to this prompt.
        var outcome = AnswerOutcome(safety: flag, probed: probed)
        if case .text(let text) = value { outcome.themes = language.themes.themes(in: text) }
        let driven: (next: FlowAPI.PromptSpec?, effects: [FlowEffect])
        // The verdict is the one just given (`flag` is nil exactly when the text passed).
        do { driven = try drive(answering: prompt.step, passing: FlowAPI.luaValue(value, flagged: flag != nil)) } catch {
            // The flow failed after a valid answer: the answer is still kept.
            outcome.generated = unjournalledTexts
            if unjournalledRecall { outcome.recalled = save.recalled }
            do { try journal.answered(recorded, position: save.answers.count - 1, prompt: prompt, outcome: outcome) } catch let journalError {
                try rewind(to: before)
                throw EngineError.journal("\(journalError)")
            }
            unjournalledTexts = []
            unjournalledRecall = false
            shownBeforeFailure = answerEvents(prompt.step, flag: flag, probed: probed)
            throw error
        }
        for case .distortion(let step, let type, _) in driven.effects { outcome.distortions.append((step, type)) }
        let effects = grantCelebrations(driven.effects)
        for case .coach(_, let record) in effects { outcome.coach.append(record) }
        for case .celebration(let fired) in effects { outcome.celebrations.append(fired) }
        outcome.exposures = newExposures(in: effects)
        outcome.generated = unjournalledTexts
        if unjournalledRecall { outcome.recalled = save.recalled }
        if driven.next == nil { outcome.finished = summary }
        do {
            try journal.answered(recorded, position: save.answers.count - 1, prompt: prompt, outcome: outcome)
        } catch {
            try rewind(to: before)
            throw EngineError.journal("\(error)")
        }
        unjournalledTexts = []
        unjournalledRecall = false
        var events = answerEvents(prompt.step, flag: flag, probed: probed)
        events += apply(effects, live: true)
        show(driven.next)
        if let current {
            events.append(.prompt(current))
            return events
        }
        return events + openingEvents
    }

    /// What a refused answer shows: the reason and the same prompt again.
    /// Refused text (words at a message or an action, a sentence at a
    /// number) is the person's words all the same: it passes the crisis
    /// gate like an answer, and on a crisis verdict the notice comes first
    /// and the verdict is journalled as at the pause (the category and the
    /// time against the step, never the text, which is not kept anywhere).
    private func refused(_ input: AnswerInput, at prompt: Prompt, _ invalid: InvalidAnswer) throws(EngineError) -> [FlowEvent] {
        var events: [FlowEvent] = []
        if case .text(let text) = input, case .crisis(let category) = run.screen(text) {
            try record { try $0.flaggedAtPause(category, step: prompt.step) }
            events.append(.safety(notice(category, step: prompt.step)))
        }
        events.append(.invalid(step: prompt.step, code: invalid.code, message: language.message(for: invalid)))
        events.append(.prompt(prompt))
        return events
    }

    /// What a taken answer shows first: `saved` (when the journal persists),
    /// the safety notice for a flagged answer, the specificity probe.
    private func answerEvents(_ step: StepID, flag: SafetyCategory?, probed: Bool) -> [FlowEvent] {
        var events: [FlowEvent] = journal.persists ? [.saved(session: sessionID, step: step)] : []
        if let flag { events.append(.safety(notice(flag, step: step))) }
        if probed { events.append(.probe(step: step, text: language.string(.probeSpecificity))) }
        return events
    }

    /// Puts the session back where it was before an answer that could not
    /// be taken: the save as it was, the flow replayed up to its prompt.
    private func rewind(to before: SaveUndo) throws(EngineError) {
        before.restore(&save)
        run = try FlowRun(source: source, language: language, options: options, seed: save.seed,
                          clock: FlowClock(iso8601: save.now) ?? options.clock, mood: save.mood, facts: save.facts)
        try replay()
    }

    // MARK: - Running and effects

    /// Resumes the flow with `value` (nothing when nil: the first resume)
    /// and runs it to its next prompt (nil: its end), fulfilling generation
    /// requests on the way. Returns every effect of the way, to be applied
    /// by the caller.
    private func drive(answering step: StepID?, passing value: LuaValue?) throws(EngineError)
        -> (next: FlowAPI.PromptSpec?, effects: [FlowEffect]) {
        var ruleEffects: [FlowEffect] = []
        if let step, let answer = value { ruleEffects = try run.afterAnswer(step, answer) }
        var done = try run.advance(answering: step, passing: value)
        var effects = ruleEffects + done.effects
        loop: while true {
            switch done.yield {
            case .generate(let request)?:
                done = try run.advance(answering: step, generated: fulfil(request))
            case .feedback(let request)?:
                fulfil(request)
                done = try run.advance(answering: step, passing: nil)
            case .related(let request)?:
                done = try run.advance(answering: step, passing: FlowAPI.relatedTable(fulfil(request)))
            default:
                break loop
            }
            effects += done.effects
        }
        guard case .prompt(let spec)? = done.yield else { return (nil, effects) }
        return (spec, effects)
    }

    /// The text for a generation request: the one the save recorded for the
    /// same basis (replay never asks a provider again), else the provider's
    /// within the request's timeout (``GenerationDeadline``) if it passes
    /// the engine's checks (``GeneratedTextScreen``; for a final question,
    /// its rules too), else the fallback. A new text is recorded in the save
    /// at once and journalled with the next answer.
    private func fulfil(_ request: GenerationRequest) -> String {
        let basis = request.basis
        if let recorded = save.generated.first(where: { $0.id == request.id }), recorded.basis == basis { return recorded.text }
        // New, or its inputs changed (an answer was edited after going back).
        var result = GeneratedText(id: request.id, text: request.fallback, generated: false, basis: basis)
        if let generator = options.generator {
            let asked = contextualised(request)
            if case .success(let reply) = GenerationDeadline.run(timeout: request.timeout, { try await generator.generate(asked) }) {
                let text = reply.trimmingCharacters(in: .whitespacesAndNewlines)
                if let refused = problem(with: text, for: asked) {
                    result.refused = refused
                } else {
                    result = GeneratedText(id: request.id, text: text, generated: true, basis: basis)
                }
            }
        }
        record(result)
        return result.text
    }

    /// The entries for a related-entries request: the ones the save recorded
    /// for the same basis (replay never searches again), else the host's
    /// (``SessionOptions/relatedEntries``), leaving out any the safety gate
    /// flags now (an entry written before a phrase was on its lists); none
    /// when there is no host, it fails, or there is nothing to search for.
    /// New entries are recorded in the save at once and journalled with the
    /// next answer.
    private func fulfil(_ request: RelatedRequest) -> [RelatedEntry] {
        let basis = request.basis
        if let recorded = save.recalled.first(where: { $0.id == request.id }), recorded.basis == basis { return recorded.entries }
        var entries: [RelatedEntry] = []
        if !request.text.isEmpty, let source = options.relatedEntries,
           let found = try? source.relatedEntries(to: request.text, now: save.now, excluding: sessionID, limit: request.limit) {
            entries = Array(found.filter { $0.text.utf8.count <= SessionSave.maxTextBytes && run.screen($0.text) == .ok }
                .prefix(request.limit))
        }
        let recalled = RecalledEntries(id: request.id, basis: basis, entries: entries)
        save.recalled.removeAll { $0.id == request.id }
        save.recalled.append(recalled)
        unjournalledRecall = true
        return entries
    }

    /// The celebrations among `effects` as they fire: none when the person
    /// turned celebrations off; none that already fired in this session
    /// (the same step and reason: going back over the answer that earned
    /// it, then answering again); the rest through the rate limit
    /// (``CelebrationLimit``), and recorded in the save at once.
    private func grantCelebrations(_ effects: [FlowEffect]) -> [FlowEffect] {
        effects.compactMap { effect in
            guard case .celebration(var fired) = effect else { return effect }
            guard options.celebrations,
                  !save.celebrations.contains(where: { $0.isSame(as: fired) }) else { return nil }
            fired.tier = fired.tier.map { CelebrationLimit.granted($0, shown: save.celebrations.compactMap(\.tier)) }
            save.celebrations.append(fired)
            return .celebration(fired)
        }
    }

    /// Feedback slots: the provider's texts within one shared timeout, each
    /// checked; a slot without one takes the offline template's text. With
    /// no provider, nothing.
    private func fulfil(_ request: FeedbackRequest) {
        guard let generator = options.generator else { return }
        var request = request
        if let final = request.finalQuestion {
            request.context.personalised = save.generated.first { $0.id == final }?.generated ?? false
        }
        let template = TemplateGenerator(language: language)
        var pending: [(FeedbackRequest.Slot, GenerationRequest)] = []
        for slot in FeedbackRequest.Slot.allCases {
            let fallback = (try? template.text(for: contextualised(request.request(slot, fallback: "")))) ?? ""
            let slotRequest = request.request(slot, fallback: fallback)
            if let recorded = save.generated.first(where: { $0.id == slot.id }), recorded.basis == slotRequest.basis { continue }
            pending.append((slot, slotRequest))
        }
        guard !pending.isEmpty else { return }
        var replies: [String?] = Array(repeating: nil, count: pending.count)
        if generator is TemplateGenerator {
            // The fallback is the template's text already.
        } else {
            let asked = pending.map { contextualised($0.1) }
            if case .success(let got) = GenerationDeadline.run(timeout: request.timeout, {
                await withTaskGroup(of: (Int, String?).self) { group in
                    for (i, r) in asked.enumerated() { group.addTask { (i, try? await generator.generate(r)) } }
                    var out: [String?] = Array(repeating: nil, count: asked.count)
                    for await (i, text) in group { out[i] = text }
                    return out
                }
            }) { replies = got }
        }
        for (i, (_, slotRequest)) in pending.enumerated() {
            var result = GeneratedText(id: slotRequest.id, text: slotRequest.fallback, generated: generator is TemplateGenerator,
                                       basis: slotRequest.basis)
            if let reply = replies[i]?.trimmingCharacters(in: .whitespacesAndNewlines) {
                if let refused = problem(with: reply, for: slotRequest) {
                    result.refused = refused
                } else {
                    result.text = reply
                    result.generated = true
                }
            }
            guard !result.text.isEmpty else { continue }
            record(result)
        }
    }

    /// The request as a provider sees it: with the session's mood, locale and personality.
    private func contextualised(_ request: GenerationRequest) -> GenerationRequest {
        var r = request
        r.context.mood = r.context.mood ?? save.mood
        r.context.locale = language.tag
        r.context.personality = language.personality
        return r
    }

    /// Why a provider's text may not be shown (a reason code), or nil.
    private func problem(with text: String, for request: GenerationRequest) -> String? {
        guard !text.isEmpty else { return "rule.empty" }
        guard text.utf8.count <= SessionLimits.maxPromptTextBytes else { return "rule.too_long" }
        let screen = GeneratedTextScreen(language: language, region: region, prompts: options.prompts)
        if let reason = screen.screen(text, context: request.inputs.joined(separator: "\n")).reason { return reason }
        if request.purpose == GenerationRequest.Purpose.finalQuestion {
            return screen.finalQuestionProblem(text, inputs: request.inputs)
        }
        return nil
    }

    private func record(_ text: GeneratedText) {
        save.generated.removeAll { $0.id == text.id }
        unjournalledTexts.removeAll { $0.id == text.id }
        save.generated.append(text)
        unjournalledTexts.append(text)
    }

    /// Applies effects in one place. Replaying (`live == false`) only
    /// rebuilds what the session knows; live, each effect also becomes an
    /// event (it was journalled with its answer before this is called).
    private func apply(_ effects: [FlowEffect], live: Bool) -> [FlowEvent] {
        var events: [FlowEvent] = []
        standingExposures = []
        for effect in effects {
            switch effect {
            case .distortion(let step, let type, let confidence):
                distortions[step] = type
                if live { events.append(.distortion(step: step, type: type, confidence: confidence)) }
            case .coach:
                // Journalled with its answer; nothing to rebuild, no event.
                break
            case .exposure(let step, let experiment, let variation):
                // Replay only remembers what the standing prompt carries;
                // live, the first of each experiment in this session is announced.
                standingExposures.append(VariantAssignment(experiment: experiment, variation: variation))
                if live, !save.exposed.contains(experiment) {
                    save.exposed.append(experiment)
                    events.append(.variant(step: step, experiment: experiment, variation: variation))
                }
            case .celebration(let fired):
                // Replay rebuilds nothing: what fired is in the save.
                if live { events.append(.celebration(fired)) }
            }
        }
        return events
    }

    /// Exposures among `effects` this session has not recorded yet, one per experiment.
    private func newExposures(in effects: [FlowEffect]) -> [VariantAssignment] {
        var out: [VariantAssignment] = []
        for case .exposure(_, let experiment, let variation) in effects
        where !save.exposed.contains(experiment) && !out.contains(where: { $0.experiment == experiment }) {
            let chosen = save.variants.first { $0.experiment == experiment }
            out.append(VariantAssignment(experiment: experiment, variation: variation, bucketVersion: chosen?.bucketVersion ?? 0,
                                         seed: chosen?.seed))
        }
        return out
    }

    /// Records and announces the standing prompt's new exposures.
    private func exposeStanding() throws(EngineError) -> [FlowEvent] {
        guard let prompt = current else { return [] }
        let fresh = newExposures(in: standingExposures.map { .exposure(step: prompt.step, experiment: $0.experiment, variation: $0.variation) })
        guard !fresh.isEmpty else { return [] }
        try record { try $0.exposed(fresh) }
        save.exposed += fresh.map(\.experiment)
        return fresh.map { .variant(step: prompt.step, experiment: $0.experiment, variation: $0.variation) }
    }

    // MARK: - Replay and back

    /// Runs to the first prompt, feeding saved answers in order. Each saved
    /// answer must belong to the step the flow asks at that point and fit
    /// its shape; otherwise the flow changed under the save.
    private func replay() throws(EngineError) {
        var driven = try drive(answering: nil, passing: nil)
        _ = apply(driven.effects, live: false)
        var next = driven.next
        for (i, recorded) in save.answers.enumerated() {
            if lenient, let asked = next {
                let shape = asked.shape
                if asked.step != recorded.step || !shape.accepts(recorded.value) {
                    // The flow changed here: what was answered from here on waits as drafts.
                    let rest = save.answers[i...]
                    save.answers.removeSubrange(i...)
                    save.drafts.removeAll { d in rest.contains { $0.step == d.step } }
                    save.drafts += rest
                    trimDrafts()
                    break
                }
            }
            guard let asked = next else {
                throw .flowChanged(step: recorded.step,
                                   message: "flow changed: step '\(recorded.step)' no longer exists (the flow now ends before it)")
            }
            guard asked.step == recorded.step else {
                // A step was removed, or one was inserted before this answer:
                // replay cannot tell which without guessing, and guessing
                // could put an answer under the wrong question.
                throw .flowChanged(step: recorded.step, message:
                    "flow changed: step '\(recorded.step)' no longer exists at this point (the flow now asks '\(asked.step)' here)")
            }
            if !asked.options.isEmpty { replayedOptions[asked.step] = asked.options }
            let shape = asked.shape
            guard shape.accepts(recorded.value) else {
                throw .flowChanged(step: recorded.step,
                                   message: "flow changed: the saved answer to '\(recorded.step)' does not fit its \(asked.kind.rawValue) question any more")
            }
            driven = try drive(answering: recorded.step, passing: FlowAPI.luaValue(recorded.value, language: language, screen: run.screen))
            _ = apply(driven.effects, live: false)
            next = driven.next
        }
        if let next, !next.options.isEmpty { replayedOptions[next.step] = next.options }
        show(next)
    }

    private func goBack() throws(EngineError) -> [FlowEvent] {
        guard let last = save.answers.popLast() else {
            let step = current?.step ?? "start"
            return [.invalid(step: step, code: InvalidAnswer.backAtStart.code, message: language.message(for: .backAtStart))] + openingEvents
        }
        save.drafts.removeAll { $0.step == last.step }
        save.drafts.append(last)
        trimDrafts()
        try record { try $0.wentBack(from: last.step) }
        distortions[last.step] = nil
        run = try FlowRun(source: source, language: language, options: options, seed: save.seed,
                          clock: FlowClock(iso8601: save.now) ?? options.clock, mood: save.mood, facts: save.facts)
        try replay()
        return try exposeStanding() + openingEvents
    }

    /// A save holds at most ``SessionLimits/maxAnswers`` drafts (the limit
    /// it is loaded with): the oldest go first.
    private func trimDrafts() {
        let excess = save.drafts.count - SessionLimits.maxAnswers
        if excess > 0 { save.drafts.removeFirst(excess) }
    }

    private func show(_ next: FlowAPI.PromptSpec?) {
        spec = next
        guard let next else {
            current = nil
            return
        }
        // Built in place (no copy of the prompt into `current`).
        current = Prompt(session: sessionID, step: next.step, index: run.countedSoFar, total: definition.total, kind: next.kind,
                         text: next.text, options: next.options, hint: next.hint, required: next.required, counted: next.counted,
                         scale: next.scale, maxCharacters: next.maxCharacters)
        if let draft = save.drafts.last(where: { $0.step == next.step }), current?.shape.accepts(draft.value) == true {
            current?.draft = draft.value
        }
    }

    /// Screens a text the person typed after a crisis notice, at its offer
    /// to pause (``SafetyNotice/pause``): not an answer to any question, but
    /// their words all the same, so it passes the same gate as an answer
    /// (the session's locale chain). On a crisis verdict the journal records
    /// the category and the time against the notice's step, as for a
    /// flagged answer (never the text, which is not an answer and is not
    /// stored: docs/safety.md, "Text typed at the pause"), and the notice for
    /// that category is returned, to be shown again with its resources
    /// before the offer is repeated. nil when the text is not a crisis.
    /// The flow never receives the text; what is legal next is unchanged
    /// (the current prompt still waits for its answer).
    public func screenAtPause(_ text: String, after shown: SafetyNotice) throws(EngineError) -> SafetyNotice? {
        guard case .crisis(let category) = run.screen(text) else { return nil }
        try record { try $0.flaggedAtPause(category, step: shown.step) }
        return notice(category, step: shown.step)
    }

    /// The region whose crisis lines are shown.
    public var region: String { options.region ?? language.defaultRegion }

    private func notice(_ category: SafetyCategory, step: StepID) -> SafetyNotice {
        SafetyNotice(step: step, category: category,
                     text: language.safetyMessage(for: category) ?? language.string(.safetyMessage),
                     resources: language.resources(for: region, category: category), region: region,
                     pause: language.string(.safetyPause))
    }

    private func record(_ change: (any SessionJournal) throws -> Void) throws(EngineError) {
        do { try change(journal) } catch { throw .journal("\(error)") }
    }
}

/// What ``FlowSession/submit(_:)`` may change in the save before the
/// journal takes its answer, kept to put the save back exactly as it was
/// when the journal refuses it: the answer appended, the step's draft
/// removed, the flow's version, and what running the flow on records (texts
/// `s:generate` and `s:feedback` got, related entries, celebrations).
/// Nothing else of the save changes before the journal has the answer
/// (exposures are recorded after it).
///
/// The answers are only appended to, so their count is kept: holding the
/// list itself would make the append copy it. The other lists are held as
/// they were; one that changes is copied then, once.
private struct SaveUndo {
    let answerCount: Int
    let drafts: [RecordedAnswer]
    let flowVersion: Int
    let generated: [GeneratedText]
    let recalled: [RecalledEntries]
    let celebrations: [FiredCelebration]

    init(_ save: SessionSave) {
        answerCount = save.answers.count
        drafts = save.drafts
        flowVersion = save.flowVersion
        generated = save.generated
        recalled = save.recalled
        celebrations = save.celebrations
    }

    func restore(_ save: inout SessionSave) {
        save.answers.removeSubrange(answerCount...)
        save.drafts = drafts
        save.flowVersion = flowVersion
        save.generated = generated
        save.recalled = recalled
        save.celebrations = celebrations
    }
}

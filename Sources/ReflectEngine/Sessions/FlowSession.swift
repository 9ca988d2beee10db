import LuaHost
import ReflectCore

/// One person going through one flow: a coroutine in its own sandboxed
/// state, driven one prompt at a time.
///
/// Lifecycle: ``open(_:options:resuming:)`` compiles the flow, runs it up to
/// its first prompt, or, with a save, replays the saved answers by step id
/// and stops at the first unanswered prompt. Then ``current`` is the prompt
/// waiting for an answer (nil once finished). ``submit(_:)`` validates an
/// answer: an invalid one produces an `invalid` event and leaves the same
/// prompt standing; a valid one is appended to ``save`` (a `saved` event)
/// and the flow runs on to its next prompt or to `done`.
///
/// Determinism: a flow sees only the injected clock and seeded random
/// draws, so replaying the same answers reaches the same state.
public final class FlowSession {
    public let definition: FlowDefinition
    public let sessionID: String
    /// The answer log and everything needed to resume.
    public private(set) var save: SessionSave
    /// The prompt waiting for an answer; nil when finished.
    public private(set) var current: Prompt?
    public var isFinished: Bool { current == nil }

    private let lua: LuaState
    private let coroutine: LuaCoroutine
    private let bridge: Bridge

    /// Opens a session on a flow source, replaying `save` if given.
    /// - Throws: ``EngineError`` — `.lua` for syntax/runtime/budget/memory
    ///   errors with file and line, `.invalidFlow` when the file does not
    ///   declare a flow, `.flowChanged` when the save no longer fits it.
    public static func open(_ source: FlowSource, options: SessionOptions, resuming save: SessionSave? = nil) throws(EngineError) -> FlowSession {
        var options = options
        if let save {
            do { try save.validate() } catch { throw .invalidSave(error) }
            options.seed = save.seed
            if let clock = FlowClock(iso8601: save.now) { options.clock = clock }
        }
        let bridge = Bridge(clock: options.clock, seed: options.seed)
        let lua: LuaState
        let definition: FlowDefinition
        let coroutine: LuaCoroutine
        do {
            lua = try LuaState(limits: options.limits, seed: options.seed, print: options.log)
            try FlowAPI.install(in: lua, host: bridge)
            let chunk = try lua.load(source.text, as: source.name)
            definition = try FlowDefinition.parse(try lua.call(chunk).first, file: source.name)
            let boot = try lua.load("local run = ...\nreturn function() return run(require('\(FlowAPI.sessionModule)')) end",
                                    as: "reflect:session")
            guard let body = try lua.call(boot, [.function(definition.run)]).first?.functionValue else {
                throw EngineError.invalidFlow(file: source.name, line: nil, message: "cannot start the flow")
            }
            coroutine = try lua.makeCoroutine(body)
        } catch let e as LuaError {
            throw .lua(e)
        } catch let e as EngineError {
            throw e
        } catch {
            throw .invalidFlow(file: source.name, line: nil, message: "\(error)")
        }
        if let save, save.flow != definition.id {
            throw .invalidSave(SaveValidationError(field: "flow", reason: "save is for '\(save.flow)', not '\(definition.id)'"))
        }
        let session = FlowSession(definition: definition, options: options, lua: lua, coroutine: coroutine, bridge: bridge,
                                  save: save ?? SessionSave(flow: definition.id, flowVersion: definition.version,
                                                            seed: options.seed, now: options.clock.iso8601))
        try session.replay()
        return session
    }

    private init(definition: FlowDefinition, options: SessionOptions, lua: LuaState, coroutine: LuaCoroutine,
                 bridge: Bridge, save: SessionSave) {
        self.definition = definition
        self.sessionID = options.sessionID
        self.lua = lua
        self.coroutine = coroutine
        self.bridge = bridge
        self.save = save
    }

    deinit { lua.close() }

    /// The events a host shows when it opens the session: the standing
    /// prompt, or `done` when the replay reached the end.
    public var openingEvents: [FlowEvent] {
        current.map { [.prompt($0)] } ?? [.done(session: sessionID)]
    }

    /// Answers the current prompt.
    /// - Returns: `[invalid]` (prompt unchanged), or `[saved, prompt]`, or
    ///   `[saved, done]`.
    public func submit(_ input: AnswerInput) throws(EngineError) -> [FlowEvent] {
        guard let prompt = current else { throw .sessionFinished }
        switch prompt.kind.validate(input) {
        case .failure(let invalid):
            return [.invalid(step: prompt.step, message: invalid.message)]
        case .success(let value):
            save.answers.append(RecordedAnswer(step: prompt.step, value: value))
            save.flowVersion = definition.version
            var events: [FlowEvent] = [.saved(session: sessionID, step: prompt.step)]
            try advance(with: [FlowAPI.luaValue(value)])
            events += openingEvents
            return events
        }
    }

    // MARK: - Driving the coroutine

    /// Runs to the first prompt, feeding saved answers in order. A saved
    /// answer must belong to exactly the step the flow asks at that point;
    /// anything else means the flow changed under the save.
    private func replay() throws(EngineError) {
        try advance(with: [])
        for recorded in save.answers {
            guard let prompt = current else {
                throw .flowChanged(step: recorded.step,
                                   message: "flow changed: step '\(recorded.step)' no longer exists (the flow now ends before it)")
            }
            guard prompt.step == recorded.step else {
                // A step was removed, or one was inserted before this answer:
                // replay cannot tell which without guessing, and guessing
                // could put an answer under the wrong question.
                throw .flowChanged(step: recorded.step, message:
                    "flow changed: step '\(recorded.step)' no longer exists at this point (the flow now asks '\(prompt.step)' here)")
            }
            guard prompt.kind.accepts(recorded.value) else {
                throw .flowChanged(step: recorded.step,
                                   message: "flow changed: the saved answer to '\(recorded.step)' does not fit a \(prompt.kind.rawValue) step")
            }
            try advance(with: [FlowAPI.luaValue(recorded.value)])
        }
    }

    private func advance(with values: [LuaValue]) throws(EngineError) {
        bridge.pending = nil
        let result: LuaResumeResult
        do { result = try lua.resume(coroutine, with: values) } catch { throw .lua(error) }
        switch result {
        case .returned:
            current = nil
        case .yielded:
            guard let pending = bridge.pending else {
                throw .invalidFlow(file: definition.file, line: nil,
                                   message: "flow '\(definition.id)' yielded without asking anything (use s:ask and friends, not coroutine.yield)")
            }
            if bridge.asked.contains(pending.step) {
                throw .invalidFlow(file: definition.file, line: nil,
                                   message: "flow '\(definition.id)' asks step '\(pending.step)' twice; step ids must be unique")
            }
            bridge.asked.insert(pending.step)
            if pending.kind != .message { bridge.questionsShown += 1 }
            current = Prompt(session: sessionID, step: pending.step, index: max(bridge.questionsShown, 1),
                             total: definition.total, kind: pending.kind, text: pending.text)
        }
    }

    /// The Lua API's view of this session.
    private final class Bridge: FlowAPI.Host {
        struct Pending { var step: StepID; var kind: PromptKind; var text: String }
        var pending: Pending?
        var asked = Set<StepID>()
        /// Progress counts questions; a message keeps the last question's index.
        var questionsShown = 0
        let clock: FlowClock
        var generator: SeededRandom

        init(clock: FlowClock, seed: UInt64) {
            self.clock = clock
            self.generator = SeededRandom(seed: seed)
        }

        func prompt(_ step: StepID, kind: PromptKind, text: String) throws(LuaHostError) {
            pending = Pending(step: step, kind: kind, text: text)
        }

        func random(in range: ClosedRange<Int64>) -> Int64 { generator.integer(in: range) }
    }
}

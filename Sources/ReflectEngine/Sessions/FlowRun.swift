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
    private let lua: LuaState
    private let coroutine: LuaCoroutine
    private var generator: SeededRandom
    private let observer: (@Sendable (FlowAPI.Observation) -> Void)?
    private var pending: FlowAPI.PromptSpec?
    private var asked = Set<StepID>()
    /// Counted questions shown so far (progress index).
    private(set) var counted = 0
    /// Events are produced only when live (not while replaying).
    var live = false
    private(set) var events: [FlowEvent] = []
    /// The step whose answer the flow is now working with.
    var lastAnswered: StepID?
    private(set) var distortions: [StepID: DistortionType] = [:]

    init(source: FlowSource, language: Language, options: SessionOptions, seed: UInt64, clock: FlowClock, mood: Mood?) throws(EngineError) {
        self.language = language
        self.clock = clock
        self.mood = mood
        generator = SeededRandom(seed: seed)
        observer = options.observer
        do {
            lua = try LuaState(limits: options.limits, seed: seed, print: options.log)
        } catch {
            throw .lua(error)
        }
        // `definition` and `coroutine` are set below; the API needs `self`
        // only once the flow runs.
        var def: FlowDefinition?
        var co: LuaCoroutine?
        do {
            try FlowAPI.installDeclarations(in: lua)
            let chunk = try lua.load(source.text, as: source.name)
            let d = try FlowDefinition.parse(try lua.call(chunk).first, file: source.name)
            let boot = try lua.load("local run = ...\nreturn function() return run(require('\(FlowAPI.sessionModule)')) end",
                                    as: "reflect:session")
            guard let body = try lua.call(boot, [.function(d.run)]).first?.functionValue else {
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
        do { try FlowAPI.installSession(in: lua, host: self) } catch { throw .lua(error) }
    }

    deinit { lua.close() }

    var memoryInUse: Int {
        lua.collectGarbage()
        return lua.gcCount
    }

    /// Resumes the flow with an answer (nothing on the first call). Returns
    /// the next prompt, or nil when the flow finished.
    func advance(with values: [LuaValue]) throws(EngineError) -> FlowAPI.PromptSpec? {
        pending = nil
        events.removeAll()
        let result: LuaResumeResult
        do { result = try lua.resume(coroutine, with: values) } catch { throw .lua(error) }
        guard case .yielded = result else { return nil }
        guard let spec = pending else {
            throw .invalidFlow(file: definition.file, line: nil,
                               message: "flow '\(definition.id)' yielded without asking anything (use s:ask and friends, not coroutine.yield)")
        }
        guard asked.insert(spec.step).inserted else {
            throw .invalidFlow(file: definition.file, line: nil,
                               message: "flow '\(definition.id)' asks step '\(spec.step)' twice; step ids must be unique")
        }
        if spec.counted { counted += 1 }
        return spec
    }

    // MARK: FlowAPI.Host

    func observe(_ observation: FlowAPI.Observation) { observer?(observation) }

    func prompt(_ spec: FlowAPI.PromptSpec) throws(LuaHostError) {
        pending = spec
    }

    func random(in range: ClosedRange<Int64>) -> Int64 { generator.integer(in: range) }

    func distortion(in text: String) -> DistortionType {
        let type = language.detector?.detect(text) ?? .unknown
        if let step = lastAnswered {
            distortions[step] = type
            if live { events.append(.distortion(step: step, type: type)) }
        }
        return type
    }
}

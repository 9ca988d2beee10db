import LuaHost
import ReflectCore

/// The Lua API a flow sees; docs/flow-api.md is its reference.
///
/// - `flow { id, version, run [, title, moods, total] }` declares the flow.
/// - In `run(s)`, prompts: `s:ask`, `s:intensity`, `s:number`, `s:yesno`, `s:choose`,
///   `s:choose_many`, `s:checklist`, `s:action`, `s:message`. Each takes
///   `{ id, text [, args, fallback, options | items, hint, required,
///   progress, probe] }`, shows one prompt, and returns the validated answer
///   (nil when skipped).
/// - Helpers: `s:quote(text)`, `s:text(key, ...)`, `s:distortion(text)`,
///   `s:mood()`, `s:locale()`, `s:now()`, `s:random(m, n)`.
///
/// An answer quoted through `args` that is empty, or nothing but a vague
/// phrase of the locale ("idk"), switches the prompt to its `fallback`.
///
/// `text`, `fallback`, option texts and `hint` are locale keys when they
/// look like one (`reflection.negative.q1`); a key missing from every
/// locale in the chain is an error at the calling line, never a raw key on
/// screen. Anything else (with spaces) is literal text.
public struct FlowAPI {
    /// One prompt, resolved: text rendered in the session's language.
    struct PromptSpec {
        var step: StepID
        var kind: PromptKind
        var text: String
        var options: [PromptOption]
        var hint: String?
        var required: Bool
        var counted: Bool
        var probe: Bool
        /// Experiments the person is in whose arms vary a key this prompt
        /// looked up (its exposure, see ``FlowEffect/exposure(step:experiment:variation:)``).
        var experiments: [String] = []
        /// A `number` prompt's scale, labels rendered.
        var scale: NumberScale? = nil
        /// A text prompt's `max_chars`.
        var maxCharacters: Int? = nil

        /// What validation needs to know about this prompt.
        var shape: PromptShape {
            PromptShape(kind: kind, optionIDs: options.map(\.id), required: required, scale: scale, maxCharacters: maxCharacters)
        }
    }

    /// What a running flow did that authoring tools care about.
    public enum Observation: Sendable, Equatable {
        /// A locale key was looked up (found or not).
        case resolvedKey(String)
        /// A template uses an answer the step did not pass, and there is no fallback.
        case unfilledPlaceholder(step: StepID, key: String)
        /// The `text` a prompt was given, as the flow wrote it (before its
        /// `args` are put in): `reflect check` finds answers put into a
        /// text by the flow itself (R014).
        case promptSource(step: StepID, text: String)
    }

    /// What the API needs from a running session.
    protocol Host: AnyObject {
        func observe(_ observation: Observation)
        /// The session's language: the same for the host's whole life
        /// (``installSession(in:host:flow:)`` reads it once).
        var language: Language { get }
        /// The safety gate's verdict on `text`; a text the session has
        /// already screened (an answer quoted back into a later prompt) is
        /// not screened again.
        func screen(_ text: String) -> SafetyVerdict
        /// Whether `text` is nothing but a vague phrase of the language
        /// (``SpecificityProbe/isNonAnswer(_:)``), remembered like ``screen(_:)``.
        func isNonAnswer(_ text: String) -> Bool
        var clock: FlowClock { get }
        var mood: Mood? { get }
        /// Takes the prompt the flow is about to yield for and returns the
        /// token its yield will carry: the host shows a prompt only when the
        /// flow's coroutine yields exactly that token back to it.
        func prompt(_ spec: PromptSpec) throws(LuaHostError) -> Int64
        func random(in range: ClosedRange<Int64>) -> Int64
        /// Detects a distortion and records it as an effect of the running
        /// step; at most ``FlowAPILimits/maxDistortionCallsPerStep`` calls per step.
        func distortion(in text: String) throws(LuaHostError) -> DistortionDetection
        /// Takes the generation request the flow is about to yield for and
        /// returns the token its yield will carry (as ``prompt(_:)``).
        func generate(_ request: GenerationRequest) throws(LuaHostError) -> Int64
        /// Takes the feedback request the flow is about to yield for and
        /// returns the token its yield will carry (as ``prompt(_:)``).
        func feedback(_ request: FeedbackRequest) throws(LuaHostError) -> Int64
        /// Takes the related-entries request the flow is about to yield for
        /// and returns the token its yield will carry (as ``prompt(_:)``).
        func related(_ request: RelatedRequest) throws(LuaHostError) -> Int64
        /// The snapshot of the person's facts the session started with.
        var facts: UserFacts? { get }
        /// Records a coach record as an effect of the running step.
        func coach(_ record: CoachRecord) throws(LuaHostError)
        /// `s:variant(key)`: the person's variation id in the experiment, or
        /// its control's id when they are not in it; an unknown key throws.
        func variant(_ experiment: String) throws(LuaHostError) -> String
        /// Records a celebration as an effect of the running step.
        func celebrate(tier: CelebrationTier?, reason: CelebrationReason, pool: String?, item: String?) throws(LuaHostError)
        /// Whether `text` is one this session's `s:generate` handed the flow:
        /// a finished text (the person's words may be quoted in it), shown
        /// as it is when a prompt uses it, never read as a key or a template.
        func isGeneratedText(_ text: String) -> Bool
    }

    static let sessionModule = "reflect.session"

    /// Defines the global `flow`. Must precede loading a flow file (globals
    /// are copied into each chunk's environment when it is loaded).
    static func installDeclarations(in lua: LuaState) throws(LuaError) {
        try lua.define("flow", .function(try lua.makeFunction("flow") { call in
            let def = try call.table(1)
            _ = try FlowDefinition.validate(def)
            return .values([.table(def)])
        }), .global)
    }

    /// The trusted chunk that starts a flow: given the flow's `run`, it
    /// returns the coroutine body, which calls `run(s)`. The host runs the
    /// body as the flow's coroutine; a prompt checks that it is called on
    /// that coroutine (``LuaHostCall/isCalled(on:)``).
    static let bootSource = """
        local run = ...
        local require = require
        return function() return run(require('\(sessionModule)')) end
        """

    /// The trusted chunk that starts a directory's celebration rules: given
    /// the rules file's chunk, it runs it and returns the entry points the
    /// host calls, `after(step, answer)` and `finish()`, each passing the
    /// session table `s` first.
    static let rulesBootSource = """
        local chunk = ...
        local rules = chunk()
        if type(rules) ~= "table" then
          error("celebrations.lua must return a table { after = function(s, step, answer) ... end, finish = function(s) ... end }", 0)
        end
        local s = require('\(sessionModule)')
        local after, finish = rules.after, rules.finish
        return function(step, value) if after then after(s, step, value) end end,
               function() if finish then finish(s) end end
        """

    /// Defines the read-only session table `s` (module `reflect.session`),
    /// served by `host`. Needed only once the flow's `run` starts.
    /// `flow` is the coroutine running ``bootSource``'s body: prompts
    /// refuse to run anywhere else, since their yield would reach the flow
    /// instead of the host.
    static func installSession(in lua: LuaState, host: any Host, flow: LuaCoroutine) throws(LuaError) {
        weak let weakHost = host
        // Read once (the host's language never changes) and shared by the
        // closures below: not copied out of the host at every call, nor
        // into each closure.
        let shared = SharedLanguage(host.language)
        func live() throws(LuaHostError) -> any Host {
            guard let host = weakHost else { throw LuaHostError("the session has ended") }
            return host
        }
        func prompt(_ name: String, _ kind: PromptKind) throws(LuaError) -> LuaValue {
            .function(try lua.makeFunction(name) { call in
                let host = try live()
                guard call.isCalled(on: flow) else {
                    throw LuaHostError("s:\(name) must be called by the flow's run function itself, not inside a coroutine the flow created")
                }
                // Keys whose text an experiment's arm varies: the prompt's exposures.
                let varied = shared.value.variants.keys
                var keys: [String] = []
                // The table is read where it crossed (names as bytes, no LuaTable).
                var made = try call.withTable(2) { (t: LuaTableView) throws(LuaHostError) -> PromptSpec in
                    try spec(kind, PromptFields(t, kind: kind), table: { t.table }, shared.value, function: name,
                             screen: { host.screen($0) }, nonAnswer: { host.isNonAnswer($0) },
                             finished: { host.isGeneratedText($0) }) { observation in
                        if !varied.isEmpty, case .resolvedKey(let key) = observation { keys.append(key) }
                        host.observe(observation)
                    }
                }
                if !keys.isEmpty {
                    var experiments: [String] = []
                    for key in keys { for e in varied[key] ?? [] where !experiments.contains(e) { experiments.append(e) } }
                    made.experiments = experiments
                }
                let token = try host.prompt(made)
                return .yield([.integer(token)])
            })
        }
        func helper(_ name: String, _ body: @escaping (LuaHostCall, any Host) throws -> LuaHostResult) throws(LuaError) -> LuaValue {
            .function(try lua.makeFunction(name) { call in try body(call, try live()) })
        }

        let session = LuaTable(named: [
            "ask": try prompt("ask", .text),
            "intensity": try prompt("intensity", .intensity),
            "number": try prompt("number", .number),
            "yesno": try prompt("yesno", .yesNo),
            "choose": try prompt("choose", .singleChoice),
            "choose_many": try prompt("choose_many", .multiChoice),
            "checklist": try prompt("checklist", .checklist),
            "action": try prompt("action", .action),
            "message": try prompt("message", .message),
            "quote": try helper("quote") { call, _ in
                let text = try FlowAPILimits.text(call.argument(2).stringValue ?? "", max: SessionLimits.maxTextBytes, "s:quote: the text")
                return .values([.string(Quote.excerpt(text))])
            },
            "text": try helper("text") { call, host in
                let key = try FlowAPILimits.text(try call.string(2), max: FlowAPILimits.maxSourceTextBytes, "s:text: the key or text")
                let rest = call.arguments.dropFirst(2)
                guard rest.count <= FlowAPILimits.maxArguments else {
                    throw LuaHostError("s:text: \(rest.count) arguments (at most \(FlowAPILimits.maxArguments))")
                }
                var args: [String] = []
                for (i, v) in rest.enumerated() {
                    let text = v.stringValue ?? numberText(v, shared.value) ?? ""
                    args.append(try FlowAPILimits.text(text, max: SessionLimits.maxTextBytes, "s:text: argument \(i + 1)"))
                }
                return .values([.string(try render(key, args: args, fallback: nil, shared.value, field: "text", observe: host.observe))])
            },
            "distortion": try helper("distortion") { call, host in
                let text = try FlowAPILimits.text(call.argument(2).stringValue ?? "", max: SessionLimits.maxTextBytes, "s:distortion: the text")
                let d = try host.distortion(in: text)
                return .values([.string(d.type.rawValue), .number((d.confidence * 100).rounded() / 100)])
            },
            "mood": try helper("mood") { _, host in .values([host.mood.map { .string($0.rawValue) } ?? .nil]) },
            "locale": try helper("locale") { _, _ in .values([.string(shared.value.tag)]) },
            "now": try helper("now") { _, host in
                let t = host.clock.local
                return .values([.table(LuaTable(named: [
                    "year": .integer(Int64(t.year)), "month": .integer(Int64(t.month)), "day": .integer(Int64(t.day)),
                    "hour": .integer(Int64(t.hour)), "minute": .integer(Int64(t.minute)),
                    "weekday": .integer(Int64(t.weekday)), "iso": .string(host.clock.iso8601),
                ]))])
            },
            "generate": .function(try lua.makeFunction("generate") { call in
                let host = try live()
                guard call.isCalled(on: flow) else {
                    throw LuaHostError("s:generate must be called by the flow's run function itself, not inside a coroutine the flow created")
                }
                let request = try call.withTable(2) { (t: LuaTableView) throws(LuaHostError) -> GenerationRequest in
                    try generationRequest(NamedFields(t, names: NamedFields.generate), shared.value, screen: { host.screen($0) },
                                          nonAnswer: { host.isNonAnswer($0) })
                }
                let token = try host.generate(request)
                return .yield([.integer(token)])
            }),
            "feedback": .function(try lua.makeFunction("feedback") { call in
                let host = try live()
                guard call.isCalled(on: flow) else {
                    throw LuaHostError("s:feedback must be called by the flow's run function itself, not inside a coroutine the flow created")
                }
                let request = try call.withTable(2) { (t: LuaTableView) throws(LuaHostError) -> FeedbackRequest in
                    try feedbackRequest(NamedFields(t, names: NamedFields.feedback), shared.value, screen: host.screen)
                }
                let token = try host.feedback(request)
                return .yield([.integer(token)])
            }),
            "related": .function(try lua.makeFunction("related") { call in
                let host = try live()
                guard call.isCalled(on: flow) else {
                    throw LuaHostError("s:related must be called by the flow's run function itself, not inside a coroutine the flow created")
                }
                let token = try host.related(try relatedRequest(call.table(2), screen: host.screen))
                return .yield([.integer(token)])
            }),
            "facts": try helper("facts") { _, host in .values([factsTable(host.facts, language: shared.value, screen: host.screen)]) },
            "prep_marks": try helper("prep_marks") { call, host in
                guard let t = call.argument(2).tableValue else { throw LuaHostError("s:prep_marks: give the checklist's answer (a table)") }
                var marks: [PrepMark] = []
                var named: [(String, LuaValue)] = []
                t.forEachField { k, v in if case .string(let s) = k { named.append((s, v)) } }
                guard named.count <= SessionLimits.maxOptions else { throw LuaHostError("s:prep_marks: more than \(SessionLimits.maxOptions) marks") }
                for (key, value) in named.sorted(by: { $0.0 < $1.0 }) {
                    guard let v = value.stringValue, let mark = ChecklistMark(rawValue: v) else {
                        throw LuaHostError("s:prep_marks: '\(key)' must be \"done\", \"partly\" or \"skip\"")
                    }
                    marks.append(PrepMark(itemID: key, mark: mark))
                }
                try host.coach(.prepMarks(marks))
                return .values([])
            },
            "prep_add": try helper("prep_add") { call, host in
                guard let raw = call.argument(2).stringValue else { throw LuaHostError("s:prep_add: give the item's text") }
                let slot = call.argument(3).stringValue ?? "new"
                guard StepID.isValid(slot), slot.utf8.count <= 16 else { throw LuaHostError("s:prep_add: the slot must be a short id") }
                // The person's words: a text that cannot be an item is not
                // an error of the flow; it returns nil and the reason.
                let text: String
                do throws(PrepError) { text = try PrepLibrary.validText(raw) } catch { return .values([.nil, .string(error.code)]) }
                try host.coach(.prepItemAdded(text: text, slot: slot))
                return .values([.boolean(true)])
            },
            "craving_note": try helper("craving_note") { call, host in
                let t = try call.table(2)
                guard let raw = t["type"].stringValue, let kind = CravingNote.Kind(rawValue: raw) else {
                    throw LuaHostError("s:craving_note: 'type' must be stress, habit, physical or other")
                }
                let detail = t["detail"].stringValue
                if let detail, !StepID.isValid(detail) { throw LuaHostError("s:craving_note: 'detail' must be an option id") }
                let text = try FlowAPILimits.text(t["text"].stringValue ?? "", max: SessionLimits.maxTextBytes, "s:craving_note: 'text'")
                try host.coach(.cravingNote(CravingNote(kind: kind, detail: detail, text: text)))
                return .values([])
            },
            "variant": try helper("variant") { call, host in
                let key = try FlowAPILimits.text(try call.string(2), max: FlowAPILimits.maxSourceTextBytes, "s:variant: the experiment key")
                return .values([.string(try host.variant(key))])
            },
            "celebrate": try helper("celebrate") { call, host in
                let t = try call.table(2)
                let (tier, reason) = try celebration(t)
                let pool = t["pool"].stringValue
                var item: String?
                if t["item"] != .nil {
                    guard let id = t["item"].stringValue, StepID.isValid(id) else {
                        throw LuaHostError("s:celebrate: 'item' must be a checklist item id, got \(describe(t["item"]))")
                    }
                    item = id
                }
                try host.celebrate(tier: tier, reason: reason, pool: pool, item: item)
                return .values([])
            },
            "random": try helper("random") { call, host in
                let bound: ClosedRange<Int64> = -(1 << 53)...(1 << 53)
                let m = try call.integer(2, in: bound), n = try call.integer(3, in: bound)
                guard m <= n else { throw LuaHostError("random: interval is empty (\(m) > \(n))") }
                return .values([.integer(host.random(in: m...n))])
            },
        ])
        try lua.define(sessionModule, .table(session), [.module, .readOnly])
    }

    // MARK: - Generation requests and facts

    /// `s:related { id = "related", text = situation [, limit = 3] }`, or
    /// `text = { goal, situation }`. A text the safety gate flags is left
    /// out (all of them: nothing is searched for).
    static func relatedRequest(_ t: LuaTable, screen: (String) -> SafetyVerdict) throws(LuaHostError) -> RelatedRequest {
        try FlowAPILimits.knownFields(t, ["id", "text", "limit"], "s:related")
        guard let raw = t["id"].stringValue, let id = StepID(raw) else {
            throw LuaHostError("s:related: 'id' must be an id (lowercase letters, digits, _ - .), got \(describe(t["id"]))")
        }
        // One text, or a list of texts (answers), searched together; each
        // the safety gate flags counts as "".
        var parts: [String] = []
        switch t["text"] {
        case .string(let s): parts = [s]
        case .nil: parts = []
        case .table(let list):
            guard list.sequence.count <= FlowAPILimits.maxArguments else {
                throw LuaHostError("s:related '\(id)': 'text': \(list.sequence.count) texts (at most \(FlowAPILimits.maxArguments))")
            }
            for v in list.sequence {
                switch v {
                case .string(let s): parts.append(s)
                case .nil: continue
                default: throw LuaHostError("s:related '\(id)': 'text' must be texts (answers), got \(v.typeName)")
                }
            }
        case let other: throw LuaHostError("s:related '\(id)': 'text' must be a text or a list of texts (answers), got \(other.typeName)")
        }
        var kept: [String] = []
        for part in parts {
            _ = try FlowAPILimits.text(part, max: SessionLimits.maxTextBytes, "s:related '\(id)': 'text'")
            if !part.isEmpty, screen(part) == .ok { kept.append(part) }
        }
        let text = kept.joined(separator: "\n")
        var limit = 3
        if t["limit"] != .nil {
            guard let n = t["limit"].integerValue, n >= 1, n <= Int64(RelatedRequest.maxLimit) else {
                throw LuaHostError("s:related '\(id)': 'limit' must be a whole number from 1 to \(RelatedRequest.maxLimit)")
            }
            limit = Int(n)
        }
        return RelatedRequest(id: id, text: text, limit: limit)
    }

    /// Related entries as the flow sees them: a list of `{ day, text, flow }`.
    static func relatedTable(_ entries: [RelatedEntry]) -> LuaValue {
        .table(LuaTable(sequence: entries.map { e in
            .table(LuaTable(named: ["day": .string(e.day), "text": .string(e.text), "flow": .string(e.flow)]))
        }))
    }

    /// `s:celebrate { tier = "medium", reason = "morning_complete" [, pool = "mini_celebration", item = "water"] }`;
    /// without `tier`: a line (or a gentle checkmark) and no celebration.
    static func celebration(_ t: LuaTable) throws(LuaHostError) -> (CelebrationTier?, CelebrationReason) {
        var tier: CelebrationTier?
        if t["tier"] != .nil {
            guard let text = t["tier"].stringValue, let known = CelebrationTier(rawValue: text) else {
                throw LuaHostError("s:celebrate: 'tier' must be \"tiny\", \"medium\" or \"big\" (or left out), got \(describe(t["tier"]))")
            }
            tier = known
        }
        guard let reasonText = t["reason"].stringValue, let reason = CelebrationReason(rawValue: reasonText) else {
            let hint = t["reason"].stringValue.flatMap(CelebrationReason.suggestion(for:)).map { " (did you mean '\($0.rawValue)'?)" } ?? ""
            throw LuaHostError("s:celebrate: unknown reason \(describe(t["reason"]))\(hint); see docs/progress.md for the reasons")
        }
        return (tier, reason)
    }

    /// `s:generate { id = ..., purpose = ..., inputs = { ... }, fallback = "key or text" [, args = { ... }, static = "key",
    /// framework = "cbt", distortion = kind, prompt = "final_question.v1", timeout = 1.5] }`.
    /// The fallback is rendered like a prompt's text: `args` are quoted into
    /// it, and `static` replaces it when an argument cannot be quoted.
    static func generationRequest(_ t: some FieldLookup, _ language: Language, screen: (String) -> SafetyVerdict,
                                  nonAnswer: (String) -> Bool) throws(LuaHostError) -> GenerationRequest {
        guard let raw = t["id"].stringValue, let id = StepID(raw) else {
            throw LuaHostError("generate: 'id' must be an id (lowercase letters, digits, _ - .), got \(describe(t["id"]))")
        }
        guard let purpose = t["purpose"].stringValue, !purpose.isEmpty else {
            throw LuaHostError("generate '\(id)': 'purpose' must say what to write (e.g. \"final_question\")")
        }
        _ = try FlowAPILimits.text(purpose, max: FlowAPILimits.maxSourceTextBytes, "generate '\(id)': 'purpose'")
        guard let fallback = t["fallback"].stringValue, !fallback.isEmpty else {
            throw LuaHostError("generate '\(id)': 'fallback' must be a locale key or text (shown when nothing is generated)")
        }
        _ = try FlowAPILimits.text(fallback, max: FlowAPILimits.maxSourceTextBytes, "generate '\(id)': 'fallback'")
        let inputs = try texts(t["inputs"], language, what: "generate '\(id)': inputs", screen: screen)
        let args = try quotableArgs(t["args"], language, what: "generate '\(id)': args", screen: screen, nonAnswer: nonAnswer)
        let staticKey = t["static"].stringValue
        if let staticKey { _ = try FlowAPILimits.text(staticKey, max: FlowAPILimits.maxSourceTextBytes, "generate '\(id)': 'static'") }
        let timeout = try seconds(t["timeout"], what: "generate '\(id)'")
        let shown = try render(fallback, args: args, fallback: staticKey, language, field: "generate '\(id)' fallback")
        var prompt: String?
        if let p = t["prompt"].stringValue {
            prompt = try FlowAPILimits.text(p, max: FlowAPILimits.maxSourceTextBytes, "generate '\(id)': 'prompt'")
        }
        return GenerationRequest(id: id, purpose: purpose, inputs: inputs, fallback: shown, timeout: timeout,
                                 context: try context(t, language, what: "generate '\(id)'"), prompt: prompt)
    }

    /// `s:feedback { pre = n, post = n [, distortion = kind, framework = "cbt", final = "final", inputs = { ... }, timeout = 1.5] }`.
    static func feedbackRequest(_ t: some FieldLookup, _ language: Language, screen: (String) -> SafetyVerdict) throws(LuaHostError) -> FeedbackRequest {
        var context = try context(t, language, what: "feedback")
        func intensity(_ field: String) throws(LuaHostError) -> Int? {
            switch t[field] {
            case .nil: return nil
            case .integer(let i) where (0...10).contains(i): return Int(i)
            default: throw LuaHostError("feedback: '\(field)' must be an intensity from 0 to 10, or nil")
            }
        }
        context.pre = try intensity("pre")
        context.post = try intensity("post")
        var final: StepID?
        if let raw = t["final"].stringValue {
            guard let id = StepID(raw) else { throw LuaHostError("feedback: 'final' must be the id of an s:generate request") }
            final = id
        }
        return FeedbackRequest(inputs: try texts(t["inputs"], language, what: "feedback: inputs", screen: screen), context: context,
                               finalQuestion: final, timeout: try seconds(t["timeout"], what: "feedback"))
    }

    /// Answers handed to a provider: a flagged answer is never passed on,
    /// as it is never quoted.
    private static func texts(_ value: LuaValue, _ language: Language, what: @autoclosure () -> String, screen: (String) -> SafetyVerdict) throws(LuaHostError) -> [String] {
        let list = value.tableValue?.sequence ?? []
        guard list.count <= FlowAPILimits.maxArguments else { throw LuaHostError("\(what()): \(list.count) (at most \(FlowAPILimits.maxArguments))") }
        var out: [String] = []
        out.reserveCapacity(list.count)
        for v in list {
            switch v {
            case .string(let s):
                out.append(screen(try FlowAPILimits.text(s, max: SessionLimits.maxTextBytes, "\(what()): an input")) == .ok ? s : "")
            case .nil: out.append("")
            default: throw LuaHostError("\(what()) must be texts, got \(v.typeName)")
            }
        }
        return out
    }

    /// Answers quoted into a text (as a prompt's `args`): a non-answer or a
    /// flagged answer becomes "" (and the `static` wording is used).
    private static func quotableArgs(_ value: LuaValue, _ language: Language, what: @autoclosure () -> String, screen: (String) -> SafetyVerdict,
                                     nonAnswer: (String) -> Bool) throws(LuaHostError) -> [String] {
        let list = value.tableValue?.sequence ?? []
        guard list.count <= FlowAPILimits.maxArguments else { throw LuaHostError("\(what()): \(list.count) (at most \(FlowAPILimits.maxArguments))") }
        var args: [String] = []
        args.reserveCapacity(list.count)
        for v in list {
            switch v {
            case .string(let s):
                _ = try FlowAPILimits.text(s, max: SessionLimits.maxTextBytes, "\(what()): an answer")
                let quotable = !nonAnswer(s) && screen(s) == .ok
                args.append(quotable ? Quote.excerpt(s) : "")
            case .nil: args.append("")
            default:
                guard let number = numberText(v, language) else {
                    throw LuaHostError("\(what()) must be texts (answers) or numbers, got \(v.typeName)")
                }
                args.append(number)
            }
        }
        return args
    }

    /// A number given to be shown (in `args`, or to `s:text`), written as
    /// the person's language writes it: `7`, `7,5` in German (``NumberText``);
    /// nil for anything else, and for NaN or an infinity.
    static func numberText(_ value: LuaValue, _ language: Language) -> String? {
        switch value {
        case .integer(let i): return String(i)
        case .number(let d) where d.isFinite: return language.localizer.numbers.format(d)
        default: return nil
        }
    }

    private static func seconds(_ value: LuaValue, what: @autoclosure () -> String) throws(LuaHostError) -> Duration {
        guard let seconds = value.finiteNumber else { return .milliseconds(1500) }
        guard seconds > 0, seconds <= 30 else { throw LuaHostError("\(what()): 'timeout' must be between 0 and 30 seconds") }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// `framework` and `distortion` (a type name as `s:distortion` returns it).
    private static func context(_ t: some FieldLookup, _ language: Language, what: @autoclosure () -> String) throws(LuaHostError) -> GenerationContext {
        var c = GenerationContext(locale: language.tag, personality: language.personality)
        if let f = t["framework"].stringValue {
            guard StepID.isValid(f), f.utf8.count <= 40 else { throw LuaHostError("\(what()): 'framework' must be a short id (cbt, act, ba)") }
            c.framework = f
        }
        switch t["distortion"] {
        case .nil: break
        case .string(let d):
            guard let type = DistortionType(rawValue: d) else { throw LuaHostError("\(what()): 'distortion' must be a type s:distortion returns, got '\(d.prefix(40))'") }
            c.distortion = type
        default: throw LuaHostError("\(what()): 'distortion' must be a type s:distortion returns")
        }
        return c
    }

    /// `s:facts()`: the session's snapshot as a read-only table (empty when
    /// none). `screen` is the safety gate's verdict (the session's memo of
    /// it), for the person's own words the table carries.
    static func factsTable(_ facts: UserFacts?, language: Language, screen: @escaping (String) -> SafetyVerdict) -> LuaValue {
        var t: [LuaKey: LuaValue] = ["earlier": .table(LuaTable()), "prep": .table(LuaTable()), "last_night_prep": .table(LuaTable())]
        guard let facts else { return .table(LuaTable(t)) }
        if let day = facts.day { t["day"] = .string(day) }
        if let phase = facts.phase { t["phase"] = .string(phase.rawValue) }
        if let v = facts.firstToday { t["first_today"] = .boolean(v) }
        if let v = facts.firstEver { t["first_ever"] = .boolean(v) }
        if let s = facts.streak {
            t["streak"] = .table(LuaTable(named: ["current": .integer(Int64(s.current)), "longest": .integer(Int64(s.longest)),
                                                  "last_seven_days": .integer(Int64(s.lastSevenDays)), "today": .boolean(s.today),
                                                  "including_today": .integer(Int64(s.includingToday))]))
        }
        if let progress = facts.progress {
            func table(_ p: StepProgress) -> LuaValue {
                .table(LuaTable(named: ["streak": .integer(Int64(p.streak)), "days": .integer(Int64(p.days)), "today": .boolean(p.today),
                                        "yes_days": .integer(Int64(p.yesDays)), "yes_today": .boolean(p.yesToday),
                                        "yes_week": .integer(Int64(p.yesThisWeek))]))
            }
            var steps: [LuaKey: LuaValue] = [:]
            for p in progress.steps { steps[.string(p.step)] = table(p) }
            t["steps"] = .table(LuaTable(steps))
            t["completed"] = table(progress.completed)
            t["completed_today"] = .boolean(progress.anyCompletedToday)
            var held: [LuaKey: LuaValue] = [:]
            for key in progress.achievements { held[.string(key)] = .boolean(true) }
            t["achievements"] = .table(LuaTable(held))
            t["week"] = .string(progress.week)
        }
        if let p = facts.profile {
            t["profile"] = .table(LuaTable(named: [
                "tone": .string(p.tone.rawValue), "length": .string(p.responseLength.rawValue),
                "preferred_actions": .table(LuaTable(sequence: p.preferredActions.map { .string($0.rawValue) })),
                "avoid_topics": .table(LuaTable(sequence: p.avoidTopics.map { .string($0.rawValue) })),
            ]))
        }
        // A person's own item that the safety gate flags is left out, like a
        // flagged answer: a flow never quotes it back (however it was written:
        // `reflect prep add`, s:prep_add, an import).
        let prep = facts.prepItems.filter { !$0.label.isLiteral || screen($0.label.raw) == .ok }
        t["prep"] = .table(LuaTable(sequence: prep.map { item in
            .table(LuaTable(named: ["id": .string(item.id), "text": .string(item.label.raw), "literal": .boolean(item.label.isLiteral)]))
        }))
        t["last_night_prep"] = .table(LuaTable(sequence: facts.lastNightPrep.map { m in
            .table(LuaTable(named: ["id": .string(m.itemID), "mark": .string(m.mark.rawValue)]))
        }))
        t["earlier"] = .table(LuaTable(sequence: facts.earlierAnswers.map { a in
            .table(LuaTable(named: ["flow": .string(a.flow), "step": .string(a.step.rawValue), "value": luaValue(a.value, language: language, screen: screen)]))
        }))
        return .table(LuaTable(t))
    }

    // MARK: - Reading a prompt spec

    /// `finished`: whether a `text` is already finished (a text `s:generate`
    /// returned): then it is shown as it is, neither looked up as a key nor
    /// read as a template, so a `%@` or `%%` in it (the person's own words,
    /// a provider's reply) stays exactly as written.
    static func spec(_ kind: PromptKind, _ t: LuaTable, _ language: Language, function: String,
                     screen: (String) -> SafetyVerdict, nonAnswer: (String) -> Bool, finished: (String) -> Bool = { _ in false },
                     observe: (Observation) -> Void = { _ in }) throws(LuaHostError) -> PromptSpec {
        try spec(kind, PromptFields(t, kind: kind), table: { t }, language, function: function, screen: screen, nonAnswer: nonAnswer,
                 finished: finished, observe: observe)
    }

    /// ``spec(_:_:_:function:screen:nonAnswer:finished:observe:)`` from the
    /// table's fields read in one pass; `table` gives the whole table, for
    /// what only some prompts read (a number's scale, naming an unknown field).
    static func spec(_ kind: PromptKind, _ fields: PromptFields, table: () -> LuaTable, _ language: Language, function: String,
                     screen: (String) -> SafetyVerdict, nonAnswer: (String) -> Bool, finished: (String) -> Bool,
                     observe: (Observation) -> Void) throws(LuaHostError) -> PromptSpec {
        guard let raw = fields.id.stringValue, let step = StepID(raw) else {
            throw LuaHostError("\(function): 'id' must be a step id (lowercase letters, digits, _ - .), got \(describe(fields.id))")
        }
        if fields.hasUnknown {
            // Only to name the field: it throws.
            try FlowAPILimits.knownFields(table(), PromptFields.known(for: kind), "\(function) '\(step)'")
        }
        let listField = PromptFields.listField(for: kind)
        guard let text = fields.text.stringValue, !text.isEmpty else {
            throw LuaHostError("\(function) '\(step)': 'text' must be a locale key or text")
        }
        _ = try FlowAPILimits.text(text, max: FlowAPILimits.maxSourceTextBytes, "\(function) '\(step)': 'text'")
        observe(.promptSource(step: step, text: text))
        let argList = fields.args.tableValue?.sequence ?? []
        guard argList.count <= FlowAPILimits.maxArguments else {
            throw LuaHostError("\(function) '\(step)': \(argList.count) args (at most \(FlowAPILimits.maxArguments))")
        }
        var args: [String] = []
        args.reserveCapacity(argList.count)
        for v in argList {
            switch v {
            // Not quoted back: a non-answer ("idk"), and an answer the safety
            // gate flagged ("What evidence supports 'I want to end it all'?"
            // would be cruel). Both take the flow's fallback wording.
            case .string(let s):
                _ = try FlowAPILimits.text(s, max: SessionLimits.maxTextBytes, "\(function) '\(step)': an answer in 'args'")
                let quotable = !nonAnswer(s) && screen(s) == .ok
                args.append(quotable ? Quote.excerpt(s) : "")
            case .nil: args.append("")
            default:
                guard let number = numberText(v, language) else {
                    throw LuaHostError("\(function) '\(step)': args must be texts (answers) or numbers, got \(v.typeName)")
                }
                args.append(number)
            }
        }
        let fallback = fields.fallback.stringValue
        if let fallback { _ = try FlowAPILimits.text(fallback, max: FlowAPILimits.maxSourceTextBytes, "\(function) '\(step)': 'fallback'") }
        let rendered = try FlowAPILimits.text(
            finished(text) ? text
                : try render(text, args: args, fallback: fallback, language, field: "\(function) '\(step)' text", step: step, observe: observe),
            max: SessionLimits.maxPromptTextBytes, "\(function) '\(step)': the text as shown")

        var options: [PromptOption] = []
        if PromptFields.hasList(kind) {
            guard let table = fields.list.tableValue, case let list = table.sequence, !list.isEmpty else {
                throw LuaHostError("\(function) '\(step)': '\(listField)' must be a list of { id = ..., text = ... }")
            }
            // A nil inside the list (`{ a, nil, c }`, a variable that was
            // never set) or a key outside 1…n would silently drop the
            // options after it: refused, so the author sees it.
            guard table.count == list.count else {
                throw LuaHostError("\(function) '\(step)': '\(listField)' has \(table.count) entries but only the first \(list.count) are a list (1, 2, 3, …): a nil in the list, or a key that is not a position, would drop the rest")
            }
            guard list.count <= SessionLimits.maxOptions else {
                throw LuaHostError("\(function) '\(step)': \(list.count) \(listField) (at most \(SessionLimits.maxOptions))")
            }
            var ids = Set<String>()
            for item in list {
                guard let o = item.tableValue, let id = o["id"].stringValue, StepID.isValid(id),
                      let otext = o["text"].stringValue else {
                    throw LuaHostError("\(function) '\(step)': each of '\(listField)' needs an id (lowercase) and a text")
                }
                guard ids.insert(id).inserted else {
                    throw LuaHostError("\(function) '\(step)': option id '\(id)' appears twice")
                }
                let field = "\(function) '\(step)': option '\(id)'"
                _ = try FlowAPILimits.text(otext, max: FlowAPILimits.maxSourceTextBytes, "\(field) text")
                // `literal = true`: the person's own words (a custom prep
                // item), shown as written, never looked up as a key.
                let shown = o["literal"].boolValue == true
                    ? otext : try render(otext, args: [], fallback: nil, language, field: "option '\(id)'", observe: observe)
                options.append(PromptOption(id: id, text: try FlowAPILimits.text(shown, max: SessionLimits.maxOptionTextBytes,
                                                                                 "\(field): the text as shown")))
            }
        }
        // An action's button label (`button = "coach.morning.start_day.button"`):
        // its one option, id `done` (the answer is still {"done": true}).
        if kind == .action, let b = fields.button.stringValue {
            _ = try FlowAPILimits.text(b, max: FlowAPILimits.maxSourceTextBytes, "\(function) '\(step)': 'button'")
            options = [PromptOption(id: "done", text: try FlowAPILimits.text(
                try render(b, args: [], fallback: nil, language, field: "button", observe: observe),
                max: SessionLimits.maxOptionTextBytes, "\(function) '\(step)': the button as shown"))]
        }
        var hint: String?
        if let h = fields.hint.stringValue {
            _ = try FlowAPILimits.text(h, max: FlowAPILimits.maxSourceTextBytes, "\(function) '\(step)': 'hint'")
            hint = try FlowAPILimits.text(try render(h, args: [], fallback: nil, language, field: "hint", observe: observe),
                                          max: SessionLimits.maxOptionTextBytes, "\(function) '\(step)': the hint as shown")
        } else if kind == .intensity {
            hint = language.localizer.string(EngineString.intensityHint.key)
        }
        let scale = kind == .number ? try numberScale(table(), language, function: function, step: step, observe: observe) : nil
        let probe: Bool
        switch fields.probe {
        case .nil: probe = false
        case .string("specificity"): probe = true
        default: throw LuaHostError("\(function) '\(step)': probe must be \"specificity\"")
        }
        return PromptSpec(step: step, kind: kind, text: rendered, options: options, hint: hint,
                          required: fields.required.boolValue ?? true,
                          counted: kind.countsAsQuestion && (fields.progress.boolValue ?? true),
                          probe: probe, scale: scale, maxCharacters: try maxChars(fields.maxChars, kind, function: function, step: step))
    }

    /// `s:ask { max_chars = 240 }`: a text answer's limit in characters (1 … 20,000).
    private static func maxChars(_ value: LuaValue, _ kind: PromptKind, function: String, step: StepID) throws(LuaHostError) -> Int? {
        if case .nil = value { return nil }
        guard kind == .text, let n = value.integerValue, n >= 1, n <= Int64(SessionLimits.maxTextBytes) else {
            throw LuaHostError("\(function) '\(step)': 'max_chars' is for s:ask, a whole number from 1 to \(SessionLimits.maxTextBytes)")
        }
        return Int(n)
    }

    /// `s:number { min = 0, max = 24, step = 0.25, min_label = "key", max_label = "key" }`:
    /// `min` and `max` required, `step` 1 by default, labels optional.
    private static func numberScale(_ t: LuaTable, _ language: Language, function: String, step: StepID,
                                    observe: (Observation) -> Void) throws(LuaHostError) -> NumberScale {
        guard let min = t["min"].finiteNumber, let max = t["max"].finiteNumber else {
            throw LuaHostError("\(function) '\(step)': 'min' and 'max' must be numbers")
        }
        let increment: Double
        switch t["step"] {
        case .nil: increment = 1
        default:
            guard let v = t["step"].finiteNumber else { throw LuaHostError("\(function) '\(step)': 'step' must be a number") }
            increment = v
        }
        if let problem = NumberScale.problem(min: min, max: max, step: increment) {
            throw LuaHostError("\(function) '\(step)': \(problem)")
        }
        func label(_ field: String) throws(LuaHostError) -> String? {
            switch t[field] {
            case .nil: return nil
            case .string(let raw):
                _ = try FlowAPILimits.text(raw, max: FlowAPILimits.maxSourceTextBytes, "\(function) '\(step)': '\(field)'")
                return try FlowAPILimits.text(try render(raw, args: [], fallback: nil, language, field: field, observe: observe),
                                              max: SessionLimits.maxOptionTextBytes, "\(function) '\(step)': the \(field) as shown")
            default: throw LuaHostError("\(function) '\(step)': '\(field)' must be a locale key or text")
            }
        }
        return NumberScale(min: min, max: max, step: increment, minLabel: try label("min_label"), maxLabel: try label("max_label"))
    }

    /// A locale key or literal text, with its placeholders filled. When an
    /// argument the template uses is empty, the `fallback` key's text is used
    /// instead (the static version of the question).
    static func render(_ textOrKey: String, args: [String], fallback: String?, _ language: Language, field: @autoclosure () -> String,
                       step: StepID? = nil, observe: (Observation) -> Void = { _ in }) throws(LuaHostError) -> String {
        let isKey = looksLikeKey(textOrKey)
        if isKey { observe(.resolvedKey(textOrKey)) }
        let template = try self.template(textOrKey, isKey: isKey, language, field: field())
        var unfilled = false, beyond = false
        for case .argument(let n) in template.pieces {
            if n > args.count { beyond = true; unfilled = true } else if args[n - 1].isEmpty { unfilled = true }
        }
        if let fallback {
            let fallbackIsKey = looksLikeKey(fallback)
            if fallbackIsKey { observe(.resolvedKey(fallback)) }
            // Resolved even when not needed, so a missing fallback key is
            // found early; a literal fallback is parsed only when used.
            if fallbackIsKey {
                let alternative = try self.template(fallback, isKey: true, language, field: "\(field()) fallback")
                if unfilled { return alternative.render([]) }
            } else {
                let alternative = try lookup(fallback, isKey: false, language, field: "\(field()) fallback")
                if unfilled { return Template(alternative).render([]) }
            }
        } else if unfilled, let step, beyond {
            observe(.unfilledPlaceholder(step: step, key: textOrKey))
        }
        // Measured before it is built: one placeholder repeated can multiply an answer.
        let size = template.renderedUTF8Count(args)
        guard size <= FlowAPILimits.maxRenderedBytes else {
            throw LuaHostError("\(field()): the text as shown would be \(size) bytes (at most \(FlowAPILimits.maxRenderedBytes))")
        }
        return template.render(args, reserving: size)
    }

    /// The template of a key (parsed once per language) or of a literal text.
    private static func template(_ textOrKey: String, isKey: Bool, _ language: Language,
                                 field: @autoclosure () -> String) throws(LuaHostError) -> Template {
        if isKey, let cached = language.templates.template(forKey: textOrKey, in: language.localizer) { return cached }
        return Template(try lookup(textOrKey, isKey: isKey, language, field: field()))
    }

    private static func lookup(_ textOrKey: String, isKey: Bool, _ language: Language, field: @autoclosure () -> String) throws(LuaHostError) -> String {
        if let s = language.localizer.string(textOrKey) { return s }
        if isKey {
            let where_ = language.localizer.chain.map { "locales/\($0.tag).yaml" }.joined(separator: ", ")
            let keys = Array(Set(language.localizer.chain.flatMap { $0.strings.keys }))
            let guess = Suggestion.nearest(to: textOrKey, among: keys).map { "; did you mean '\($0)'?" } ?? ""
            throw LuaHostError("\(field()): unknown locale key '\(textOrKey)' (not in \(where_.isEmpty ? "any locale file" : where_))\(guess)")
        }
        return textOrKey
    }

    /// `reflection.negative.q1`: lowercase words joined by dots, no spaces.
    package static func looksLikeKey(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard let last = bytes.last, last != UInt8(ascii: ".") else { return false }
            // Bits of the bytes a key may hold: `-` `.` `0`...`9` below 64,
            // `_` `a`...`z` from 64 to 127.
            let low: UInt64 = (1 << 45) | (1 << 46) | (0x3FF << 48)
            let high: UInt64 = (1 << (95 - 64)) | (0x3FF_FFFF << (97 - 64))
            var dot = false
            for b in bytes {
                if b < 64 {
                    guard low >> b & 1 == 1 else { return false }
                    if b == UInt8(ascii: ".") { dot = true }
                } else {
                    guard b < 128, high >> (b - 64) & 1 == 1 else { return false }
                }
            }
            return dot
        }
    }

    private static func describe(_ v: LuaValue) -> String {
        if case .string(let s) = v { return "'\(s.prefix(40))'" }
        return v.typeName
    }

    /// Lua value a validated answer is returned to the flow as.
    /// An answer as the flow sees it. A text the safety gate flags reaches
    /// the flow as "" (an empty answer): a flow cannot quote what it never
    /// holds, however it builds its texts (`args`, `s:quote`, `..`), and
    /// `args` then takes the prompt's `fallback`. The save keeps the answer
    /// as given; replay applies the same rule, so it stays deterministic.
    /// `screen` is the session's (``Host/screen(_:)``, which remembers
    /// verdicts), else the language's gate.
    static func luaValue(_ answer: AnswerValue, language: Language, screen: ((String) -> SafetyVerdict)? = nil) -> LuaValue {
        if case .text(let s) = answer { return luaValue(answer, flagged: (screen ?? language.safety.check)(s) != .ok) }
        return luaValue(answer, flagged: false)
    }

    /// ``luaValue(_:language:screen:)`` of an answer whose verdict is known
    /// already: `flagged` is whether the safety gate flags its text (a text
    /// answer reaches the flow as "" then; other answers ignore it).
    static func luaValue(_ answer: AnswerValue, flagged: Bool) -> LuaValue {
        switch answer {
        case .text(let s): flagged ? .string("") : .string(s)
        case .integer(let i): .integer(Int64(i))
        case .number(let d): .number(d)
        case .boolean(let b): .boolean(b)
        case .choice(let id): .string(id)
        case .choices(let ids): .table(LuaTable(sequence: ids.map { .string($0) }))
        case .checklist(let marks): .table(LuaTable(named: marks.mapValues { .string($0.rawValue) }))
        case .acknowledged: .boolean(true)
        case .skipped: .nil
        }
    }
}

/// A session's language, held once for all the closures of its API
/// (``FlowAPI/installSession(in:host:flow:)``): a closure capturing the
/// value itself would keep a copy of its own.
private final class SharedLanguage {
    let value: Language
    init(_ value: Language) { self.value = value }
}

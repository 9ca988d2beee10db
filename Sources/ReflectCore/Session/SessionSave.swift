import Foundation

/// Everything needed to resume a session: data only.
///
/// A save holds the flow's id and version, the seed, the injected clock and
/// the answer log keyed by step id. It never holds code, coroutines or
/// bytecode, and it is never passed to `load()`: resuming re-runs the flow
/// from the start and feeds it these answers (replay). A save read from disk
/// goes through ``SessionSave/decodeValidated(from:)`` first; anything
/// malformed is rejected before a single step runs.
public struct SessionSave: Sendable, Equatable, Codable {
    public static let currentFormat = 1
    /// Bounds a save must respect (a tampered file cannot make the host
    /// replay millions of answers or hold megabytes of text). The same
    /// ``SessionLimits`` bind a running flow, so every save the engine
    /// writes can be loaded again.
    public static let maxAnswers = SessionLimits.maxAnswers
    public static let maxTextBytes = SessionLimits.maxTextBytes

    public var format: Int
    public var flow: String
    public var flowVersion: Int
    public var seed: UInt64
    /// The injected clock, ISO-8601 with offset.
    public var now: String
    /// The locale the session runs in (its fallback chain follows).
    public var locale: String
    /// The mood logged before the flow, if any.
    public var mood: Mood?
    /// The answer log, in the order the questions were answered.
    public var answers: [RecordedAnswer]
    /// Answers set aside by going back, offered again when their step returns.
    public var drafts: [RecordedAnswer]
    /// The person's facts as they were when the session started
    /// (``UserFacts``); nil when the host gave none.
    public var facts: UserFacts?
    /// Texts generated for the flow so far, by request id, as shown.
    public var generated: [GeneratedText]
    /// The person's arms in the experiments that applied when the session
    /// started (``VariantAssignment``): back, resume and crash recovery
    /// show the same wording.
    public var variants: [VariantAssignment]
    /// Experiments whose exposure this session has recorded (once per
    /// experiment and session).
    public var exposed: [String]

    /// Celebrations fired so far, in order: never fired again (going back
    /// over the answer that earned one, resuming, replaying), and counted by
    /// the rate limit (``CelebrationLimit``).
    public var celebrations: [FiredCelebration]

    /// What each related-entries request (`s:related`) found, as shown.
    public var recalled: [RecalledEntries]

    public init(flow: String, flowVersion: Int, seed: UInt64, now: String, locale: String = "en", mood: Mood? = nil,
                answers: [RecordedAnswer] = [], drafts: [RecordedAnswer] = [], facts: UserFacts? = nil,
                generated: [GeneratedText] = [], variants: [VariantAssignment] = [], exposed: [String] = [],
                celebrations: [FiredCelebration] = [], recalled: [RecalledEntries] = []) {
        self.format = SessionSave.currentFormat
        self.flow = flow
        self.flowVersion = flowVersion
        self.seed = seed
        self.now = now
        self.locale = locale
        self.mood = mood
        self.answers = answers
        self.drafts = drafts
        self.facts = facts
        self.generated = generated
        self.variants = variants
        self.exposed = exposed
        self.celebrations = celebrations
        self.recalled = recalled
    }

    private enum CodingKeys: String, CodingKey {
        case format, flow, flowVersion, seed, now, locale, mood, answers, drafts, facts, generated, variants, exposed, celebrations, recalled
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(Int.self, forKey: .format)
        flow = try c.decode(String.self, forKey: .flow)
        flowVersion = try c.decode(Int.self, forKey: .flowVersion)
        // Read signed first: Foundation reports a negative UInt64 as "not
        // valid JSON", which would hide which field is wrong.
        if let signed = try? c.decode(Int64.self, forKey: .seed) {
            guard signed >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .seed, in: c, debugDescription: "seed must be a non-negative integer")
            }
            seed = UInt64(signed)
        } else {
            seed = try c.decode(UInt64.self, forKey: .seed)
        }
        now = try c.decode(String.self, forKey: .now)
        locale = try c.decodeIfPresent(String.self, forKey: .locale) ?? "en"
        mood = try c.decodeIfPresent(Mood.self, forKey: .mood)
        answers = try c.decode([RecordedAnswer].self, forKey: .answers)
        drafts = try c.decodeIfPresent([RecordedAnswer].self, forKey: .drafts) ?? []
        facts = try c.decodeIfPresent(UserFacts.self, forKey: .facts)
        generated = try c.decodeIfPresent([GeneratedText].self, forKey: .generated) ?? []
        variants = try c.decodeIfPresent([VariantAssignment].self, forKey: .variants) ?? []
        exposed = try c.decodeIfPresent([String].self, forKey: .exposed) ?? []
        celebrations = try c.decodeIfPresent([FiredCelebration].self, forKey: .celebrations) ?? []
        recalled = try c.decodeIfPresent([RecalledEntries].self, forKey: .recalled) ?? []
    }

    /// Decodes and validates a save. Throws ``SaveValidationError`` naming
    /// the field at fault.
    public static func decodeValidated(from data: Data) throws(SaveValidationError) -> SessionSave {
        let save: SessionSave
        do {
            save = try JSONDecoder().decode(SessionSave.self, from: data)
        } catch let DecodingError.dataCorrupted(ctx) {
            throw SaveValidationError(field: ctx.codingPath.pathString, reason: ctx.debugDescription)
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw SaveValidationError(field: ctx.codingPath.pathString, reason: ctx.debugDescription)
        } catch let DecodingError.keyNotFound(key, ctx) {
            throw SaveValidationError(field: (ctx.codingPath + [key]).pathString, reason: "missing")
        } catch let DecodingError.valueNotFound(_, ctx) {
            throw SaveValidationError(field: ctx.codingPath.pathString, reason: "missing value")
        } catch {
            throw SaveValidationError(field: "", reason: "not a JSON session save")
        }
        try save.validate()
        return save
    }

    /// Checks the bounds a decoded save must respect.
    public func validate() throws(SaveValidationError) {
        guard format == SessionSave.currentFormat else {
            throw SaveValidationError(field: "format", reason: "unsupported format \(format)")
        }
        guard !flow.isEmpty, flow.utf8.count <= SessionLimits.maxFlowIDBytes else { throw SaveValidationError(field: "flow", reason: "invalid flow id") }
        guard answers.count <= SessionSave.maxAnswers else {
            throw SaveValidationError(field: "answers", reason: "\(answers.count) answers (at most \(SessionSave.maxAnswers))")
        }
        guard drafts.count <= SessionSave.maxAnswers else {
            throw SaveValidationError(field: "drafts", reason: "\(drafts.count) drafts (at most \(SessionSave.maxAnswers))")
        }
        guard locale.utf8.count <= SessionLimits.maxLocaleTagBytes, locale.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw SaveValidationError(field: "locale", reason: "not a locale tag")
        }
        guard FlowClock(iso8601: now) != nil else {
            throw SaveValidationError(field: "now", reason: "not an ISO-8601 date with offset")
        }
        try facts?.validate(field: "facts")
        guard generated.count <= SessionSave.maxAnswers else {
            throw SaveValidationError(field: "generated", reason: "\(generated.count) texts (at most \(SessionSave.maxAnswers))")
        }
        var generatedIDs = Set<StepID>()
        for (i, g) in generated.enumerated() {
            guard g.text.utf8.count <= SessionSave.maxTextBytes else {
                throw SaveValidationError(field: "generated[\(i)].text", reason: "text longer than \(SessionSave.maxTextBytes) bytes")
            }
            guard generatedIDs.insert(g.id).inserted else {
                throw SaveValidationError(field: "generated[\(i)].id", reason: "id '\(g.id)' appears twice")
            }
        }
        guard celebrations.count <= SessionSave.maxAnswers else {
            throw SaveValidationError(field: "celebrations", reason: "\(celebrations.count) celebrations (at most \(SessionSave.maxAnswers))")
        }
        for (i, c) in celebrations.enumerated() where (c.line?.text.utf8.count ?? 0) > SessionLimits.maxPromptTextBytes {
            throw SaveValidationError(field: "celebrations[\(i)].line", reason: "longer than \(SessionLimits.maxPromptTextBytes) bytes")
        }
        for (i, c) in celebrations.enumerated() where c.item.map({ !StepID.isValid($0) }) ?? false {
            throw SaveValidationError(field: "celebrations[\(i)].item", reason: "not a checklist item id")
        }
        try SessionSave.validate(recalled: recalled)
        guard variants.count <= SessionLimits.maxAnswers, exposed.count <= SessionLimits.maxAnswers else {
            throw SaveValidationError(field: "variants", reason: "more than \(SessionLimits.maxAnswers) experiments")
        }
        var experiments = Set<String>()
        for (i, v) in variants.enumerated() {
            guard ExperimentKey.isValid(v.experiment), ExperimentKey.isValid(v.variation) else {
                throw SaveValidationError(field: "variants[\(i)]", reason: "not an experiment and variation id")
            }
            guard experiments.insert(v.experiment).inserted else {
                throw SaveValidationError(field: "variants[\(i)].experiment", reason: "experiment '\(v.experiment)' appears twice")
            }
        }
        for (list, entries) in [("answers", answers), ("drafts", drafts)] {
            var seen = Set<StepID>()
            for (i, a) in entries.enumerated() {
                try SessionSave.checkSize(a.value, field: "\(list)[\(i)].value")
                guard seen.insert(a.step).inserted else {
                    throw SaveValidationError(field: "\(list)[\(i)].step", reason: "step '\(a.step)' appears twice")
                }
            }
        }
    }

    /// Bounds of the recorded related entries (a session's requests, each
    /// at most 5 answers of the person's).
    public static func validate(recalled: [RecalledEntries], field: String = "recalled") throws(SaveValidationError) {
        guard recalled.count <= maxAnswers else {
            throw SaveValidationError(field: field, reason: "\(recalled.count) requests (at most \(maxAnswers))")
        }
        var ids = Set<StepID>()
        for (i, r) in recalled.enumerated() {
            guard ids.insert(r.id).inserted else { throw SaveValidationError(field: "\(field)[\(i)].id", reason: "id '\(r.id)' appears twice") }
            guard r.entries.count <= 5 else { throw SaveValidationError(field: "\(field)[\(i)].entries", reason: "more than 5 entries") }
            guard r.basis.utf8.count <= 128 else { throw SaveValidationError(field: "\(field)[\(i)].basis", reason: "longer than 128 bytes") }
            for (j, e) in r.entries.enumerated() {
                guard e.text.utf8.count <= maxTextBytes, e.day.utf8.count <= 32, e.flow.utf8.count <= SessionLimits.maxFlowIDBytes,
                      e.session.utf8.count <= 128, e.score.isFinite else {
                    throw SaveValidationError(field: "\(field)[\(i)].entries[\(j)]", reason: "not a related entry (text, day, flow, session or score out of bounds)")
                }
            }
        }
    }

    private static func checkSize(_ value: AnswerValue, field: String) throws(SaveValidationError) {
        switch value {
        case .text(let s) where s.utf8.count > maxTextBytes:
            throw SaveValidationError(field: field, reason: "text longer than \(maxTextBytes) bytes")
        case .choice(let id) where !StepID.isValid(id):
            throw SaveValidationError(field: field, reason: "not an option id (1–\(SessionLimits.maxStepIDBytes) lowercase characters)")
        case .choices(let ids) where ids.count > SessionLimits.maxOptions || ids.contains { !StepID.isValid($0) }:
            throw SaveValidationError(field: field, reason: "more than \(SessionLimits.maxOptions) option ids, or one that is not an option id")
        case .checklist(let marks) where marks.count > SessionLimits.maxOptions || marks.keys.contains { !StepID.isValid($0) }:
            throw SaveValidationError(field: field, reason: "more than \(SessionLimits.maxOptions) checklist items, or one that is not an item id")
        default:
            return
        }
    }
}

/// One entry of the answer log.
public struct RecordedAnswer: Sendable, Equatable, Codable {
    public var step: StepID
    public var value: AnswerValue

    public init(step: StepID, value: AnswerValue) {
        self.step = step
        self.value = value
    }
}

/// A save that failed validation: which field, and why.
public struct SaveValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
    public var description: String {
        field.isEmpty ? "invalid session save: \(reason)" : "invalid session save: \(field): \(reason)"
    }
}

extension [CodingKey] {
    var pathString: String {
        var out = ""
        for key in self {
            if let i = key.intValue { out += "[\(i)]" } else { out += out.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return out
    }
}

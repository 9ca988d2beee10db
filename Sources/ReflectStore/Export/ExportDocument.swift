import Foundation
import ReflectCore

/// The JSON export, schema `reflect.export` version 1 (docs/storage.md, "Export schema").
///
/// Everything a person entered, in a form they can keep, read and import
/// again. Answer values are typed (`AnswerValue`'s JSON). Arrays are sorted
/// (sessions by start, answers by position) so two exports of the same data
/// are byte-identical apart from `exported_at`.
public struct ExportDocument: Codable, Sendable, Equatable {
    public static let formatName = "reflect.export"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var exportedAt: String
    public var sessions: [ExportedSession]
    public var moodEntries: [ExportedMoodEntry]
    /// Settings, Prep Library, prep marks and craving notes (empty in
    /// exports made before the coach).
    public var coach: ExportedCoach
    /// Streak days, achievements and celebrations; absent in older exports
    /// (and when there are none).
    public var progress: ExportedProgress?
    /// Coach chat messages (`chat_message`); absent in exports from before
    /// the chat, and when there are none.
    public var chatMessages: [ExportedChatMessage]?
    /// Rows the export could not read and left out, one sentence each
    /// (`session 1f2e…: answer 'thought': …`). Absent when empty; ignored
    /// by import.
    public var problems: [String]?
    /// Experiment exposures and sticky arms (docs/experiments.md); absent
    /// in exports from before experiments, which still import.
    public var experimentExposures: [ExportedExposure]?
    public var experimentAssignments: [ExportedAssignment]?
    /// Profile choices and 👍 / 👎 ratings (docs/journal.md); absent in
    /// exports from before them, and when there are none.
    public var personalization: ExportedPersonalization?

    public init(exportedAt: String, sessions: [ExportedSession], moodEntries: [ExportedMoodEntry], coach: ExportedCoach = ExportedCoach(),
                progress: ExportedProgress? = nil,
                problems: [String] = [], experimentExposures: [ExportedExposure] = [], experimentAssignments: [ExportedAssignment] = []) {
        format = ExportDocument.formatName
        version = ExportDocument.currentVersion
        self.exportedAt = exportedAt
        self.sessions = sessions
        self.moodEntries = moodEntries
        self.coach = coach
        self.progress = progress.flatMap { $0.isEmpty ? nil : $0 }
        self.problems = problems.isEmpty ? nil : problems
        self.experimentExposures = experimentExposures
        self.experimentAssignments = experimentAssignments
    }

    enum CodingKeys: String, CodingKey {
        case format, version, sessions, problems, coach, progress, personalization
        case exportedAt = "exported_at", moodEntries = "mood_entries", chatMessages = "chat_messages"
        case experimentExposures = "experiment_exposures", experimentAssignments = "experiment_assignments"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(String.self, forKey: .format)
        version = try c.decode(Int.self, forKey: .version)
        exportedAt = try c.decode(String.self, forKey: .exportedAt)
        sessions = try c.decode([ExportedSession].self, forKey: .sessions)
        moodEntries = try c.decode([ExportedMoodEntry].self, forKey: .moodEntries)
        coach = try c.decodeIfPresent(ExportedCoach.self, forKey: .coach) ?? ExportedCoach()
        progress = try c.decodeIfPresent(ExportedProgress.self, forKey: .progress)
        chatMessages = try c.decodeIfPresent([ExportedChatMessage].self, forKey: .chatMessages)
        problems = try c.decodeIfPresent([String].self, forKey: .problems)
        experimentExposures = try c.decodeIfPresent([ExportedExposure].self, forKey: .experimentExposures)
        experimentAssignments = try c.decodeIfPresent([ExportedAssignment].self, forKey: .experimentAssignments)
        personalization = try c.decodeIfPresent(ExportedPersonalization.self, forKey: .personalization)
    }
}

/// A person was shown a prompt using their arm of an experiment (ids only).
public struct ExportedExposure: Codable, Sendable, Equatable {
    public var user: String
    public var experiment: String
    public var variant: String
    /// Nil when the session was deleted.
    public var sessionID: String?
    public var at: String

    public init(user: String, experiment: String, variant: String, sessionID: String?, at: String) {
        self.user = user
        self.experiment = experiment
        self.variant = variant
        self.sessionID = sessionID
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case user, experiment, variant, at
        case sessionID = "session_id"
    }
}

/// A person's sticky arm in an experiment, per bucket version.
public struct ExportedAssignment: Codable, Sendable, Equatable {
    public var user: String
    public var experiment: String
    public var bucketVersion: Int
    public var variant: String
    public var assignedAt: String
    /// The hash seed the arm was chosen under (absent in older exports).
    public var seed: String?

    public init(user: String, experiment: String, bucketVersion: Int, variant: String, assignedAt: String, seed: String? = nil) {
        self.user = user
        self.experiment = experiment
        self.bucketVersion = bucketVersion
        self.variant = variant
        self.assignedAt = assignedAt
        self.seed = seed
    }

    enum CodingKeys: String, CodingKey {
        case user, experiment, variant, seed
        case bucketVersion = "bucket_version", assignedAt = "assigned_at"
    }
}

// Values with a closed set of meanings (mood, kind, distortion type, safety
// category, source) are exported exactly as stored, as strings: an export
// never rewrites a value it does not know. Import checks them
// (``ExportDocument/validate()``).

public struct ExportedSession: Codable, Sendable, Equatable {
    public var id: String
    public var flowID: String
    public var flowVersion: Int
    public var locale: String
    public var personality: String?
    public var user: String
    /// A ``Mood`` raw value, as stored.
    public var mood: String?
    public var seed: UInt64
    public var clock: String
    public var startedAt: String
    public var completedAt: String?
    public var status: SessionRecord.Status
    public var pre: Int?
    public var post: Int?
    public var answers: [ExportedAnswer]
    public var distortions: [ExportedDistortion]
    public var events: [ExportedEvent]
    /// The person's facts the session started with (the engine's
    /// `UserFacts` as JSON, exactly as stored), so a re-imported session
    /// replays as it ran. Absent for sessions that stored none and in
    /// exports from before facts existed.
    public var facts: String?
    /// The texts generated for the session's flow, as shown. Empty in
    /// exports from before they were exported.
    public var generated: [ExportedGeneratedText]
    /// The session's experiment arms (absent when none, and in older exports).
    public var variants: [VariantAssignment]?

    /// The themes auto-tagging found in the session's answers (table
    /// `answer_theme`). Empty in exports from before themes existed.
    public var themes: [ExportedTheme] = []
    /// When the person set the session aside to start anew (its flow
    /// changed); absent otherwise and in older exports.
    public var setAsideAt: String?

    /// The related past entries the session showed (`s:related`), as shown;
    /// absent when none, and in older exports.
    public var recalled: [RecalledEntries]?

    enum CodingKeys: String, CodingKey {
        case id, locale, personality, user, mood, seed, clock, status, pre, post, answers, distortions, events, facts, generated, variants, themes
        case recalled
        case flowID = "flow_id", flowVersion = "flow_version", startedAt = "started_at", completedAt = "completed_at"
        case setAsideAt = "set_aside_at"
    }

    public init(id: String, flowID: String, flowVersion: Int, locale: String, personality: String?, user: String, mood: String?,
                seed: UInt64, clock: String, startedAt: String, completedAt: String?, status: SessionRecord.Status, pre: Int?,
                post: Int?, answers: [ExportedAnswer], distortions: [ExportedDistortion], events: [ExportedEvent],
                facts: String? = nil, generated: [ExportedGeneratedText] = []) {
        self.id = id
        self.flowID = flowID
        self.flowVersion = flowVersion
        self.locale = locale
        self.personality = personality
        self.user = user
        self.mood = mood
        self.seed = seed
        self.clock = clock
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.status = status
        self.pre = pre
        self.post = post
        self.answers = answers
        self.distortions = distortions
        self.events = events
        self.facts = facts
        self.generated = generated
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        flowID = try c.decode(String.self, forKey: .flowID)
        flowVersion = try c.wholeNumber(Int.self, forKey: .flowVersion)
        locale = try c.decode(String.self, forKey: .locale)
        personality = try c.decodeIfPresent(String.self, forKey: .personality)
        user = try c.decode(String.self, forKey: .user)
        mood = try c.decodeIfPresent(String.self, forKey: .mood)
        seed = try c.wholeNumber(UInt64.self, forKey: .seed)
        clock = try c.decode(String.self, forKey: .clock)
        startedAt = try c.decode(String.self, forKey: .startedAt)
        completedAt = try c.decodeIfPresent(String.self, forKey: .completedAt)
        status = try c.decode(SessionRecord.Status.self, forKey: .status)
        pre = try c.contains(.pre) && !c.decodeNil(forKey: .pre) ? c.wholeNumber(Int.self, forKey: .pre) : nil
        post = try c.contains(.post) && !c.decodeNil(forKey: .post) ? c.wholeNumber(Int.self, forKey: .post) : nil
        answers = try c.decode([ExportedAnswer].self, forKey: .answers)
        distortions = try c.decode([ExportedDistortion].self, forKey: .distortions)
        events = try c.decode([ExportedEvent].self, forKey: .events)
        facts = try c.decodeIfPresent(String.self, forKey: .facts)
        generated = try c.decodeIfPresent([ExportedGeneratedText].self, forKey: .generated) ?? []
        variants = try c.decodeIfPresent([VariantAssignment].self, forKey: .variants)
        themes = try c.decodeIfPresent([ExportedTheme].self, forKey: .themes) ?? []
        setAsideAt = try c.decodeIfPresent(String.self, forKey: .setAsideAt)
        recalled = try c.decodeIfPresent([RecalledEntries].self, forKey: .recalled)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(flowID, forKey: .flowID)
        try c.encode(flowVersion, forKey: .flowVersion)
        try c.encode(locale, forKey: .locale)
        try c.encodeIfPresent(personality, forKey: .personality)
        try c.encode(user, forKey: .user)
        try c.encodeIfPresent(mood, forKey: .mood)
        try c.encode(seed, forKey: .seed)
        try c.encode(clock, forKey: .clock)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encodeIfPresent(completedAt, forKey: .completedAt)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(pre, forKey: .pre)
        try c.encodeIfPresent(post, forKey: .post)
        try c.encode(answers, forKey: .answers)
        try c.encode(distortions, forKey: .distortions)
        try c.encode(events, forKey: .events)
        try c.encodeIfPresent(facts, forKey: .facts)
        if !generated.isEmpty { try c.encode(generated, forKey: .generated) }
        try c.encodeIfPresent(variants, forKey: .variants)
        if !themes.isEmpty { try c.encode(themes, forKey: .themes) }
        try c.encodeIfPresent(recalled, forKey: .recalled)
        try c.encodeIfPresent(setAsideAt, forKey: .setAsideAt)
    }
}

extension ExportedSession {
    /// The same session, set aside at `at` (nil: not set aside).
    func settingAside(_ at: String?) -> ExportedSession {
        var s = self
        s.setAsideAt = at
        return s
    }
}

/// A theme an answer mentions (table `answer_theme`); `theme` is a
/// ``Theme`` raw value, as stored.
public struct ExportedTheme: Codable, Sendable, Equatable {
    public var step: StepID
    public var theme: String

    public init(step: StepID, theme: String) {
        self.step = step
        self.theme = theme
    }
}

extension KeyedDecodingContainer {
    /// An integer, or an error at this key that says why not ("7.5 is not
    /// a whole number"): Foundation's own error for a fractional number
    /// has no coding path and reads "not valid JSON".
    func wholeNumber<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        do {
            return try decode(T.self, forKey: key)
        } catch {
            if let d = try? decode(Double.self, forKey: key) {
                throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription:
                    d == d.rounded() ? "\(d) is out of range" : "\(d) is not a whole number")
            }
            throw error
        }
    }
}

public struct ExportedAnswer: Codable, Sendable, Equatable {
    public var step: StepID
    public var position: Int
    /// A ``PromptKind`` raw value, as stored.
    public var kind: String
    public var question: String
    public var value: AnswerValue
    public var state: AnswerRecord.State
    public var answeredAt: String
    /// Set when the safety gate flagged the answer: a ``SafetyCategory`` raw value.
    public var safety: String?
    /// The options the question offered, as shown (id and label, in the
    /// flow's order); absent for other kinds and in older exports.
    public var options: [PromptOption]?

    enum CodingKeys: String, CodingKey {
        case step, position, kind, question, value, state, safety, options
        case answeredAt = "answered_at"
    }

    public init(step: StepID, position: Int, kind: String, question: String, value: AnswerValue, state: AnswerRecord.State,
                answeredAt: String, safety: String?, options: [PromptOption]? = nil) {
        self.options = options
        self.step = step
        self.position = position
        self.kind = kind
        self.question = question
        self.value = value
        self.state = state
        self.answeredAt = answeredAt
        self.safety = safety
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        step = try c.decode(StepID.self, forKey: .step)
        position = try c.wholeNumber(Int.self, forKey: .position)
        kind = try c.decode(String.self, forKey: .kind)
        question = try c.decode(String.self, forKey: .question)
        value = try c.decode(AnswerValue.self, forKey: .value)
        state = try c.decode(AnswerRecord.State.self, forKey: .state)
        answeredAt = try c.decode(String.self, forKey: .answeredAt)
        safety = try c.decodeIfPresent(String.self, forKey: .safety)
        options = try c.decodeIfPresent([PromptOption].self, forKey: .options)
    }
}

/// A text generated for a session's flow (table `generated_text`).
public struct ExportedGeneratedText: Codable, Sendable, Equatable {
    /// The request's id in the flow (`s:generate { id = ... }`).
    public var request: StepID
    public var text: String
    /// False when the flow's fallback was shown.
    public var generated: Bool
    public var basis: String
    public var at: String
}

public struct ExportedDistortion: Codable, Sendable, Equatable {
    public var step: StepID
    /// A ``DistortionType`` raw value, as stored.
    public var type: String
    public var detectedAt: String

    enum CodingKeys: String, CodingKey {
        case step, type
        case detectedAt = "detected_at"
    }
}

public struct ExportedEvent: Codable, Sendable, Equatable {
    public var kind: SessionEventRecord.Kind
    public var step: StepID
    public var category: String?
    public var at: String
}

/// A chat message as exported: values as stored.
public struct ExportedChatMessage: Codable, Sendable, Equatable {
    public var chatID: String
    public var position: Int
    public var user: String
    /// `person` or `coach`.
    public var role: String
    public var mode: String
    public var text: String
    public var generated: Bool
    public var safety: String?
    public var at: String

    public init(chatID: String, position: Int, user: String, role: String, mode: String, text: String, generated: Bool,
                safety: String?, at: String) {
        self.chatID = chatID
        self.position = position
        self.user = user
        self.role = role
        self.mode = mode
        self.text = text
        self.generated = generated
        self.safety = safety
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case position, user, role, mode, text, generated, safety, at
        case chatID = "chat_id"
    }
}

public struct ExportedMoodEntry: Codable, Sendable, Equatable {
    public var user: String
    public var day: String
    /// A ``Mood`` raw value, as stored.
    public var mood: String
    public var note: String?
    public var source: MoodEntryRecord.Source
    public var sessionID: String?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case user, day, mood, note, source
        case sessionID = "session_id", createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension ExportDocument {
    /// Decodes and validates an export, naming the record and field at
    /// fault (`sessions[2].answers[0].value: ...`).
    public static func decodeValidated(from data: Data) throws(StoreError) -> ExportDocument {
        let doc: ExportDocument
        do {
            doc = try JSONDecoder().decode(ExportDocument.self, from: data)
        } catch let DecodingError.dataCorrupted(c) where c.codingPath.isEmpty {
            // Not JSON at all: say what the file is, and what import takes.
            throw .invalidImport(record: "file", field: "", reason: ExportDocument.notJSON(data))
        } catch let DecodingError.dataCorrupted(c) {
            throw bad(c.codingPath, c.debugDescription)
        } catch let DecodingError.typeMismatch(_, c) where c.codingPath.isEmpty {
            // JSON, but not an object at the top: say what it is instead of
            // the decoder's own words.
            throw .invalidImport(record: "file", field: "", reason: ExportDocument.notAnObject(data))
        } catch let DecodingError.valueNotFound(_, c) where c.codingPath.isEmpty {
            throw .invalidImport(record: "file", field: "", reason: ExportDocument.notAnObject(data))
        } catch let DecodingError.typeMismatch(_, c) {
            throw bad(c.codingPath, c.debugDescription)
        } catch let DecodingError.keyNotFound(key, c) {
            throw bad(c.codingPath + [key], "missing")
        } catch let DecodingError.valueNotFound(_, c) {
            throw bad(c.codingPath, "missing value")
        } catch {
            throw .invalidImport(record: "file", field: "", reason: "not a JSON export")
        }
        try doc.validate()
        return doc
    }

    /// Why a JSON file whose top level is not an object cannot be imported.
    static func notAnObject(_ data: Data) -> String {
        let first = data.first { !" \t\r\n".utf8.contains($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        let what = switch first {
        case UInt8(ascii: "["): "a list"
        case UInt8(ascii: "\""): "a text"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "true or false"
        case UInt8(ascii: "n"): "null"
        default: "a number"
        }
        return "the file is JSON but its top level is \(what); an export is an object (written by `reflect export --format json`)"
    }

    /// Why a file that is not JSON cannot be imported: a CSV export is for
    /// reading (a spreadsheet), and import takes the JSON export.
    static func notJSON(_ data: Data) -> String {
        let start = String(decoding: data.prefix(400), as: UTF8.self).drop { $0 == "\u{FEFF}" }
        let takes = "import takes the JSON export (`reflect export --format json --out FILE`)"
        if start.hasPrefix(csvColumns.prefix(3).joined(separator: ",")) {
            return "this is a CSV export, which is for reading (in a spreadsheet) and cannot be imported; " + takes
        }
        return "this file is not JSON; " + takes
    }

    /// `[sessions, 2, answers, 0, value]` → record `sessions[2]`, field `answers[0].value`.
    private static func bad(_ path: [CodingKey], _ reason: String) -> StoreError {
        var keys = path[...]
        var record = "file"
        if let first = keys.first, ["sessions", "mood_entries"].contains(first.stringValue),
           let index = keys.dropFirst().first?.intValue {
            record = "\(first.stringValue)[\(index)]"
            keys = keys.dropFirst(2)
        }
        var field = ""
        for key in keys {
            if let i = key.intValue { field += "[\(i)]" } else { field += field.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return .invalidImport(record: record, field: field, reason: reason)
    }

    /// The longest question an import accepts (a question quotes at most a
    /// few answers of ``SessionSave/maxTextBytes``).
    public static let maxQuestionBytes = 65_536
    /// The largest `facts` an import accepts (they quote earlier answers).
    public static let maxFactsBytes = 4 << 20

    /// Checks what types alone do not: format and version, ids, dates,
    /// statuses, known values (mood, kind, distortion, category), ranges,
    /// sizes, duplicates, and that no text holds a NUL (SQLite would cut it off there).
    public func validate() throws(StoreError) {
        try progress?.validate()
        try personalization?.validate()
        guard format == ExportDocument.formatName else {
            throw .invalidImport(record: "file", field: "format", reason: "expected '\(ExportDocument.formatName)'")
        }
        guard version == ExportDocument.currentVersion else {
            throw .invalidImport(record: "file", field: "version", reason: "unsupported version \(version)")
        }
        try coach.validate()
        try validateExperimentRows()
        var ids = Set<String>()
        for (i, s) in sessions.enumerated() {
            let r = "sessions[\(i)]"
            func fail(_ field: String, _ why: String) -> StoreError { .invalidImport(record: r, field: field, reason: why) }
            func time(_ field: String, _ value: String) throws(StoreError) {
                guard FlowClock(iso8601: value) != nil else { throw fail(field, "'\(value.prefix(40))' is not an ISO-8601 time with offset") }
            }
            func text(_ field: String, _ value: String?, max: Int = 256) throws(StoreError) {
                guard let value else { return }
                if value.utf8.contains(0) { throw fail(field, "contains a NUL character (U+0000)") }
                if value.utf8.count > max { throw fail(field, "longer than \(max) bytes") }
            }
            guard !s.id.isEmpty, s.id.count <= 64, s.id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw fail("id", "must be 1–64 letters, digits or '-'")
            }
            guard ids.insert(s.id).inserted else { throw fail("id", "'\(s.id)' appears twice") }
            guard !s.flowID.isEmpty, s.flowID.count <= 128 else { throw fail("flow_id", "invalid flow id") }
            try text("flow_id", s.flowID)
            try text("locale", s.locale, max: 35)
            try text("personality", s.personality)
            guard s.flowVersion >= 1 else { throw fail("flow_version", "must be ≥ 1") }
            guard !s.user.isEmpty, s.user.count <= 64 else { throw fail("user", "must be 1 to 64 characters") }
            try text("user", s.user)
            if let mood = s.mood, Mood(rawValue: mood) == nil { throw fail("mood", "unknown mood '\(mood.prefix(40))'") }
            try time("clock", s.clock)
            try time("started_at", s.startedAt)
            if let c = s.completedAt { try time("completed_at", c) }
            if let at = s.setAsideAt {
                try time("set_aside_at", at)
                guard s.status == .active else { throw fail("set_aside_at", "only an unfinished session can be set aside") }
            }
            if s.status == .completed, s.completedAt == nil { throw fail("completed_at", "a completed session needs it") }
            for (field, v) in [("pre", s.pre), ("post", s.post)] {
                if let v, !PromptShape.intensityRange.contains(v) { throw fail(field, "\(v) is not 0–10") }
            }
            guard s.answers.count <= 2 * SessionSave.maxAnswers else { throw fail("answers", "\(s.answers.count) answers (at most \(2 * SessionSave.maxAnswers))") }
            var steps = Set<StepID>(), positions = Set<Int>()
            for (j, a) in s.answers.enumerated() {
                let f = "answers[\(j)]"
                guard steps.insert(a.step).inserted else { throw fail("\(f).step", "'\(a.step)' appears twice") }
                guard a.position >= 0, a.position < SessionSave.maxAnswers else {
                    throw fail("\(f).position", "\(a.position) is not 0–\(SessionSave.maxAnswers - 1)")
                }
                if a.state == .answer {
                    guard positions.insert(a.position).inserted else { throw fail("\(f).position", "\(a.position) appears twice") }
                }
                guard let kind = PromptKind(rawValue: a.kind) else { throw fail("\(f).kind", "unknown kind '\(a.kind.prefix(40))'") }
                try text("\(f).question", a.question, max: ExportDocument.maxQuestionBytes)
                if let options = a.options {
                    guard options.count <= SessionLimits.maxOptions else { throw fail("\(f).options", "\(options.count) options (at most \(SessionLimits.maxOptions))") }
                    for (k, o) in options.enumerated() {
                        try text("\(f).options[\(k)].id", o.id, max: SessionLimits.maxOptionTextBytes)
                        try text("\(f).options[\(k)].text", o.text, max: SessionLimits.maxOptionTextBytes)
                    }
                }
                if let why = ExportDocument.mismatch(a.value, kind) { throw fail("\(f).value", why) }
                if let category = a.safety, SafetyCategory(rawValue: category) == nil {
                    throw fail("\(f).safety", "unknown category '\(category.prefix(40))'")
                }
                try time("\(f).answered_at", a.answeredAt)
            }
            for (j, d) in s.distortions.enumerated() {
                guard DistortionType(rawValue: d.type) != nil else { throw fail("distortions[\(j)].type", "unknown distortion '\(d.type.prefix(40))'") }
                try time("distortions[\(j)].detected_at", d.detectedAt)
            }
            if let facts = s.facts {
                try text("facts", facts, max: ExportDocument.maxFactsBytes)
                do { _ = try JSONDecoder().decode(UserFacts.self, from: Data(facts.utf8)) } catch {
                    throw fail("facts", "not the engine's user facts (\(error.localizedDescription))")
                }
            }
            guard s.generated.count <= SessionSave.maxAnswers else { throw fail("generated", "too many generated texts") }
            var requests = Set<StepID>()
            for (j, g) in s.generated.enumerated() {
                guard requests.insert(g.request).inserted else { throw fail("generated[\(j)].request", "'\(g.request)' appears twice") }
                try text("generated[\(j)].text", g.text, max: ExportDocument.maxQuestionBytes)
                try text("generated[\(j)].basis", g.basis, max: 128)
                try time("generated[\(j)].at", g.at)
            }
            if let recalled = s.recalled {
                do { try SessionSave.validate(recalled: recalled) } catch { throw fail(error.field, error.reason) }
            }
            guard s.themes.count <= Theme.allCases.count * SessionSave.maxAnswers else { throw fail("themes", "too many themes") }
            var tagged = Set<String>()
            for (j, t) in s.themes.enumerated() {
                guard Theme(rawValue: t.theme) != nil else { throw fail("themes[\(j)].theme", "unknown theme '\(t.theme.prefix(40))'") }
                guard tagged.insert("\(t.step.rawValue) \(t.theme)").inserted else {
                    throw fail("themes[\(j)]", "'\(t.step)' is tagged '\(t.theme)' twice")
                }
            }
            guard s.events.count <= 10 * SessionSave.maxAnswers else { throw fail("events", "too many events") }
            for (j, e) in s.events.enumerated() {
                try text("events[\(j)].category", e.category, max: 64)
                try time("events[\(j)].at", e.at)
            }
        }
        var days = Set<String>()
        for (i, m) in moodEntries.enumerated() {
            let r = "mood_entries[\(i)]"
            guard let mood = Mood(rawValue: m.mood) else {
                throw .invalidImport(record: r, field: "mood", reason: "unknown mood '\(m.mood.prefix(40))'")
            }
            let request = MoodLogRequest(user: m.user, day: m.day, mood: mood, note: m.note, source: .import, at: m.createdAt)
            if let bad = MoodLog.validate(request) { throw .invalidImport(record: r, field: bad.field, reason: bad.reason) }
            for (field, value) in [("created_at", m.createdAt), ("updated_at", m.updatedAt)] where FlowClock(iso8601: value) == nil {
                throw .invalidImport(record: r, field: field, reason: "'\(value.prefix(40))' is not an ISO-8601 time with offset")
            }
            if let id = m.sessionID, id.utf8.count > 64 || id.utf8.contains(0) {
                throw .invalidImport(record: r, field: "session_id", reason: "not a session id")
            }
            guard days.insert("\(m.user)/\(m.day)").inserted else {
                throw .invalidImport(record: r, field: "day", reason: "\(m.day) appears twice for \(m.user)")
            }
        }
        var places = Set<String>()
        for (i, c) in (chatMessages ?? []).enumerated() {
            let r = "chat_messages[\(i)]"
            func fail(_ field: String, _ why: String) -> StoreError { .invalidImport(record: r, field: field, reason: why) }
            guard !c.chatID.isEmpty, c.chatID.utf8.count <= 64, !c.chatID.utf8.contains(0) else { throw fail("chat_id", "not a chat id") }
            guard c.position >= 0 else { throw fail("position", "negative") }
            guard places.insert("\(c.chatID)/\(c.position)").inserted else { throw fail("position", "appears twice in chat \(c.chatID)") }
            guard !c.user.isEmpty, c.user.utf8.count <= 256, !c.user.utf8.contains(0) else { throw fail("user", "not a user name") }
            guard ChatMessageRecord.Role(rawValue: c.role) != nil else { throw fail("role", "unknown role '\(c.role.prefix(40))' (person or coach)") }
            guard c.mode.utf8.count <= 64, !c.mode.utf8.contains(0) else { throw fail("mode", "not a chat mode") }
            guard c.text.utf8.count <= SessionSave.maxTextBytes, !c.text.utf8.contains(0) else {
                throw fail("text", "longer than \(SessionSave.maxTextBytes) bytes or contains a NUL character")
            }
            if let safety = c.safety, SafetyCategory(rawValue: safety) == nil { throw fail("safety", "unknown category '\(safety.prefix(40))'") }
            guard FlowClock(iso8601: c.at) != nil else { throw fail("at", "'\(c.at.prefix(40))' is not an ISO-8601 time with offset") }
        }
    }

    /// Why a value cannot be the answer to a question of this kind (nil if it can).
    static func mismatch(_ value: AnswerValue, _ kind: PromptKind) -> String? {
        switch (kind, value) {
        case (_, .skipped): return nil
        case (.text, .text(let t)):
            if t.utf8.count > SessionSave.maxTextBytes { return "text longer than \(SessionSave.maxTextBytes) bytes" }
            if t.utf8.contains(0) { return "contains a NUL character (U+0000)" }
            return nil
        case (.intensity, .integer(let i)):
            return PromptShape.intensityRange.contains(i) ? nil : "\(i) is not 0–10"
        case (.number, .integer): return nil
        case (.number, .number(let d)): return d.isFinite ? nil : "not a finite number"
        case (.yesNo, .boolean), (.message, .acknowledged), (.action, .acknowledged): return nil
        case (.singleChoice, .choice(let id)): return id.isEmpty || id.utf8.count > 64 || id.utf8.contains(0) ? "not an option id" : nil
        case (.multiChoice, .choices(let ids)):
            return ids.count > 100 || ids.contains { $0.isEmpty || $0.utf8.count > 64 || $0.utf8.contains(0) } ? "not a list of option ids" : nil
        case (.checklist, .checklist(let marks)):
            return marks.count > 100 || marks.keys.contains { $0.isEmpty || $0.utf8.count > 64 || $0.utf8.contains(0) } ? "not a checklist" : nil
        default:
            return "not an answer to a \(kind.rawValue) question"
        }
    }
}

extension ExportDocument {
    /// Experiment rows: ids and times only, each checked before anything is written.
    func validateExperimentRows() throws(StoreError) {
        func id(_ s: String) -> Bool { ExperimentKey.isValid(s) }
        for (i, e) in (experimentExposures ?? []).enumerated() {
            let r = "experiment_exposures[\(i)]"
            guard !e.user.isEmpty, e.user.count <= 64, !e.user.utf8.contains(0) else {
                throw .invalidImport(record: r, field: "user", reason: "must be 1 to 64 characters")
            }
            guard id(e.experiment), id(e.variant) else { throw .invalidImport(record: r, field: "experiment", reason: "not an experiment and variant id") }
            guard FlowClock(iso8601: e.at) != nil else { throw .invalidImport(record: r, field: "at", reason: "not an ISO-8601 time with offset") }
        }
        for (i, a) in (experimentAssignments ?? []).enumerated() {
            let r = "experiment_assignments[\(i)]"
            guard !a.user.isEmpty, a.user.count <= 64, !a.user.utf8.contains(0) else {
                throw .invalidImport(record: r, field: "user", reason: "must be 1 to 64 characters")
            }
            guard id(a.experiment), id(a.variant), a.bucketVersion >= 0 else {
                throw .invalidImport(record: r, field: "experiment", reason: "not an experiment and variant id, or a negative bucket version")
            }
            guard FlowClock(iso8601: a.assignedAt) != nil else {
                throw .invalidImport(record: r, field: "assigned_at", reason: "not an ISO-8601 time with offset")
            }
            if let seed = a.seed, seed.isEmpty || seed.count > 200 || seed.utf8.contains(0) {
                throw .invalidImport(record: r, field: "seed", reason: "must be 1 to 200 characters")
            }
        }
        for (i, s) in sessions.enumerated() {
            for (j, v) in (s.variants ?? []).enumerated() where !id(v.experiment) || !id(v.variation) {
                throw .invalidImport(record: "sessions[\(i)]", field: "variants[\(j)]", reason: "not an experiment and variation id")
            }
        }
    }
}

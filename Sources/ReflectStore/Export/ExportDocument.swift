import Foundation
import ReflectCore

/// The JSON export, schema `reflect.export` version 1 (docs/export.md).
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

    public init(exportedAt: String, sessions: [ExportedSession], moodEntries: [ExportedMoodEntry]) {
        format = ExportDocument.formatName
        version = ExportDocument.currentVersion
        self.exportedAt = exportedAt
        self.sessions = sessions
        self.moodEntries = moodEntries
    }

    enum CodingKeys: String, CodingKey {
        case format, version, sessions
        case exportedAt = "exported_at", moodEntries = "mood_entries"
    }
}

public struct ExportedSession: Codable, Sendable, Equatable {
    public var id: String
    public var flowID: String
    public var flowVersion: Int
    public var locale: String
    public var personality: String?
    public var user: String
    public var mood: Mood?
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

    enum CodingKeys: String, CodingKey {
        case id, locale, personality, user, mood, seed, clock, status, pre, post, answers, distortions, events
        case flowID = "flow_id", flowVersion = "flow_version", startedAt = "started_at", completedAt = "completed_at"
    }
}

public struct ExportedAnswer: Codable, Sendable, Equatable {
    public var step: StepID
    public var position: Int
    public var kind: PromptKind
    public var question: String
    public var value: AnswerValue
    public var state: AnswerRecord.State
    public var answeredAt: String
    /// Set when the safety gate flagged the answer (category).
    public var safety: SafetyCategory?

    enum CodingKeys: String, CodingKey {
        case step, position, kind, question, value, state, safety
        case answeredAt = "answered_at"
    }
}

public struct ExportedDistortion: Codable, Sendable, Equatable {
    public var step: StepID
    public var type: DistortionType
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

public struct ExportedMoodEntry: Codable, Sendable, Equatable {
    public var user: String
    public var day: String
    public var mood: Mood
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
        } catch let DecodingError.dataCorrupted(c) {
            throw bad(c.codingPath, c.debugDescription)
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

    /// Checks what types alone do not: format and version, ids, dates,
    /// statuses, duplicates.
    public func validate() throws(StoreError) {
        guard format == ExportDocument.formatName else {
            throw .invalidImport(record: "file", field: "format", reason: "expected '\(ExportDocument.formatName)'")
        }
        guard version == ExportDocument.currentVersion else {
            throw .invalidImport(record: "file", field: "version", reason: "unsupported version \(version)")
        }
        var ids = Set<String>()
        for (i, s) in sessions.enumerated() {
            let r = "sessions[\(i)]"
            func fail(_ field: String, _ why: String) -> StoreError { .invalidImport(record: r, field: field, reason: why) }
            guard !s.id.isEmpty, s.id.count <= 64, s.id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw fail("id", "must be 1–64 letters, digits or '-'")
            }
            guard ids.insert(s.id).inserted else { throw fail("id", "'\(s.id)' appears twice") }
            guard !s.flowID.isEmpty, s.flowID.count <= 128 else { throw fail("flow_id", "invalid flow id") }
            guard s.flowVersion >= 1 else { throw fail("flow_version", "must be ≥ 1") }
            guard !s.user.isEmpty, s.user.count <= 64 else { throw fail("user", "must be 1 to 64 characters") }
            for (field, value) in [("clock", s.clock), ("started_at", s.startedAt)] where FlowClock(iso8601: value) == nil {
                throw fail(field, "'\(value)' is not an ISO-8601 time with offset")
            }
            if let c = s.completedAt, FlowClock(iso8601: c) == nil { throw fail("completed_at", "'\(c)' is not an ISO-8601 time") }
            if s.status == .completed, s.completedAt == nil { throw fail("completed_at", "a completed session needs it") }
            for (field, v) in [("pre", s.pre), ("post", s.post)] {
                if let v, !PromptShape.intensityRange.contains(v) { throw fail(field, "\(v) is not 0–10") }
            }
            var steps = Set<StepID>(), positions = Set<Int>()
            for (j, a) in s.answers.enumerated() {
                guard steps.insert(a.step).inserted else { throw fail("answers[\(j)].step", "'\(a.step)' appears twice") }
                if a.state == .answer {
                    guard positions.insert(a.position).inserted else { throw fail("answers[\(j)].position", "\(a.position) appears twice") }
                }
                if case .text(let t) = a.value, t.utf8.count > SessionSave.maxTextBytes {
                    throw fail("answers[\(j)].value", "text longer than \(SessionSave.maxTextBytes) bytes")
                }
                guard FlowClock(iso8601: a.answeredAt) != nil else { throw fail("answers[\(j)].answered_at", "not an ISO-8601 time") }
            }
        }
        var days = Set<String>()
        for (i, m) in moodEntries.enumerated() {
            let request = MoodLogRequest(user: m.user, day: m.day, mood: m.mood, note: m.note, source: .import, at: m.createdAt)
            if let bad = MoodLog.validate(request) { throw .invalidImport(record: "mood_entries[\(i)]", field: bad.field, reason: bad.reason) }
            guard days.insert("\(m.user)/\(m.day)").inserted else {
                throw .invalidImport(record: "mood_entries[\(i)]", field: "day", reason: "\(m.day) appears twice for \(m.user)")
            }
        }
    }
}

import Foundation
import GRDB
import ReflectCore

/// One mood entry to record: from `reflect log`, from the end of a
/// reflection, or from an import.
public struct MoodLogRequest: Sendable, Equatable {
    public enum Conflict: Sendable, Equatable {
        /// The day's entry is replaced (a person edits their day).
        case update
        /// An existing entry wins (an import never overwrites).
        case keepExisting
    }

    public var user: String
    /// The local day, YYYY-MM-DD.
    public var day: String
    public var mood: Mood
    public var note: String?
    public var source: MoodEntryRecord.Source
    public var sessionID: String?
    /// When this happened (ISO-8601).
    public var at: String
    public var conflict: Conflict

    public init(user: String, day: String, mood: Mood, note: String?, source: MoodEntryRecord.Source,
                sessionID: String? = nil, at: String, conflict: Conflict = .update) {
        self.user = user
        self.day = day
        self.mood = mood
        self.note = note
        self.source = source
        self.sessionID = sessionID
        self.at = at
        self.conflict = conflict
    }
}

/// The only code that writes `mood_entry`. Every entry point (`reflect
/// log`, a reflection that ends, an import) calls ``record(_:in:)`` inside
/// its own transaction, so every side effect of logging a mood happens in
/// one place: validation, one entry per person and day, editing through the
/// day while keeping when it was first logged.
public enum MoodLog {
    public static let maxNoteLength = 2_000

    /// Checks a request without writing: day format, note length.
    public static func validate(_ r: MoodLogRequest) -> (field: String, reason: String)? {
        if !isDay(r.day) { return ("day", "'\(r.day)' is not a valid date (expected YYYY-MM-DD, e.g. 2026-11-24)") }
        if let note = r.note, note.count > maxNoteLength { return ("note", "longer than \(maxNoteLength) characters") }
        // SQLite would cut the text off at a NUL: refused, never shortened.
        if let note = r.note, note.utf8.contains(0) { return ("note", "contains a NUL character (U+0000)") }
        if r.user.utf8.contains(0) { return ("user", "contains a NUL character (U+0000)") }
        if r.user.isEmpty || r.user.count > 64 { return ("user", "must be 1 to 64 characters") }
        return nil
    }

    /// What recording a mood did to the person's day.
    public struct Outcome: Sendable, Equatable {
        /// The day's entry as stored now.
        public var entry: MoodEntryRecord
        /// Whether anything was written (an import keeps an existing entry).
        public var changed: Bool
        /// Whether the day already had an entry, which this one replaced
        /// (`reflect log` says so, `log.updated`): known from the row found, never
        /// guessed from its times (two logs within a second share one).
        public var replaced: Bool
    }

    /// Records (or edits) the entry.
    @discardableResult
    public static func record(_ r: MoodLogRequest, in db: Database) throws -> Outcome {
        if let bad = validate(r) {
            throw r.conflict == .keepExisting ? StoreError.invalidImport(record: "mood entry \(r.day)", field: bad.field, reason: bad.reason)
                : StoreError.invalidEntry(record: "mood entry", field: bad.field, reason: bad.reason)
        }
        // Explicit columns, never a key lookup: a mood_entry table with
        // another key (a newer schema) gives an SQLite error, not a crash.
        if var existing = try MoodEntryRecord.filter(MoodEntryRecord.Columns.user == r.user && MoodEntryRecord.Columns.day == r.day).fetchOne(db) {
            guard r.conflict == .update else { return Outcome(entry: existing, changed: false, replaced: false) }
            existing.mood = r.mood
            existing.note = r.note ?? existing.note
            existing.source = r.source
            existing.sessionID = r.sessionID ?? existing.sessionID
            existing.updatedAt = r.at
            try db.execute(sql: "UPDATE mood_entry SET mood = ?, note = ?, source = ?, session_id = ?, updated_at = ? WHERE user = ? AND day = ?",
                           arguments: [existing.mood.rawValue, existing.note, existing.source.rawValue, existing.sessionID, existing.updatedAt,
                                       r.user, r.day])
            return Outcome(entry: existing, changed: true, replaced: true)
        }
        let entry = MoodEntryRecord(user: r.user, day: r.day, mood: r.mood, note: r.note, source: r.source,
                                    sessionID: r.sessionID, createdAt: r.at, updatedAt: r.at)
        try entry.insert(db)
        if let day = CalendarDay(r.day) { try Store.markActivity([.logged("mood", day: day)], user: r.user, in: db) }
        return Outcome(entry: entry, changed: true, replaced: false)
    }

    static func isDay(_ s: String) -> Bool {
        let parts = s.split(separator: "-")
        guard s.count == 10, parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              parts[0].count == 4, (1...12).contains(m), d >= 1 else { return false }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC") ?? cal.timeZone
        guard let date = cal.date(from: DateComponents(year: y, month: m, day: 1)),
              let days = cal.range(of: .day, in: .month, for: date) else { return false }
        return days.contains(d)
    }
}

extension Store {
    /// `reflect log`: records or edits the day's mood; the outcome says
    /// whether the day already had an entry.
    @discardableResult
    public func logMood(_ request: MoodLogRequest) throws(StoreError) -> MoodLog.Outcome {
        if let bad = MoodLog.validate(request) {
            throw .invalidEntry(record: "mood entry", field: bad.field, reason: bad.reason)
        }
        return try write { db in try MoodLog.record(request, in: db) }
    }

    /// Recent mood entries, newest day first.
    public func moodEntries(user: String, limit: Int = 30) throws(StoreError) -> [MoodEntryRecord] {
        try read { db in
            try MoodEntryRecord.filter(MoodEntryRecord.Columns.user == user).order(MoodEntryRecord.Columns.day.desc).limit(limit).fetchAll(db)
        }
    }
}

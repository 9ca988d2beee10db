import Foundation
import GRDB
import ReflectCore

/// The coach's part of the export (docs/storage.md, "Export schema"):
/// settings, the Prep Library, prep marks and craving notes, each row as
/// stored. Absent from exports made before the coach: they import as empty.
public struct ExportedCoach: Codable, Sendable, Equatable {
    public var settings: [SettingRecord]
    public var prepItems: [PrepItemRecord]
    public var prepMarks: [PrepMarkRecord]
    public var cravingNotes: [CravingNoteRecord]

    public init(settings: [SettingRecord] = [], prepItems: [PrepItemRecord] = [], prepMarks: [PrepMarkRecord] = [],
                cravingNotes: [CravingNoteRecord] = []) {
        self.settings = settings
        self.prepItems = prepItems
        self.prepMarks = prepMarks
        self.cravingNotes = cravingNotes
    }

    public var isEmpty: Bool { settings.isEmpty && prepItems.isEmpty && prepMarks.isEmpty && cravingNotes.isEmpty }

    enum CodingKeys: String, CodingKey {
        case settings
        case prepItems = "prep_items", prepMarks = "prep_marks", cravingNotes = "craving_notes"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        settings = try c.decodeIfPresent([SettingRecord].self, forKey: .settings) ?? []
        prepItems = try c.decodeIfPresent([PrepItemRecord].self, forKey: .prepItems) ?? []
        prepMarks = try c.decodeIfPresent([PrepMarkRecord].self, forKey: .prepMarks) ?? []
        cravingNotes = try c.decodeIfPresent([CravingNoteRecord].self, forKey: .cravingNotes) ?? []
    }

    /// Checks what types alone do not, naming the record and field:
    /// known setting keys with legal values, item ids and texts, days,
    /// times, sizes, duplicates, no NUL.
    func validate() throws(StoreError) {
        func fail(_ record: String, _ field: String, _ why: String) -> StoreError { .invalidImport(record: record, field: field, reason: why) }
        func user(_ r: String, _ u: String) throws(StoreError) {
            guard !u.isEmpty, u.count <= 64, !u.utf8.contains(0) else { throw fail(r, "user", "must be 1 to 64 characters") }
        }
        func time(_ r: String, _ field: String, _ v: String) throws(StoreError) {
            guard FlowClock(iso8601: v) != nil else { throw fail(r, field, "'\(v.prefix(40))' is not an ISO-8601 time with offset") }
        }
        func day(_ r: String, _ field: String, _ v: String) throws(StoreError) {
            guard CalendarDay(v) != nil else { throw fail(r, field, "'\(v.prefix(40))' is not a day (YYYY-MM-DD)") }
        }
        var seen = Set<String>()
        for (i, s) in settings.enumerated() {
            let r = "coach.settings[\(i)]"
            try user(r, s.user)
            guard let key = SettingKey(rawValue: s.key) else { throw fail(r, "key", "unknown setting '\(s.key.prefix(40))'") }
            var probe = Settings()
            do { try probe.setting(key, to: s.value) } catch { throw fail(r, "value", error.description) }
            try time(r, "updated_at", s.updatedAt)
            guard seen.insert("\(s.user)\u{0}\(s.key)").inserted else { throw fail(r, "key", "\(s.key) appears twice for \(s.user)") }
        }
        seen = []
        var perUser: [String: Int] = [:]
        for (i, p) in prepItems.enumerated() {
            let r = "coach.prep_items[\(i)]"
            try user(r, p.user)
            guard StepID.isValid(p.id) else { throw fail(r, "id", "not an item id") }
            if let text = p.text {
                do { _ = try PrepLibrary.validText(text) } catch { throw fail(r, "text", error.description) }
            }
            guard p.position >= 1, p.position <= PrepLibrary.maxItems else { throw fail(r, "position", "\(p.position) is not 1–\(PrepLibrary.maxItems)") }
            if let a = p.archivedAt { try time(r, "archived_at", a) }
            if let h = p.hiddenOn { try day(r, "hidden_on", h) }
            try time(r, "created_at", p.createdAt)
            try time(r, "updated_at", p.updatedAt)
            guard seen.insert("\(p.user)\u{0}\(p.id)").inserted else { throw fail(r, "id", "'\(p.id)' appears twice for \(p.user)") }
            perUser[p.user, default: 0] += 1
            guard perUser[p.user, default: 0] <= PrepLibrary.maxItems else { throw fail(r, "", "more than \(PrepLibrary.maxItems) items for \(p.user)") }
        }
        seen = []
        for (i, m) in prepMarks.enumerated() {
            let r = "coach.prep_marks[\(i)]"
            try user(r, m.user)
            try day(r, "day", m.day)
            guard StepID.isValid(m.itemID) else { throw fail(r, "item_id", "not an item id") }
            if let s = m.sessionID, s.isEmpty || s.utf8.count > 64 || s.utf8.contains(0) { throw fail(r, "session_id", "not a session id") }
            try time(r, "marked_at", m.markedAt)
            guard seen.insert("\(m.user)\u{0}\(m.day)\u{0}\(m.itemID)").inserted else {
                throw fail(r, "item_id", "'\(m.itemID)' is marked twice on \(m.day) for \(m.user)")
            }
        }
        seen = []
        for (i, n) in cravingNotes.enumerated() {
            let r = "coach.craving_notes[\(i)]"
            guard !n.id.isEmpty, n.id.utf8.count <= 64, !n.id.utf8.contains(0) else { throw fail(r, "id", "must be 1 to 64 characters") }
            try user(r, n.user)
            try day(r, "day", n.day)
            try time(r, "at", n.at)
            if let d = n.detail, !StepID.isValid(d) { throw fail(r, "detail", "not an option id") }
            guard n.text.utf8.count <= SessionLimits.maxTextBytes else { throw fail(r, "text", "longer than \(SessionLimits.maxTextBytes) bytes") }
            guard !n.text.utf8.contains(0) else { throw fail(r, "text", "contains a NUL character (U+0000)") }
            guard seen.insert(n.id).inserted else { throw fail(r, "id", "'\(n.id.prefix(40))' appears twice") }
        }
    }
}

extension Store {
    /// The coach's rows, each read on its own: a row that cannot be read
    /// is left out and named in `problems`.
    static func exportCoach(_ db: Database, problems: inout [String]) throws -> ExportedCoach {
        func rows<T: FetchableRecord>(_ sql: String, _ what: (Row) -> String) throws -> [T] {
            try Row.fetchAll(db, sql: sql).compactMap { row in
                do { return try T(row: row) } catch {
                    problems.append("\(what(row)): cannot be read (\(Store.reason(error))); left out")
                    return nil
                }
            }
        }
        return ExportedCoach(
            settings: try rows("SELECT * FROM setting ORDER BY user, key") { "setting \(label($0["user"]))/\(label($0["key"]))" },
            prepItems: try rows("SELECT * FROM prep_item ORDER BY user, position, id") { "prep item \(label($0["user"]))/\(label($0["id"]))" },
            prepMarks: try rows("SELECT * FROM prep_mark ORDER BY user, day, item_id") {
                "prep mark \(label($0["user"]))/\(label($0["day"]))/\(label($0["item_id"]))" },
            cravingNotes: try rows("SELECT * FROM craving_note ORDER BY user, day, at, id") { "craving note \(label($0["id"]))" })
    }

    /// Inserts the coach's rows, inside the import's transaction. A row
    /// already present (same person and key, item, day and item, note id)
    /// is left as it is.
    /// Adds the coach rows not present yet; returns, per person, the days
    /// the added prep marks and craving notes count for (as they do when
    /// made live: ``Store/recordCoach(_:session:day:at:in:)``).
    static func importCoach(_ coach: ExportedCoach, in db: Database, report: inout ImportReport) throws -> [String: [ActivityMark]] {
        @discardableResult
        func insert(_ record: some PersistableRecord) throws -> Bool {
            do {
                try record.insert(db)
                report.coachRowsAdded += 1
                return true
            } catch let e as DatabaseError where e.resultCode == .SQLITE_CONSTRAINT {
                report.coachRowsAlreadyPresent += 1
                return false
            }
        }
        var activity: [String: [ActivityMark]] = [:]
        for s in coach.settings { try insert(s) }
        for p in coach.prepItems { try insert(p) }
        for m in coach.prepMarks {
            if try insert(m), let day = CalendarDay(m.day) { activity[m.user, default: []].append(.logged("prep", day: day)) }
        }
        for n in coach.cravingNotes {
            if try insert(n), let day = CalendarDay(n.day) { activity[n.user, default: []].append(.logged("craving", day: day)) }
        }
        return activity
    }
}

extension ExportDocument {
    /// CSV rows of the coach's data (see ``csv()``).
    func coachCSVRows() -> [[String]] {
        // record, session_id, flow_id, flow_version, status, started_at, completed_at, pre, post, position, step, kind,
        // question, answer, distortion, user, day, mood, note
        var rows: [[String]] = []
        for s in coach.settings {
            rows.append(["setting", "", "", "", "", s.updatedAt, "", "", "", "", s.key, "", "", s.value, "", s.user, "", "", ""])
        }
        for p in coach.prepItems {
            rows.append(["prep_item", "", "", "", p.archivedAt == nil ? "active" : "archived", p.createdAt, "", "", "", "\(p.position)", p.id,
                         p.core ? "core" : "", "", p.text ?? "", "", p.user, p.hiddenOn ?? "", "", ""])
        }
        for m in coach.prepMarks {
            rows.append(["prep_mark", m.sessionID ?? "", "", "", "", m.markedAt, "", "", "", "", m.itemID, m.mark.rawValue, "", "", "", m.user,
                         m.day, "", ""])
        }
        for n in coach.cravingNotes {
            rows.append(["craving_note", n.sessionID ?? "", "", "", "", n.at, "", "", "", "", n.detail ?? "", n.type.rawValue, "", n.text, "",
                         n.user, n.day, "", ""])
        }
        return rows
    }
}

import GRDB
import ReflectCore

/// A change to a person's Prep Library (`reflect prep …`).
public enum PrepChange: Sendable, Equatable {
    case add(text: String)
    case rename(id: String, text: String)
    case archive(id: String)
    case restore(id: String)
    /// To a 1-based position among all items.
    case move(id: String, position: Int)
    /// Hidden from `day`'s checklist (core items' "not today").
    case hide(id: String, day: CalendarDay)
    case unhide(id: String)
}

/// Why a Prep Library change failed: the library's rule, or the store.
public enum PrepStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case rule(PrepError)
    case store(StoreError)

    public var code: String {
        switch self {
        case .rule(let e): e.code
        case .store(let e): e.code
        }
    }

    public var description: String {
        switch self {
        case .rule(let e): e.description
        case .store(let e): e.description
        }
    }
}

extension Store {
    /// Every item of the person's library (archived ones too), in order.
    /// A person who never changed it has the default items.
    public func prepLibrary(user: String) throws(StoreError) -> [PrepItem] {
        try read { db in try Store.prepRows(user: user, in: db).map(\.item) }
    }

    /// The rows, or the defaults (not yet written) when there are none.
    static func prepRows(user: String, in db: Database) throws -> [PrepItemRecord] {
        // GRDB's query interface's SQL for filter(user).order(position, id),
        // without its schema look-ups (a run's start reads this).
        let rows = try PrepItemRecord.fetchAll(db.cachedStatement(sql: #"SELECT * FROM "prep_item" WHERE "user" = ? ORDER BY "position", "id""#),
                                               arguments: [user])
        guard rows.isEmpty else { return rows }
        return PrepLibrary.defaults.enumerated().map { i, d in
            PrepItemRecord(user: user, id: d.id, text: nil, core: d.core, position: i + 1, createdAt: "", updatedAt: "")
        }
    }

    /// Applies one change in one transaction and returns the library after
    /// it. A change the library's rules refuse (unknown id, core item,
    /// text too long) throws and writes nothing.
    @discardableResult
    public func changePrepLibrary(user: String, _ change: PrepChange, at: String) throws(PrepStoreError) -> [PrepItem] {
        do {
            return try writer.write { db -> [PrepItem] in
                var rows = try Store.prepRows(user: user, in: db)
                func index(_ id: String) throws -> Int {
                    guard let i = rows.firstIndex(where: { $0.id == id }) else { throw PrepError.unknownItem(id, known: rows.map(\.id)) }
                    return i
                }
                switch change {
                case .add(let raw):
                    let text = try PrepLibrary.validText(raw)
                    guard rows.count < PrepLibrary.maxItems else { throw PrepError.libraryFull(max: PrepLibrary.maxItems) }
                    rows.append(PrepItemRecord(user: user, id: Store.newItemID(rows), text: text, core: false, position: rows.count + 1,
                                               createdAt: at, updatedAt: at))
                case .rename(let id, let raw):
                    let text = try PrepLibrary.validText(raw)
                    let i = try index(id)
                    rows[i].text = text
                    rows[i].updatedAt = at
                case .archive(let id):
                    let i = try index(id)
                    guard !rows[i].core else { throw PrepError.coreItem(id) }
                    guard rows[i].archivedAt == nil else { throw PrepError.alreadyArchived(id) }
                    rows[i].archivedAt = at
                    rows[i].updatedAt = at
                case .restore(let id):
                    let i = try index(id)
                    guard rows[i].archivedAt != nil else { throw PrepError.notArchived(id) }
                    rows[i].archivedAt = nil
                    rows[i].updatedAt = at
                case .move(let id, let position):
                    let i = try index(id)
                    guard (1...rows.count).contains(position) else { throw PrepError.invalidPosition(position, count: rows.count) }
                    let row = rows.remove(at: i)
                    rows.insert(row, at: position - 1)
                case .hide(let id, let day):
                    let i = try index(id)
                    rows[i].hiddenOn = day.description
                    rows[i].updatedAt = at
                case .unhide(let id):
                    let i = try index(id)
                    rows[i].hiddenOn = nil
                    rows[i].updatedAt = at
                }
                try Store.writeLibrary(rows, user: user, at: at, in: db)
                return rows.map(\.item)
            }
        } catch let e as PrepError {
            throw .rule(e)
        } catch {
            throw .store(StoreError.mapping(error, path: path))
        }
    }

    /// Writes the whole library (positions renumbered 1…n).
    static func writeLibrary(_ rows: [PrepItemRecord], user: String, at: String, in db: Database) throws {
        for (i, var row) in rows.enumerated() {
            row.position = i + 1
            if row.createdAt.isEmpty { row.createdAt = at }
            if row.updatedAt.isEmpty { row.updatedAt = at }
            try row.save(db)
        }
    }

    /// `my-1`, `my-2`, …: the next free custom id.
    static func newItemID(_ rows: [PrepItemRecord]) -> String {
        var n = rows.count + 1
        while rows.contains(where: { $0.id == "my-\(n)" }) { n += 1 }
        return "my-\(n)"
    }

    /// Marks items for a day (`reflect prep mark`); each replaces the
    /// item's earlier mark of that day.
    public func markPrep(user: String, day: CalendarDay, marks: [PrepMark], at: String) throws(PrepStoreError) {
        do {
            try writer.write { db in
                let known = try Store.prepRows(user: user, in: db).map(\.id)
                for m in marks where !known.contains(m.itemID) { throw PrepError.unknownItem(m.itemID, known: known) }
                try Store.upsertMarks(marks, user: user, day: day.description, session: nil, at: at, in: db)
                // A prep mark counts as showing up, made here as in a flow
                // (``recordCoach(_:session:day:at:in:)``; docs/progress.md).
                if !marks.isEmpty { try Store.markActivity([.logged("prep", day: day)], user: user, in: db) }
            }
        } catch let e as PrepError {
            throw .rule(e)
        } catch {
            throw .store(StoreError.mapping(error, path: path))
        }
    }

    static func upsertMarks(_ marks: [PrepMark], user: String, day: String, session: String?, at: String, in db: Database) throws {
        for m in marks {
            try PrepMarkRecord(user: user, day: day, itemID: m.itemID, mark: m.mark, sessionID: session, markedAt: at).save(db)
        }
    }

    /// Marks of days `from` through `to` (inclusive), by day then item.
    public func prepMarks(user: String, from: CalendarDay, to: CalendarDay) throws(StoreError) -> [PrepMarkRecord] {
        try read { db in
            try PrepMarkRecord.filter(Column("user") == user && Column("day") >= from.description && Column("day") <= to.description)
                .order(Column("day"), Column("item_id")).fetchAll(db)
        }
    }

    /// Craving notes of days `from` through `to` (inclusive), oldest first.
    public func cravingNotes(user: String, from: CalendarDay, to: CalendarDay) throws(StoreError) -> [CravingNoteRecord] {
        try read { db in
            try CravingNoteRecord.filter(Column("user") == user && Column("day") >= from.description && Column("day") <= to.description)
                .order(Column("day"), Column("at")).fetchAll(db)
        }
    }

    /// Writes a session's coach records, inside the answer's transaction:
    /// marks replace that day's marks of the same items, a new item is
    /// one per session and slot (editing the answer renames it), a craving
    /// note is one per session.
    static func recordCoach(_ records: [CoachRecord], session: String, day: String, at: String, in db: Database) throws {
        guard !records.isEmpty,
              let user = try String.fetchOne(db, sql: "SELECT user FROM session WHERE id = ?", arguments: [session]) else { return }
        for record in records {
            switch record {
            case .prepMarks(let marks):
                try upsertMarks(marks, user: user, day: day, session: session, at: at, in: db)
            case .prepItemAdded(let text, let slot):
                var rows = try prepRows(user: user, in: db)
                let id = "s-" + session.prefix(8).lowercased() + "-" + slot.prefix(16)
                if let i = rows.firstIndex(where: { $0.id == id }) {
                    rows[i].text = text
                    rows[i].updatedAt = at
                } else {
                    guard rows.count < PrepLibrary.maxItems else { continue }
                    rows.append(PrepItemRecord(user: user, id: id, text: text, core: false, position: rows.count + 1, createdAt: at, updatedAt: at))
                }
                try writeLibrary(rows, user: user, at: at, in: db)
            case .cravingNote(let note):
                try CravingNoteRecord(id: session, user: user, sessionID: session, type: note.kind, detail: note.detail, day: day,
                                      at: at, text: note.text).save(db)
            }
            // A craving note and a prep mark count as showing up (docs/progress.md).
            if let logged = CalendarDay(day) {
                switch record {
                case .prepMarks: try Store.markActivity([.logged("prep", day: logged)], user: user, in: db)
                case .cravingNote: try Store.markActivity([.logged("craving", day: logged)], user: user, in: db)
                case .prepItemAdded: break
                }
            }
        }
    }
}

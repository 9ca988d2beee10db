import GRDB
import GRDBSQLite
import ReflectCore

// The running figures of the progress tables' days (migration v21), and the
// progress facts a session reads from them. Each `showed_up_day` and
// `step_day` row carries, for its set of days (a person's showed-up days;
// a person's days of one flow, step and kind):
// - `nth`: how many days of the set there are up to and including its day;
// - `run`: how many consecutive days of the set end on its day;
// - `best`: the longest such run up to and including its day.
// So the figures as of any day are a few key look-ups, whatever the length
// of the history: the last day on or before today gives the days counted so
// far, whether today is one, the current streak and the longest; the last
// day before a range's start gives the range's count by difference.
//
// Every write of such a day goes through ``Store/insertDay(_:day:in:renumber:)``
// (``Store/markActivity(_:user:in:)`` and an import's progress section): a
// day after the set's last is appended with its figures taken from the last
// row; a day before it (an import, a back-fill, a clock moved back) has the
// later days' figures computed again, once per set and batch
// (``Store/renumberDays(_:from:in:)``, also what v21 runs on every stored
// history).

/// One set of days whose running figures are kept: a person's showed-up
/// days, or a person's days of one flow's step and kind.
enum DaySet: Hashable, Sendable {
    case showedUp(user: String)
    case step(user: String, flow: String, step: String, kind: String)

    static func step(user: String, _ mark: ActivityMark) -> DaySet {
        .step(user: user, flow: mark.flow, step: mark.step, kind: mark.kind.rawValue)
    }
}

/// Where a set's days are stored (migration v24): a person's showed-up days
/// are `showed_up_day`'s rows of the person; a step set's days are
/// `step_day`'s rows of its integer id, which `day_set` gives each
/// person, flow, step and kind, so a day's key is compared as two integers
/// at every level of a b-tree that deepens with every year of use.
enum DayRows: Hashable, Sendable {
    case showedUp(user: String)
    case step(setID: Int64)
    /// `step_day` keyed by its set's four texts, as it was before v24:
    /// only for migrations v20 and v21, which run on that layout.
    case stepBeforeV24(user: String, flow: String, step: String, kind: String)

    var table: String {
        switch self {
        case .showedUp: "showed_up_day"
        case .step, .stepBeforeV24: "step_day"
        }
    }

    /// The set's key columns, in the primary key's order.
    var keyColumns: [String] {
        switch self {
        case .showedUp: ["user"]
        case .step: ["set_id"]
        case .stepBeforeV24: ["user", "flow", "step", "kind"]
        }
    }

    var keyValues: StatementArguments {
        switch self {
        case .showedUp(let user): [user]
        case .step(let id): [id]
        case .stepBeforeV24(let user, let flow, let step, let kind): [user, flow, step, kind]
        }
    }

    // The statements of every journalled answer's path are literals: a
    // cached statement is found by its text, and a text built at each call
    // costs more than the look-up.

    /// The set's last day and its figures (key bound first).
    var lastSQL: String {
        switch self {
        case .showedUp: "SELECT day, nth, run, best FROM showed_up_day WHERE user = ? ORDER BY day DESC LIMIT 1"
        case .step: "SELECT day, nth, run, best FROM step_day WHERE set_id = ? ORDER BY day DESC LIMIT 1"
        case .stepBeforeV24: "SELECT day, nth, run, best FROM step_day WHERE user = ? AND flow = ? AND step = ? AND kind = ? ORDER BY day DESC LIMIT 1"
        }
    }

    /// A day with its figures (key, day, nth, run, best).
    var appendSQL: String {
        switch self {
        case .showedUp: "INSERT INTO showed_up_day (user, day, nth, run, best) VALUES (?, ?, ?, ?, ?)"
        case .step: "INSERT INTO step_day (set_id, day, nth, run, best) VALUES (?, ?, ?, ?, ?)"
        case .stepBeforeV24: "INSERT INTO step_day (user, flow, step, kind, day, nth, run, best) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        }
    }

    /// A day with provisional figures, unless stored (key, day).
    var insertSQL: String {
        switch self {
        case .showedUp: "INSERT OR IGNORE INTO showed_up_day (user, day, nth, run, best) VALUES (?, ?, 0, 0, 0)"
        case .step: "INSERT OR IGNORE INTO step_day (set_id, day, nth, run, best) VALUES (?, ?, 0, 0, 0)"
        case .stepBeforeV24: "INSERT OR IGNORE INTO step_day (user, flow, step, kind, day, nth, run, best) VALUES (?, ?, ?, ?, ?, 0, 0, 0)"
        }
    }

    /// The set's days from one day to another, ascending (key, first, last).
    var daysBetweenSQL: String {
        switch self {
        case .showedUp: "SELECT day FROM showed_up_day WHERE user = ? AND day BETWEEN ? AND ? ORDER BY day"
        case .step: "SELECT day FROM step_day WHERE set_id = ? AND day BETWEEN ? AND ? ORDER BY day"
        case .stepBeforeV24: "SELECT day FROM step_day WHERE user = ? AND flow = ? AND step = ? AND kind = ? AND day BETWEEN ? AND ? ORDER BY day"
        }
    }

    /// Every day of the set, ascending (key).
    var allDaysSQL: String {
        switch self {
        case .showedUp: "SELECT day FROM showed_up_day WHERE user = ? ORDER BY day"
        case .step: "SELECT day FROM step_day WHERE set_id = ? ORDER BY day"
        case .stepBeforeV24: "SELECT day FROM step_day WHERE user = ? AND flow = ? AND step = ? AND kind = ? ORDER BY day"
        }
    }

    /// Binds the key's values from parameter 1 on; returns the next parameter's index.
    func bindKey(_ statement: OpaquePointer?) -> Int32 {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch self {
        case .showedUp(let user):
            sqlite3_bind_text(statement, 1, user, -1, transient)
            return 2
        case .step(let id):
            sqlite3_bind_int64(statement, 1, id)
            return 2
        case .stepBeforeV24(let user, let flow, let step, let kind):
            sqlite3_bind_text(statement, 1, user, -1, transient)
            sqlite3_bind_text(statement, 2, flow, -1, transient)
            sqlite3_bind_text(statement, 3, step, -1, transient)
            sqlite3_bind_text(statement, 4, kind, -1, transient)
            return 5
        }
    }

    /// `user = ? AND …` over `qualifier`'s columns.
    func keyPredicate(_ qualifier: String = "") -> String {
        keyColumns.map { "\(qualifier)\($0) = ?" }.joined(separator: " AND ")
    }
}

/// How the day tables a function runs on are laid out: as now, or as they
/// were before v21 (step days keyed by their set's texts, no running
/// figures), for migrations v14 and v20, which run on that layout.
enum DayLayout: Sendable {
    case current
    case beforeV21
}

/// Sets whose later figures must be computed again, each with the earliest
/// day inserted before its last day: a batch renumbers each set once, at
/// its end.
struct DayRenumbering {
    private var from: [DayRows: Int] = [:]

    mutating func add(_ rows: DayRows, day: Int) {
        from[rows] = min(from[rows] ?? day, day)
    }

    /// Computes every collected set's figures again, from its earliest
    /// inserted day (the connection's known last rows of those sets are
    /// forgotten: DayHeads.swift).
    func apply(in db: Database) throws {
        guard !from.isEmpty else { return }
        let heads = DayHeads.active(in: db)
        for (rows, day) in from {
            heads?.forget(rows)
            try Store.renumberDays(rows, from: day, in: db)
        }
    }
}

/// A set's figures as of a day, read from its running figures.
struct DayFigures: Equatable {
    /// Days up to and including the day.
    var days = 0
    /// The day is one of them.
    var today = false
    /// Consecutive days ending on the day, or ending the day before when
    /// the day has none (``ShowedUpDays/currentStreak(today:)``).
    var streak = 0
    /// The longest run up to and including the day.
    var longest = 0
    /// Days from `since` (``Store/figures(of:today:since:in:)``) to the day.
    var recent = 0
}

extension Store {
    /// Inserts one day of `set` unless it is stored already, keeping the
    /// running figures of it and of every later day of the set. Returns
    /// where the set's days are when the day was added, nil when it was
    /// stored already. A step set seen for the first time is given its id
    /// (`day_set`). A day before the set's last day is inserted with
    /// provisional figures and the set added to `renumber`, which the
    /// caller applies before its transaction ends.
    @discardableResult
    static func insertDay(_ set: DaySet, day: Int, in db: Database, renumber: inout DayRenumbering) throws -> DayRows? {
        // On every journalled answer's path: SQLite's C API on statements
        // prepared once per connection, no GRDB rows or arguments (they
        // cost more than the statements themselves). In an answer's
        // transaction, the set's id and last row are read only when the
        // connection does not know them already (DayHeads.swift).
        let heads = DayHeads.active(in: db)
        let slot = heads?.slot(of: set) ?? .none
        let rows: DayRows, head: DayHead
        if let known = heads?.known(at: slot) {
            (rows, head) = known
        } else {
            switch set {
            case .showedUp(let user):
                rows = .showedUp(user: user)
                head = try lastRow(of: rows, in: db)
            case .step(let user, let flow, let step, let kind):
                if let id = try stepSetID(user: user, flow: flow, step: step, kind: kind, in: db) {
                    rows = .step(setID: id)
                    head = try lastRow(of: rows, in: db)
                } else {
                    rows = .step(setID: try makeStepSet(user: user, flow: flow, step: step, kind: kind, in: db))
                    head = .empty
                }
            }
        }
        var lastDay: Int?, nth = 0, run = 0, best = 0
        if case .last(let d, let n, let r, let b) = head { (lastDay, nth, run, best) = (d, n, r, b) }
        if let lastDay, lastDay >= day {
            if lastDay == day {
                heads?.set(set, rows, head, at: slot)
                return nil
            }
            // Before the last day: later figures change (rare: imports,
            // back-fills, a clock moved back). The set's last row keeps its
            // day; its figures are computed again (`renumber`, which also
            // makes the connection forget them).
            let insert = try db.cachedStatement(sql: rows.insertSQL)
            let i = insert.sqliteStatement
            sqlite3_bind_int64(i, rows.bindKey(i), Int64(day))
            try stepDone(insert, db)
            guard sqlite3_changes(db.sqliteConnection) > 0 else { return nil }
            renumber.add(rows, day: day)
            return rows
        }
        run = lastDay == day - 1 ? run + 1 : 1
        let append = try db.cachedStatement(sql: rows.appendSQL)
        let a = append.sqliteStatement
        let next = rows.bindKey(a)
        sqlite3_bind_int64(a, next, Int64(day))
        sqlite3_bind_int64(a, next + 1, Int64(nth + 1))
        sqlite3_bind_int64(a, next + 2, Int64(run))
        sqlite3_bind_int64(a, next + 3, Int64(max(best, run)))
        try stepDone(append, db)
        heads?.set(set, rows, .last(day: day, nth: nth + 1, run: run, best: max(best, run)), at: slot)
        return rows
    }

    /// The id `day_set` gives a step set, nil when it has no day yet.
    static func stepSetID(user: String, flow: String, step: String, kind: String, in db: Database) throws -> Int64? {
        let find = try db.cachedStatement(sql: "SELECT id FROM day_set WHERE user = ? AND flow = ? AND step = ? AND kind = ?")
        let f = find.sqliteStatement
        _ = DayRows.stepBeforeV24(user: user, flow: flow, step: step, kind: kind).bindKey(f)
        switch sqlite3_step(f) {
        case SQLITE_ROW:
            let id = sqlite3_column_int64(f, 0)
            sqlite3_reset(f)
            return id
        case SQLITE_DONE:
            sqlite3_reset(f)
            return nil
        case let code:
            throw stepError(code, find, db)
        }
    }

    /// Gives a step set its id (it has none yet).
    private static func makeStepSet(user: String, flow: String, step: String, kind: String, in db: Database) throws -> Int64 {
        let make = try db.cachedStatement(sql: "INSERT INTO day_set (user, flow, step, kind) VALUES (?, ?, ?, ?)")
        _ = DayRows.stepBeforeV24(user: user, flow: flow, step: step, kind: kind).bindKey(make.sqliteStatement)
        try stepDone(make, db)
        return sqlite3_last_insert_rowid(db.sqliteConnection)
    }

    /// Where `set`'s days are stored, nil for a step set without a day.
    static func rows(of set: DaySet, layout: DayLayout = .current, in db: Database) throws -> DayRows? {
        switch set {
        case .showedUp(let user):
            return .showedUp(user: user)
        case .step(let user, let flow, let step, let kind):
            guard layout == .current else { return .stepBeforeV24(user: user, flow: flow, step: step, kind: kind) }
            return try stepSetID(user: user, flow: flow, step: step, kind: kind, in: db).map { .step(setID: $0) }
        }
    }

    /// `rows`' last stored row.
    private static func lastRow(of rows: DayRows, in db: Database) throws -> DayHead {
        let last = try db.cachedStatement(sql: rows.lastSQL)
        let l = last.sqliteStatement
        _ = rows.bindKey(l)
        switch sqlite3_step(l) {
        case SQLITE_ROW:
            let head = DayHead.last(day: Int(sqlite3_column_int64(l, 0)), nth: Int(sqlite3_column_int64(l, 1)),
                                    run: Int(sqlite3_column_int64(l, 2)), best: Int(sqlite3_column_int64(l, 3)))
            sqlite3_reset(l)
            return head
        case SQLITE_DONE:
            sqlite3_reset(l)
            return .empty
        case let code:
            throw stepError(code, last, db)
        }
    }

    /// Steps a statement that returns no row, then resets it.
    private static func stepDone(_ statement: Statement, _ db: Database) throws {
        let code = sqlite3_step(statement.sqliteStatement)
        guard code == SQLITE_DONE else { throw stepError(code, statement, db) }
        sqlite3_reset(statement.sqliteStatement)
    }

    /// SQLite's error, as GRDB would throw it; the statement is reset.
    private static func stepError(_ code: CInt, _ statement: Statement, _ db: Database) -> DatabaseError {
        let connection = db.sqliteConnection
        let error = DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                                  message: sqlite3_errmsg(connection).map { String(cString: $0) }, sql: statement.sql)
        sqlite3_reset(statement.sqliteStatement)
        return error
    }

    /// Computes the running figures of `rows`' days from `day` on again,
    /// continuing from the last day before it.
    static func renumberDays(_ rows: DayRows, from day: Int, in db: Database) throws {
        let key = rows.keyValues
        let before = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT day, nth, run, best FROM \(rows.table) WHERE \(rows.keyPredicate()) AND day < ? ORDER BY day DESC LIMIT 1
            """), arguments: key + [day])
        // Each later day's place among them (`i`, from 1) gives its count;
        // days the same distance `g = day - i` apart form one run (gaps and
        // islands), and the run right after the day before continues its
        // run; the longest is a running maximum.
        let table = rows.table
        try db.cachedStatement(sql: """
            UPDATE \(table) SET nth = w.nth, run = w.run, best = w.best FROM (
                SELECT day, nth, run, max(?, max(run) OVER (ORDER BY day ROWS UNBOUNDED PRECEDING)) AS best FROM (
                    SELECT day, ? + i AS nth, row_number() OVER (PARTITION BY g ORDER BY day) + (CASE WHEN g = ? THEN ? ELSE 0 END) AS run
                    FROM (SELECT day, row_number() OVER (ORDER BY day) AS i, day - row_number() OVER (ORDER BY day) AS g
                          FROM \(table) WHERE \(rows.keyPredicate()) AND day >= ?))
            ) AS w
            WHERE \(rows.keyPredicate("\(table).")) AND \(table).day = w.day
              AND (\(table).nth <> w.nth OR \(table).run <> w.run OR \(table).best <> w.best)
            """).execute(arguments: [before?[3] as Int? ?? 0, before?[1] as Int? ?? 0, before?[0] as Int? ?? Int.min, before?[2] as Int? ?? 0]
                         + key + [day] + key)
    }

    /// Every stored set's figures, computed in full (migration v21, on the
    /// layout before v24).
    static func renumberAllDaysBeforeV24(in db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT user, MIN(day) FROM showed_up_day GROUP BY user") {
            try renumberDays(.showedUp(user: row[0]), from: row[1], in: db)
        }
        for row in try Row.fetchAll(db, sql: "SELECT user, flow, step, kind, MIN(day) FROM step_day GROUP BY user, flow, step, kind") {
            try renumberDays(.stepBeforeV24(user: row[0], flow: row[1], step: row[2], kind: row[3]), from: row[4], in: db)
        }
    }

    /// `rows`' figures as of `today` (`recent`: its days from `since` to
    /// `today`): two look-ups, whatever the history's length.
    static func figures(of rows: DayRows, today: CalendarDay, since: CalendarDay, in db: Database) throws -> DayFigures {
        let atOrBefore = try db.cachedStatement(sql: """
            SELECT day, nth, run, best FROM \(rows.table) WHERE \(rows.keyPredicate()) AND day <= ? ORDER BY day DESC LIMIT 1
            """)
        let key = rows.keyValues
        guard let row = try Row.fetchOne(atOrBefore, arguments: key + [today.ordinal]) else { return DayFigures() }
        let day: Int = row[0]
        var figures = DayFigures(days: row[1], today: day == today.ordinal, streak: day >= today.ordinal - 1 ? row[2] : 0, longest: row[3])
        let earlier: Int = try Row.fetchOne(atOrBefore, arguments: key + [since.ordinal - 1])?[1] ?? 0
        figures.recent = figures.days - earlier
        return figures
    }

    /// `set`'s figures as of `today` (``figures(of:today:since:in:)``);
    /// none for a step set without a day.
    static func figures(of set: DaySet, today: CalendarDay, since: CalendarDay, in db: Database) throws -> DayFigures {
        guard let rows = try rows(of: set, in: db) else { return DayFigures() }
        return try figures(of: rows, today: today, since: since, in: db)
    }

    /// The streak figures of `user`'s showed-up days as of `today`
    /// (``ShowedUpDays/figures(today:)``), from the running figures.
    static func showedUpFigures(user: String, today: CalendarDay, in db: Database) throws -> StreakFigures {
        let f = try figures(of: DayRows.showedUp(user: user), today: today, since: today.adding(days: -6), in: db)
        return StreakFigures(current: f.streak, longest: f.longest, lastSevenDays: f.recent, today: f.today)
    }

    /// Per step and kind of `flow` (`recent`: this ISO week's days), the
    /// figures ``StepProgress`` needs as of `today`: a few look-ups per step
    /// and kind. Every step with a day of any kind is present (a step whose
    /// days all lie after `today` counts zero); unknown kinds are left out.
    static func stepFigures(user: String, flow: String, today: CalendarDay,
                            in db: Database) throws -> [String: [ActivityMark.Kind: DayFigures]] {
        var out: [String: [ActivityMark.Kind: DayFigures]] = [:]
        // The flow's sets (`day_set`'s rows: a set has one only once it has a day).
        let sets = try Row.fetchAll(db.cachedStatement(sql: "SELECT id, step, kind FROM day_set WHERE user = ? AND flow = ? ORDER BY step, kind"),
                                    arguments: [user, flow])
        for set in sets {
            guard let known = ActivityMark.Kind(rawValue: set[2]) else { continue }
            out[set[1], default: [:]][known] = try figures(of: DayRows.step(setID: set[0]), today: today, since: today.isoWeekStart, in: db)
        }
        return out
    }
}

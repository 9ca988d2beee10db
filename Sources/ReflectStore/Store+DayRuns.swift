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

    var table: String {
        switch self {
        case .showedUp: "showed_up_day"
        case .step: "step_day"
        }
    }

    /// The set's key columns, in the primary key's order.
    var keyColumns: [String] {
        switch self {
        case .showedUp: ["user"]
        case .step: ["user", "flow", "step", "kind"]
        }
    }

    var keyValues: [String] {
        switch self {
        case .showedUp(let user): [user]
        case .step(let user, let flow, let step, let kind): [user, flow, step, kind]
        }
    }

    /// The set's last day and its figures (key bound first).
    var lastSQL: String {
        switch self {
        case .showedUp: "SELECT day, nth, run, best FROM showed_up_day WHERE user = ? ORDER BY day DESC LIMIT 1"
        case .step: "SELECT day, nth, run, best FROM step_day WHERE user = ? AND flow = ? AND step = ? AND kind = ? ORDER BY day DESC LIMIT 1"
        }
    }

    /// A day with its figures (key, day, nth, run, best).
    var appendSQL: String {
        switch self {
        case .showedUp: "INSERT INTO showed_up_day (user, day, nth, run, best) VALUES (?, ?, ?, ?, ?)"
        case .step: "INSERT INTO step_day (user, flow, step, kind, day, nth, run, best) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        }
    }

    /// A day with provisional figures, unless stored (key, day).
    var insertSQL: String {
        switch self {
        case .showedUp: "INSERT OR IGNORE INTO showed_up_day (user, day, nth, run, best) VALUES (?, ?, 0, 0, 0)"
        case .step: "INSERT OR IGNORE INTO step_day (user, flow, step, kind, day, nth, run, best) VALUES (?, ?, ?, ?, ?, 0, 0, 0)"
        }
    }

    /// Binds the key's values from parameter 1 on; returns the next parameter's index.
    func bindKey(_ statement: OpaquePointer?) -> Int32 {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch self {
        case .showedUp(let user):
            sqlite3_bind_text(statement, 1, user, -1, transient)
            return 2
        case .step(let user, let flow, let step, let kind):
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

/// Sets whose later figures must be computed again, each with the earliest
/// day inserted before its last day: a batch renumbers each set once, at
/// its end.
struct DayRenumbering {
    private var from: [DaySet: Int] = [:]

    mutating func add(_ set: DaySet, day: Int) {
        from[set] = min(from[set] ?? day, day)
    }

    /// Computes every collected set's figures again, from its earliest
    /// inserted day (the connection's known last rows of those sets are
    /// forgotten: DayHeads.swift).
    func apply(in db: Database) throws {
        guard !from.isEmpty else { return }
        let heads = DayHeads.active(in: db)
        for (set, day) in from {
            heads?.forget(set)
            try Store.renumberDays(set, from: day, in: db)
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
    /// whether a row was added. A day before the set's last day is inserted
    /// with provisional figures and the set added to `renumber`, which the
    /// caller applies before its transaction ends.
    static func insertDay(_ set: DaySet, day: Int, in db: Database, renumber: inout DayRenumbering) throws -> Bool {
        // On every journalled answer's path: SQLite's C API on statements
        // prepared once per connection, no GRDB rows or arguments (they
        // cost more than the statements themselves). In an answer's
        // transaction, the set's last row is read only when the connection
        // does not know it already (DayHeads.swift).
        let heads = DayHeads.active(in: db)
        let slot = heads?.slot(of: set) ?? .none
        let head: DayHead
        if let known = heads?.head(at: slot) {
            head = known
        } else {
            head = try lastRow(of: set, in: db)
        }
        var lastDay: Int?, nth = 0, run = 0, best = 0
        if case .last(let d, let n, let r, let b) = head { (lastDay, nth, run, best) = (d, n, r, b) }
        if let lastDay, lastDay >= day {
            if lastDay == day {
                heads?.set(set, head, at: slot)
                return false
            }
            // Before the last day: later figures change (rare: imports,
            // back-fills, a clock moved back). The set's last row keeps its
            // day; its figures are computed again (`renumber`, which also
            // makes the connection forget them).
            let insert = try db.cachedStatement(sql: set.insertSQL)
            let i = insert.sqliteStatement
            sqlite3_bind_int64(i, set.bindKey(i), Int64(day))
            try stepDone(insert, db)
            guard sqlite3_changes(db.sqliteConnection) > 0 else { return false }
            renumber.add(set, day: day)
            return true
        }
        run = lastDay == day - 1 ? run + 1 : 1
        let append = try db.cachedStatement(sql: set.appendSQL)
        let a = append.sqliteStatement
        let next = set.bindKey(a)
        sqlite3_bind_int64(a, next, Int64(day))
        sqlite3_bind_int64(a, next + 1, Int64(nth + 1))
        sqlite3_bind_int64(a, next + 2, Int64(run))
        sqlite3_bind_int64(a, next + 3, Int64(max(best, run)))
        try stepDone(append, db)
        heads?.set(set, .last(day: day, nth: nth + 1, run: run, best: max(best, run)), at: slot)
        return true
    }

    /// `set`'s last stored row.
    private static func lastRow(of set: DaySet, in db: Database) throws -> DayHead {
        let last = try db.cachedStatement(sql: set.lastSQL)
        let l = last.sqliteStatement
        _ = set.bindKey(l)
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

    /// Computes the running figures of `set`'s days from `day` on again,
    /// continuing from the last day before it.
    static func renumberDays(_ set: DaySet, from day: Int, in db: Database) throws {
        let key = StatementArguments(set.keyValues)
        let before = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT day, nth, run, best FROM \(set.table) WHERE \(set.keyPredicate()) AND day < ? ORDER BY day DESC LIMIT 1
            """), arguments: key + [day])
        // Each later day's place among them (`i`, from 1) gives its count;
        // days the same distance `g = day - i` apart form one run (gaps and
        // islands), and the run right after the day before continues its
        // run; the longest is a running maximum.
        let table = set.table
        try db.cachedStatement(sql: """
            UPDATE \(table) SET nth = w.nth, run = w.run, best = w.best FROM (
                SELECT day, nth, run, max(?, max(run) OVER (ORDER BY day ROWS UNBOUNDED PRECEDING)) AS best FROM (
                    SELECT day, ? + i AS nth, row_number() OVER (PARTITION BY g ORDER BY day) + (CASE WHEN g = ? THEN ? ELSE 0 END) AS run
                    FROM (SELECT day, row_number() OVER (ORDER BY day) AS i, day - row_number() OVER (ORDER BY day) AS g
                          FROM \(table) WHERE \(set.keyPredicate()) AND day >= ?))
            ) AS w
            WHERE \(set.keyPredicate("\(table).")) AND \(table).day = w.day
              AND (\(table).nth <> w.nth OR \(table).run <> w.run OR \(table).best <> w.best)
            """).execute(arguments: [before?[3] as Int? ?? 0, before?[1] as Int? ?? 0, before?[0] as Int? ?? Int.min, before?[2] as Int? ?? 0]
                         + key + [day] + key)
    }

    /// Every stored set's figures, computed in full (migration v21).
    static func renumberAllDays(in db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT user, MIN(day) FROM showed_up_day GROUP BY user") {
            try renumberDays(.showedUp(user: row[0]), from: row[1], in: db)
        }
        for row in try Row.fetchAll(db, sql: "SELECT user, flow, step, kind, MIN(day) FROM step_day GROUP BY user, flow, step, kind") {
            try renumberDays(.step(user: row[0], flow: row[1], step: row[2], kind: row[3]), from: row[4], in: db)
        }
    }

    /// `set`'s figures as of `today` (`recent`: its days from `since` to
    /// `today`): two look-ups, whatever the history's length.
    static func figures(of set: DaySet, today: CalendarDay, since: CalendarDay, in db: Database) throws -> DayFigures {
        let atOrBefore = try db.cachedStatement(sql: """
            SELECT day, nth, run, best FROM \(set.table) WHERE \(set.keyPredicate()) AND day <= ? ORDER BY day DESC LIMIT 1
            """)
        let key = StatementArguments(set.keyValues)
        guard let row = try Row.fetchOne(atOrBefore, arguments: key + [today.ordinal]) else { return DayFigures() }
        let day: Int = row[0]
        var figures = DayFigures(days: row[1], today: day == today.ordinal, streak: day >= today.ordinal - 1 ? row[2] : 0, longest: row[3])
        let earlier: Int = try Row.fetchOne(atOrBefore, arguments: key + [since.ordinal - 1])?[1] ?? 0
        figures.recent = figures.days - earlier
        return figures
    }

    /// The streak figures of `user`'s showed-up days as of `today`
    /// (``ShowedUpDays/figures(today:)``), from the running figures.
    static func showedUpFigures(user: String, today: CalendarDay, in db: Database) throws -> StreakFigures {
        let f = try figures(of: .showedUp(user: user), today: today, since: today.adding(days: -6), in: db)
        return StreakFigures(current: f.streak, longest: f.longest, lastSevenDays: f.recent, today: f.today)
    }

    /// Per step and kind of `flow` (`recent`: this ISO week's days), the
    /// figures ``StepProgress`` needs as of `today`: a few look-ups per step
    /// and kind. Every step with a day of any kind is present (a step whose
    /// days all lie after `today` counts zero); unknown kinds are left out.
    static func stepFigures(user: String, flow: String, today: CalendarDay,
                            in db: Database) throws -> [String: [ActivityMark.Kind: DayFigures]] {
        var out: [String: [ActivityMark.Kind: DayFigures]] = [:]
        // The flow's steps and kinds, found by seeking past each one in
        // the primary key's order (a row value `(step, kind) > (?, ?)` would
        // seek on the step alone and read the step's every day).
        let nextKind = try db.cachedStatement(sql: """
            SELECT kind FROM step_day WHERE user = ? AND flow = ? AND step = ? AND kind > ? ORDER BY kind LIMIT 1
            """)
        let nextStep = try db.cachedStatement(sql: """
            SELECT step, kind FROM step_day WHERE user = ? AND flow = ? AND step > ? ORDER BY step, kind LIMIT 1
            """)
        // Step "" (a completion) comes first; a kind is never empty (its check).
        var step = "", kind = ""
        while true {
            if let found = try String.fetchOne(nextKind, arguments: [user, flow, step, kind]) {
                kind = found
            } else if let found = try Row.fetchOne(nextStep, arguments: [user, flow, step]) {
                step = found[0]
                kind = found[1]
            } else {
                break
            }
            guard let known = ActivityMark.Kind(rawValue: kind) else { continue }
            out[step, default: [:]][known] = try figures(of: .step(user: user, flow: flow, step: step, kind: kind), today: today,
                                                         since: today.isoWeekStart, in: db)
        }
        return out
    }
}

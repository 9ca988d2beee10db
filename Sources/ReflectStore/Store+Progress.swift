import Foundation
import GRDB
import ReflectCore

/// A celebration as stored: once per session, step, reason and item.
public struct CelebrationRow: Sendable, Equatable, Codable {
    public var sessionID: String?
    public var user: String
    public var step: String?
    /// The checklist item whose mark earned it (a prep item marked Done);
    /// nil for none (absent from older exports).
    public var item: String?
    /// Nil: a line alone (or a gentle checkmark).
    public var tier: CelebrationTier?
    public var reason: String
    /// The pool the line came from, and its place in it.
    public var pool: String?
    public var lineIndex: Int?
    public var line: String?
    public var at: String

    public init(sessionID: String?, user: String, step: String?, tier: CelebrationTier?, reason: String, pool: String? = nil,
                lineIndex: Int? = nil, line: String? = nil, at: String, item: String? = nil) {
        self.sessionID = sessionID
        self.item = item
        self.user = user
        self.step = step
        self.tier = tier
        self.reason = reason
        self.pool = pool
        self.lineIndex = lineIndex
        self.line = line
        self.at = at
    }

    enum CodingKeys: String, CodingKey {
        case user, step, item, tier, reason, pool, line, at
        case sessionID = "session_id", lineIndex = "line_index"
    }
}

/// An achievement as stored: its key and the day it was earned.
public struct AchievementRow: Sendable, Equatable, Codable {
    public var user: String
    public var key: String
    /// The day it was earned, `YYYY-MM-DD`.
    public var achievedAt: String

    public init(user: String, key: String, achievedAt: String) {
        self.user = user
        self.key = key
        self.achievedAt = achievedAt
    }

    enum CodingKeys: String, CodingKey {
        case user, key
        case achievedAt = "achieved_at"
    }
}

extension Store {
    // MARK: The one write path for logged actions

    /// Records that `user` did something on a day: the showed-up day, the
    /// step day, and any achievement this newly earns (recorded once, with
    /// the day it was earned). Every kind of logged action goes through
    /// here, inside the transaction that stores the action itself.
    ///
    /// Achievements are worked out incrementally: a new day of a set they
    /// read (``AchievementTrack``) is looked at with the few days around it
    /// (``AchievementTrack/window(around:)``), never the whole history, so
    /// an answer costs the same after ten years of activity. That records
    /// exactly what a full recomputation would, because every write keeps
    /// each achievement the stored history earned recorded (here; import
    /// and reset recompute in full: ``recordAchievements(user:in:)``).
    /// Marks of several days in one call (a back-fill) are recomputed in
    /// full, once, as before: an earlier day of the batch can complete a run
    /// that reaches a length before a later one does.
    public static func markActivity(_ marks: [ActivityMark], user: String, in db: Database) throws {
        try markActivity(marks, user: user, layout: .current, in: db)
    }

    /// ``markActivity(_:user:in:)``; `layout` `.beforeV21` only for
    /// migration v20's back-fill, whose showed-up and step days have no
    /// running figures yet (v21 computes them for every stored day) and
    /// whose step days are keyed by their set's texts (v24 gives each set
    /// an id).
    static func markActivity(_ marks: [ActivityMark], user: String, layout: DayLayout, in db: Database) throws {
        guard !marks.isEmpty else { return }
        var renumber = DayRenumbering()
        // Each returns where the set's days are when the day was added
        // (Store+DayRuns.swift keeps the days' running figures).
        func insertDay(_ m: ActivityMark) throws -> DayRows? {
            guard layout == .current else {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO showed_up_day (user, day) VALUES (?, ?)").execute(arguments: [user, m.day.ordinal])
                return db.changesCount > 0 ? .showedUp(user: user) : nil
            }
            return try Store.insertDay(.showedUp(user: user), day: m.day.ordinal, in: db, renumber: &renumber)
        }
        func insertStep(_ m: ActivityMark) throws -> DayRows? {
            guard layout == .current else {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO step_day (user, flow, step, kind, day) VALUES (?, ?, ?, ?, ?)")
                    .execute(arguments: [user, m.flow, m.step, m.kind.rawValue, m.day.ordinal])
                return db.changesCount > 0 ? .stepBeforeV24(user: user, flow: m.flow, step: m.step, kind: m.kind.rawValue) : nil
            }
            return try Store.insertDay(.step(user: user, m), day: m.day.ordinal, in: db, renumber: &renumber)
        }
        if marks.contains(where: { $0.day != marks[0].day }) {
            var changed = false
            for m in marks {
                changed = try insertDay(m) != nil || changed
                let added = try insertStep(m) != nil
                changed = changed || (added && AchievementRules.reads(m))
            }
            try renumber.apply(in: db)
            if changed { try recordAchievements(user: user, layout: layout, in: db) }
            return
        }
        // One day: each new day of a set is looked at right after it is
        // stored (the sets are independent, and each gains at most this
        // day): the history before it has everything it earned recorded,
        // which is what makes its window enough (``AchievementTrack``).
        var reset: CalendarDay??
        func added(_ track: AchievementTrack, _ rows: DayRows, _ m: ActivityMark) throws {
            if reset == nil { reset = .some(try resetDay(user: user, in: db)) }
            var window = track.window(around: m.day)
            if let r = reset ?? nil {
                guard m.day > r else { return }
                window = max(window.lowerBound, r.adding(days: 1))...window.upperBound
            }
            let nearby = try days(of: rows, in: window, db: db)
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO achievement (user, key, achieved_at) VALUES (?, ?, ?)")
            for (achievement, earnedOn) in track.earned(by: nearby) {
                try insert.execute(arguments: [user, achievement.key, earnedOn.description])
            }
        }
        for m in marks {
            if let rows = try insertDay(m) { try added(.showedUp, rows, m) }
            if let rows = try insertStep(m), let track = AchievementTrack(mark: m) { try added(track, rows, m) }
        }
        try renumber.apply(in: db)
    }

    /// The days stored in `rows` within `range`.
    private static func days(of rows: DayRows, in range: ClosedRange<CalendarDay>, db: Database) throws -> ShowedUpDays {
        let days = try Int.fetchAll(db.cachedStatement(sql: rows.daysBetweenSQL),
                                    arguments: rows.keyValues + [range.lowerBound.ordinal, range.upperBound.ordinal])
        return ShowedUpDays(ascending: days.map(CalendarDay.init(ordinal:)))
    }

    static func resetDay(user: String, in db: Database) throws -> CalendarDay? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT day FROM achievement_reset WHERE user = ?"), arguments: [user])
            .map(CalendarDay.init(ordinal:))
    }

    /// Records every achievement the person's history earned that is not
    /// recorded yet (``AchievementRules``, after their last reset): the
    /// full recomputation, reading the whole history. Run where the
    /// history changes other than through ``markActivity(_:user:in:)``
    /// (import, reset, migration v14), so that every stored history has
    /// what it earned recorded: what the incremental form relies on.
    static func recordAchievements(user: String, layout: DayLayout = .current, in db: Database) throws {
        let history = try achievementHistory(user: user, layout: layout, in: db).after(try resetDay(user: user, in: db))
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO achievement (user, key, achieved_at) VALUES (?, ?, ?)")
        for (achievement, day) in AchievementRules.earned(by: history) {
            try insert.execute(arguments: [user, achievement.key, day.description])
        }
    }

    /// ``recordAchievements(user:in:)`` for every person with activity
    /// stored (migration v14, on the layout before v21).
    static func recordAllAchievements(layout: DayLayout, in db: Database) throws {
        let users = layout == .current ? "SELECT DISTINCT user FROM showed_up_day UNION SELECT DISTINCT user FROM day_set"
                                       : "SELECT DISTINCT user FROM showed_up_day UNION SELECT DISTINCT user FROM step_day"
        for user in try String.fetchAll(db, sql: users) {
            try recordAchievements(user: user, layout: layout, in: db)
        }
    }

    static func achievementHistory(user: String, layout: DayLayout = .current, in db: Database) throws -> AchievementHistory {
        func days(_ flow: String, _ step: String, _ kind: ActivityMark.Kind) throws -> ShowedUpDays {
            try Store.days(of: .step(user: user, flow: flow, step: step, kind: kind.rawValue), layout: layout, in: db)
        }
        return AchievementHistory(
            showedUp: try showedUpDays(user: user, in: db),
            morningsCompleted: try days(AchievementRules.morningFlow, "", .completed),
            eveningsWithPrepDone: try days(AchievementRules.eveningFlow, AchievementRules.prepStep.rawValue, .positive),
            stressResponses: try days(AchievementRules.morningFlow, AchievementRules.stressStep.rawValue, .saved))
    }

    static func showedUpDays(user: String, in db: Database) throws -> ShowedUpDays {
        try days(of: .showedUp(user: user), in: db)
    }

    static func stepDays(user: String, flow: String, step: String, kind: ActivityMark.Kind, in db: Database) throws -> ShowedUpDays {
        try days(of: .step(user: user, flow: flow, step: step, kind: kind.rawValue), in: db)
    }

    /// Every day of `set`, ascending.
    static func days(of set: DaySet, layout: DayLayout = .current, in db: Database) throws -> ShowedUpDays {
        guard let rows = try rows(of: set, layout: layout, in: db) else { return ShowedUpDays(ascending: []) }
        let days = try Int.fetchAll(db.cachedStatement(sql: rows.allDaysSQL), arguments: rows.keyValues)
        return ShowedUpDays(ascending: days.map(CalendarDay.init(ordinal:)))
    }

    /// Records marks for something logged outside a session (a craving
    /// note, a prep mark), in its own transaction.
    public func markActivity(_ marks: [ActivityMark], user: String) throws(StoreError) {
        try write { db in try Store.markActivity(marks, user: user, in: db) }
    }

    // MARK: Reading

    /// The days `user` showed up, ascending (reads the index only).
    public func showedUpDays(user: String) throws(StoreError) -> ShowedUpDays {
        try read { db in try Store.showedUpDays(user: user, in: db) }
    }

    /// Days a step of a flow left a mark of `kind` (`step` empty with
    /// `.completed`: the flow's completions).
    public func stepDays(user: String, flow: String, step: String, kind: ActivityMark.Kind) throws(StoreError) -> ShowedUpDays {
        try read { db in try Store.stepDays(user: user, flow: flow, step: step, kind: kind, in: db) }
    }

    /// Every step of `flow` that left a mark, with its days per kind.
    public func flowStepDays(user: String, flow: String) throws(StoreError) -> [String: [ActivityMark.Kind: ShowedUpDays]] {
        try read { db in
            var out: [String: [ActivityMark.Kind: [CalendarDay]]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT s.step, s.kind, d.day FROM day_set s JOIN step_day d ON d.set_id = s.id
                WHERE s.user = ? AND s.flow = ? ORDER BY s.step, s.kind, d.day
                """, arguments: [user, flow]) {
                let step: String = row["step"]
                guard let kind = ActivityMark.Kind(rawValue: row["kind"]) else { continue }
                out[step, default: [:]][kind, default: []].append(CalendarDay(ordinal: row["day"]))
            }
            return out.mapValues { $0.mapValues(ShowedUpDays.init(ascending:)) }
        }
    }

    /// Whether any flow was completed on `day`.
    public func anyFlowCompleted(user: String, on day: CalendarDay) throws(StoreError) -> Bool {
        try read { db in try Store.anyFlowCompleted(user: user, on: day, in: db) }
    }

    /// Whether any flow was completed on `day`: one probe per flow the
    /// person completed (its completions' set), not a scan of their days.
    static func anyFlowCompleted(user: String, on day: CalendarDay, in db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM day_set s JOIN step_day d ON d.set_id = s.id AND d.day = ?
                           WHERE s.user = ? AND s.step = '' AND s.kind = 'completed')
            """), arguments: [day.ordinal, user]) == true
    }

    /// The person's achievements, in the order they were earned.
    public func achievements(user: String) throws(StoreError) -> [AchievementRow] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT user, key, achieved_at FROM achievement WHERE user = ? ORDER BY achieved_at, key", arguments: [user])
                .map { AchievementRow(user: $0["user"], key: $0["key"], achievedAt: $0["achieved_at"]) }
        }
    }

    /// The celebrations of one session, in the order they fired.
    public func celebrations(session: String) throws(StoreError) -> [CelebrationRow] {
        try read { db in try Store.celebrationRows(sql: "WHERE session_id = ? ORDER BY id", arguments: [session], in: db) }
    }

    static func celebrationRows(sql: String, arguments: StatementArguments, in db: Database) throws -> [CelebrationRow] {
        try Row.fetchAll(db, sql: "SELECT session_id, user, step, item, tier, reason, pool, line_index, line, at FROM celebration \(sql)",
                         arguments: arguments).map { row in
            let tierText: String? = row["tier"]
            var tier: CelebrationTier?
            if let tierText {
                guard let known = CelebrationTier(rawValue: tierText) else {
                    throw StoreError.database("celebration: column tier holds '\(tierText)', not tiny, medium or big")
                }
                tier = known
            }
            return CelebrationRow(sessionID: row["session_id"], user: row["user"], step: row["step"], tier: tier, reason: row["reason"],
                                  pool: row["pool"], lineIndex: row["line_index"], line: row["line"], at: row["at"],
                                  item: (row["item"] as String?).flatMap { $0.isEmpty ? nil : $0 })
        }
    }

}

extension Store {
    // MARK: Reset

    /// "Reset achievements": removes the person's achievements; from now on
    /// they are earned from what is logged after `day` only (the first-time
    /// memories start over too). Streaks are not touched.
    public func resetAchievements(user: String, day: CalendarDay) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM achievement WHERE user = ?", arguments: [user])
            try db.execute(sql: "INSERT INTO achievement_reset (user, day) VALUES (?, ?) ON CONFLICT (user) DO UPDATE SET day = excluded.day",
                           arguments: [user, day.ordinal])
            // What the days after `day` already earned (none, when `day` is
            // today) is recorded now, as the incremental rules expect.
            try Store.recordAchievements(user: user, in: db)
        }
    }
}

extension Store {
    /// The streak figures and the progress facts a session of `flow`
    /// starting on `today` snapshots (``UserFacts/streak``,
    /// ``UserFacts/progress``), read in one transaction.
    public func progressFacts(user: String, flow: String, today: CalendarDay) throws(StoreError) -> (streak: StreakFigures, progress: ProgressFacts) {
        try read { db in
            let streak = try Store.showedUpFigures(user: user, today: today, in: db)
            // The showed-up streak and what each step's facts need, from
            // the days' running figures (Store+DayRuns.swift): a few
            // look-ups, not the person's days. Same figures as
            // `StepProgress(step:saved:positive:today:)` over the step's day
            // sets (ProgressStoreTests.factsMatchEachStepsDays).
            let figures = try Store.stepFigures(user: user, flow: flow, today: today, in: db)
            // "Reset achievements" clears the first-time memories too (coach
            // spec §6): from the day after the reset (what the achievements
            // count from), a step's days and Yes days count from there, so
            // the first plan after a reset is "first" again, as its
            // achievement is. Streaks stay. On the reset day itself nothing
            // is first, as nothing earns an achievement.
            let reset = try Store.resetDay(user: user, in: db).flatMap { today > $0 ? $0.adding(days: 1) : nil }
            func sinceReset(_ step: String, _ kind: ActivityMark.Kind, _ f: DayFigures) throws -> Int {
                guard let reset else { return f.days }
                return try Store.figures(of: DaySet.step(user: user, flow: flow, step: step, kind: kind.rawValue), today: today,
                                         since: reset, in: db).recent
            }
            func progress(_ step: String, saved: ActivityMark.Kind) throws -> StepProgress {
                let mine = figures[step]?[saved] ?? DayFigures()
                let yes = figures[step]?[.positive] ?? DayFigures()
                return StepProgress(step: step, streak: mine.streak, days: try sinceReset(step, saved, mine), today: mine.today,
                                    yesDays: try sinceReset(step, .positive, yes), yesToday: yes.today, yesThisWeek: yes.recent)
            }
            let steps = try figures.keys.filter { !$0.isEmpty }.sorted().map { try progress($0, saved: .saved) }
            let anyCompleted = try Store.anyFlowCompleted(user: user, on: today, in: db)
            let held = try String.fetchAll(db, sql: "SELECT key FROM achievement WHERE user = ? ORDER BY key", arguments: [user])
            let lines = try Row.fetchAll(db, sql: """
                SELECT pool, line_index FROM celebration c WHERE user = ? AND pool IS NOT NULL AND line_index IS NOT NULL
                AND id = (SELECT MAX(id) FROM celebration WHERE user = c.user AND pool = c.pool) ORDER BY pool
                """, arguments: [user]).compactMap { row -> LastLine? in
                    guard let pool = LinePool(rawValue: row["pool"]) else { return nil }
                    return LastLine(pool: pool, index: row["line_index"])
                }
            let facts = ProgressFacts(steps: steps, completed: try progress("", saved: .completed), anyCompletedToday: anyCompleted,
                                      achievements: held, week: today.isoWeek, lastLines: lines)
            return (streak, facts)
        }
    }
}

extension Store {
    // MARK: Export and import

    static func exportedProgress(in db: Database, problems: inout [String]) throws -> ExportedProgress {
        var p = ExportedProgress()
        p.showedUpDays = try Row.fetchAll(db, sql: "SELECT user, day FROM showed_up_day ORDER BY user, day").map {
            ExportedShowedUpDay(user: $0["user"], day: CalendarDay(ordinal: $0["day"]))
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT s.user, s.flow, s.step, s.kind, d.day FROM day_set s JOIN step_day d ON d.set_id = s.id
            ORDER BY s.user, s.flow, s.step, s.kind, d.day
            """) {
            guard let kind = ActivityMark.Kind(rawValue: row["kind"]) else {
                problems.append("step day \(Store.label(row["flow"]))/\(Store.label(row["step"])): unknown kind \(Store.label(row["kind"])); left out")
                continue
            }
            p.stepDays.append(ExportedStepDay(user: row["user"], flow: row["flow"], step: row["step"], kind: kind, day: CalendarDay(ordinal: row["day"])))
        }
        p.achievements = try Row.fetchAll(db, sql: "SELECT user, key, achieved_at FROM achievement ORDER BY user, achieved_at, key").map {
            AchievementRow(user: $0["user"], key: $0["key"], achievedAt: $0["achieved_at"])
        }
        p.achievementResets = try Row.fetchAll(db, sql: "SELECT user, day FROM achievement_reset ORDER BY user").map {
            ExportedShowedUpDay(user: $0["user"], day: CalendarDay(ordinal: $0["day"]))
        }
        do {
            p.celebrations = try celebrationRows(sql: "ORDER BY id", arguments: [], in: db)
        } catch {
            problems.append("celebrations: cannot be read (\(Store.reason(error))); left out")
        }
        return p
    }

    /// Adds what is not there yet (importing twice adds nothing).
    static func importProgress(_ p: ExportedProgress, in db: Database) throws {
        var renumber = DayRenumbering()
        for d in p.showedUpDays {
            try insertDay(.showedUp(user: d.user), day: d.day.ordinal, in: db, renumber: &renumber)
        }
        for s in p.stepDays {
            try insertDay(.step(user: s.user, flow: s.flow, step: s.step, kind: s.kind.rawValue), day: s.day.ordinal,
                          in: db, renumber: &renumber)
        }
        try renumber.apply(in: db)
        for a in p.achievements {
            try db.execute(sql: "INSERT OR IGNORE INTO achievement (user, key, achieved_at) VALUES (?, ?, ?)", arguments: [a.user, a.key, a.achievedAt])
        }
        for r in p.achievementResets {
            try db.execute(sql: "INSERT OR IGNORE INTO achievement_reset (user, day) VALUES (?, ?)", arguments: [r.user, r.day.ordinal])
        }
        // The imported days may earn what neither file recorded (two
        // devices' halves of one streak): recorded now, as every write keeps it.
        for user in Set(p.showedUpDays.map(\.user) + p.stepDays.map(\.user) + p.achievementResets.map(\.user)).sorted() {
            try recordAchievements(user: user, in: db)
        }
        for c in p.celebrations {
            // A celebration of a session the file does not hold has none.
            let session = try c.sessionID.flatMap { id in
                try String.fetchOne(db, sql: "SELECT id FROM session WHERE id = ?", arguments: [id])
            }
            try db.execute(sql: """
                INSERT OR IGNORE INTO celebration (session_id, user, step, item, tier, reason, pool, line_index, line, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [session, c.user, c.step, c.item ?? "", c.tier?.rawValue, c.reason, c.pool, c.lineIndex, c.line, c.at])
        }
    }
}

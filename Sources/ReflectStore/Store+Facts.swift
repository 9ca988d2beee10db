import Foundation
import GRDB
import ReflectCore

/// A session as the coach's day views see it: which flow, which logical
/// day, whether it finished.
public struct DaySession: Sendable, Equatable {
    public var id: String
    public var flowID: String
    public var day: CalendarDay
    public var completed: Bool
    public var startedAt: String
}

extension Store {
    /// The person's sessions whose logical day is within `from`…`to`,
    /// oldest first. A session's day is the one its facts snapshot names;
    /// a session started before snapshots existed is placed by its clock
    /// and today's `rules`.
    public func daySessions(user: String, from: CalendarDay, to: CalendarDay, rules: DayRules) throws(StoreError) -> [DaySession] {
        try read { db in try Store.daySessions(user: user, from: from, to: to, rules: rules, in: db) }
    }

    static func daySessions(user: String, from: CalendarDay, to: CalendarDay, rules: DayRules, in db: Database) throws -> [DaySession] {
        // A logical day's instants are written with local dates from two days before to two after
        // (the clock's offset against the person's zone, up to 26 hours apart, and the boundary).
        // The `clock` range is implied by the local-date condition (a text
        // whose first ten characters lie in a…b lies in a…<b+1 day); it lets
        // the (user, clock) index read only those days.
        let first = from.adding(days: -2).description, last = to.adding(days: 2).description
        // The snapshot's day is read by SQLite (`facts_day`), not by decoding
        // every session's whole facts with JSONDecoder: the text `day` of
        // a well-formed facts object, else NULL (no facts, malformed JSON,
        // no day, a day that is not text), when the clock places the
        // session, as before. Reflect writes facts only by encoding
        // ``UserFacts`` and imports only facts that decode as one, so both
        // readings agree on every stored row (DaySessionsTests compares
        // them on random facts).
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT id, flow_id, status, clock, started_at,
                   CASE WHEN json_valid(facts) THEN
                       CASE WHEN json_type(facts, '$.day') = 'text' THEN json_extract(facts, '$.day') END
                   END AS facts_day
            FROM session
            WHERE user = ? AND clock >= ? AND clock < ? AND substr(clock, 1, 10) BETWEEN ? AND ?
            ORDER BY started_at, rowid
            """), arguments: [user, first, to.adding(days: 3).description, first, last])
        var out: [DaySession] = []
        while let row = try rows.next() {
            let clockText: String = row["clock"] ?? ""
            var day: CalendarDay?
            if let factsDay: String = row["facts_day"] { day = CalendarDay(factsDay) }
            if day == nil, let clock = FlowClock(iso8601: clockText) { day = rules.moment(clock).day }
            guard let day, day >= from, day <= to else { continue }
            out.append(DaySession(id: row["id"] ?? "", flowID: row["flow_id"] ?? "", day: day,
                                  completed: (row["status"] as String?) == SessionRecord.Status.completed.rawValue,
                                  startedAt: row["started_at"] ?? ""))
        }
        return out
    }

    /// What a new session of `flowID` may know about the person, read when
    /// it starts (the engine snapshots it into the save): the logical day
    /// and phase at `clock`, the day's earlier answers in the flow's family
    /// (`coach.evening` sees `coach.*` answers; oldest first, skipped and
    /// safety-flagged ones left out, so a person's words are copied only
    /// where a flow of the same routine may quote them), whether this is the first session of
    /// this flow today and ever, today's Prep Library checklist and last
    /// night's marks.
    ///
    /// Seam: `streak` is left nil here; the progress feature fills it from
    /// its own computation (`UserFacts.streak`).
    public func userFacts(user: String, flowID: String, clock: FlowClock, rules: DayRules) throws(StoreError) -> UserFacts {
        let moment = rules.moment(clock)
        return try read { db in
            let today = try Store.daySessions(user: user, from: moment.day, to: moment.day, rules: rules, in: db)
            var earlier: [EarlierAnswer] = []
            let family = flowID.split(separator: ".").first.map { String($0) + "." } ?? flowID
            // One statement prepared once for all of the day's sessions.
            let answersOf = try db.cachedStatement(sql: "SELECT * FROM answer WHERE session_id = ? AND state = ? ORDER BY position")
            for s in today where s.flowID.hasPrefix(family) {
                let answers = try AnswerRecord.fetchAll(answersOf, arguments: [s.id, AnswerRecord.State.answer.rawValue])
                for a in answers where a.value != .skipped && a.safety == nil {
                    earlier.append(EarlierAnswer(flow: s.flowID, step: a.step, value: a.value))
                }
            }
            if earlier.count > SessionLimits.maxAnswers { earlier.removeFirst(earlier.count - SessionLimits.maxAnswers) }
            let firstEver = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM session WHERE user = ? AND flow_id = ?)"),
                                              arguments: [user, flowID]) != true
            let library = try Store.prepRows(user: user, in: db).map(\.item)
            let marks = try PrepMarkRecord.fetchAll(db.cachedStatement(sql: #"SELECT * FROM "prep_mark" WHERE ("user" = ?) AND ("day" = ?)"#),
                                                    arguments: [user, moment.day.adding(days: -1).description])
            let order = Dictionary(library.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
            return UserFacts(day: moment.day.description, phase: moment.phase, earlierAnswers: earlier, streak: nil,
                             firstToday: !today.contains { $0.flowID == flowID }, firstEver: firstEver,
                             prepItems: PrepLibrary.checklist(library, on: moment.day),
                             lastNightPrep: marks.sorted { (order[$0.itemID] ?? .max) < (order[$1.itemID] ?? .max) }
                                .map { PrepMark(itemID: $0.itemID, mark: $0.mark) })
        }
    }
}

import Foundation
import GRDB
import ReflectCore

/// Experiment rows: exposures (once per person, experiment and session),
/// sticky assignments, and the report's aggregates, computed in SQL.
extension Store {
    /// Exposure rows and sticky assignments for `session`'s person, inside
    /// the caller's transaction. Repeats are ignored (one exposure per
    /// person, experiment and session; the first assignment per bucket
    /// version stays). Each row starts with what the report reads: the
    /// session's outcome so far and whether the person already came back.
    static func insertExposures(_ exposures: [VariantAssignment], session: String, at: String, in db: Database) throws {
        guard !exposures.isEmpty else { return }
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO experiment_exposure (user, experiment, variant, session_id, at, completed, intensity_change, returned)
            SELECT user, ?1, ?2, id, ?3, status = 'completed',
                   CASE WHEN status = 'completed' AND pre IS NOT NULL AND post IS NOT NULL THEN pre - post END,
                   \(cameBackSQL(user: "session.user", session: "session.id", at: "?3"))
            FROM session WHERE id = ?4
            """)
        // The first arm per bucket version stays; under a new seed (the
        // author re-randomized everyone) the new arm replaces it. A row
        // without a seed (stored before seeds were) holds under any seed.
        let assignment = try db.cachedStatement(sql: """
            INSERT INTO experiment_assignment (user, experiment, bucket_version, variant, assigned_at, seed)
            SELECT user, ?, ?, ?, ?, ? FROM session WHERE id = ?
            ON CONFLICT (user, experiment, bucket_version) DO UPDATE
              SET variant = excluded.variant, assigned_at = excluded.assigned_at, seed = excluded.seed
              WHERE seed IS NOT NULL AND excluded.seed IS NOT NULL AND seed <> excluded.seed
            """)
        for e in exposures {
            try insert.execute(arguments: [e.experiment, e.variation, at, session])
            try assignment.execute(arguments: [e.experiment, e.bucketVersion, e.variation, at, e.seed, session])
        }
    }

    /// SQL for "`user` started a session other than `session` within 7 days
    /// after `at`" (times compared as instants, whatever their offsets).
    static func cameBackSQL(user: String, session: String, at: String) -> String {
        """
        EXISTS (SELECT 1 FROM session later WHERE later.user = \(user) AND later.id IS NOT \(session)
                AND julianday(later.started_at) > julianday(\(at)) AND julianday(later.started_at) <= julianday(\(at)) + 7)
        """
    }

    /// A session starts: exposures of the same person in the 7 days before
    /// it now count as "came back" (inside the caller's transaction).
    static func markReturn(user: String, session: String, startedAt: String, in db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE experiment_exposure SET returned = 1
            WHERE user = ? AND returned = 0 AND session_id IS NOT ?
              AND julianday(?) > julianday(at) AND julianday(?) <= julianday(at) + 7
            """).execute(arguments: [user, session, startedAt, startedAt])
    }

    /// Records exposures of a session's standing prompt (no answer with them).
    public func recordExposures(_ exposures: [VariantAssignment], session: String, at: String) throws(StoreError) {
        try write { db in try Store.insertExposures(exposures, session: session, at: at, in: db) }
    }

    /// The variation `user` has seen in `experiment` under `bucketVersion`
    /// and `seed`, if any: an arm chosen under another seed does not hold
    /// (a new seed re-randomizes everyone; experiments spec §1). A row
    /// stored without its seed, or a nil `seed`, matches any.
    public func stickyVariation(user: String, experiment: String, bucketVersion: Int, seed: String? = nil) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: """
                SELECT variant FROM experiment_assignment WHERE user = ? AND experiment = ? AND bucket_version = ?
                  AND (seed IS NULL OR ?4 IS NULL OR seed = ?4)
                """, arguments: [user, experiment, bucketVersion, seed])
        }
    }

    /// Experiment keys with exposures, and how many each has.
    public func experimentExposureCounts() throws(StoreError) -> [String: Int] {
        try read { db in
            var out: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT experiment, COUNT(*) AS n FROM experiment_exposure GROUP BY experiment") {
                if let key: String = row["experiment"] { out[key] = row["n"] }
            }
            return out
        }
    }

    /// Per-arm aggregates of `experiment`, one pass in SQL (the report's
    /// input). The unit is the exposed session; "intensity change" is
    /// pre − post of a completed session with both, and 0 for every other
    /// exposed session (intent to treat). People exposed to more than one
    /// variation are left out and counted. Each arm also carries its people's
    /// mean changes (Σ m, Σ m²), for the report's per-person check.
    public func experimentAggregates(_ experiment: String) throws(StoreError) -> ExperimentAggregates {
        try read { db in
            // Each query reads only the covering index (experiment, user, variant, completed, intensity_change, returned).
            // 1. Sums per variant over every exposed session.
            var sums: [String: ArmAggregate] = [:]
            func addSums(_ sql: String, _ arguments: StatementArguments, sign: Int) throws {
                for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                    let v: String = row["variant"]
                    var a = sums[v] ?? ArmAggregate(variation: v, people: 0, sessions: 0, completedSessions: 0, completers: 0, changeSum: 0,
                                                    changeSquares: 0, returnedPeople: 0)
                    a.sessions += sign * (row["sessions"] as Int)
                    a.completedSessions += sign * (row["completed"] as Int)
                    a.completers += sign * (row["completers"] as Int)
                    a.changeSum += sign * (row["change"] as Int)
                    a.changeSquares += sign * (row["change2"] as Int)
                    sums[v] = a
                }
            }
            let columns = """
                variant, COUNT(*) AS sessions, SUM(completed) AS completed, COUNT(intensity_change) AS completers,
                COALESCE(SUM(intensity_change), 0) AS change, COALESCE(SUM(intensity_change * intensity_change), 0) AS change2
                """
            try addSums("SELECT \(columns) FROM experiment_exposure WHERE experiment = ? GROUP BY variant", [experiment], sign: 1)
            // 2. People: one arm each, or more than one (left out); each person's mean change (the per-person check).
            var excluded = 0
            for row in try Row.fetchAll(db, sql: """
                SELECT CASE WHEN first = last THEN first END AS arm, COUNT(*) AS people, SUM(returned) AS returned,
                       TOTAL(m) AS msum, TOTAL(m * m) AS msq, SUM(n > 1) AS repeaters, MAX(n) AS most
                FROM (SELECT MIN(variant) AS first, MAX(variant) AS last, MAX(returned) AS returned,
                             AVG(COALESCE(intensity_change, 0)) AS m, COUNT(*) AS n
                      FROM experiment_exposure WHERE experiment = ? GROUP BY user)
                GROUP BY arm
                """, arguments: [experiment]) {
                guard let arm: String = row["arm"] else {
                    excluded = row["people"]
                    continue
                }
                var a = sums[arm] ?? ArmAggregate(variation: arm, people: 0, sessions: 0, completedSessions: 0, completers: 0, changeSum: 0,
                                                  changeSquares: 0, returnedPeople: 0)
                a.people = row["people"]
                a.returnedPeople = row["returned"]
                a.personMeanSum = row["msum"]
                a.personMeanSquares = row["msq"]
                a.repeatPeople = row["repeaters"]
                a.mostSessions = row["most"]
                sums[arm] = a
            }
            // 3. Only when someone saw two arms: take their sessions out again.
            if excluded > 0 {
                try addSums("""
                    SELECT \(columns) FROM experiment_exposure WHERE experiment = ? AND user IN (
                        SELECT user FROM experiment_exposure WHERE experiment = ? GROUP BY user HAVING MIN(variant) <> MAX(variant))
                    GROUP BY variant
                    """, [experiment, experiment], sign: -1)
            }
            return ExperimentAggregates(experiment: experiment,
                                        arms: sums.values.filter { $0.people > 0 || $0.sessions > 0 }.sorted { $0.variation < $1.variation },
                                        excludedPeople: excluded)
        }
    }
}

extension Store {
    /// Writes simulated sessions (``ExperimentSimulation``) as ordinary rows
    /// (session, exposure, assignment) of `experiment`, in one transaction.
    /// Their users are `sim-…`; use a scratch database.
    public func recordSimulated(_ sessions: [ExperimentSimulation.Session], experiment: String, at: String) throws(StoreError) {
        try write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT INTO session (id, flow_id, flow_version, locale, user, seed, clock, started_at, completed_at, status, pre, post)
                VALUES (?, 'simulation', 1, 'en', ?, 0, ?, ?, ?, ?, ?, ?)
                """)
            for s in sessions {
                let id = UUID().uuidString.lowercased()
                try insert.execute(arguments: [id, s.user, at, at, s.post == nil ? nil : at, s.post == nil ? "active" : "completed",
                                               s.pre, s.post])
                try Store.insertExposures([VariantAssignment(experiment: experiment, variation: s.variation)], session: id, at: at, in: db)
            }
        }
    }
}

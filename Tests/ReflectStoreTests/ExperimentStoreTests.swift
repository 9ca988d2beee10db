import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// The report's SQL against the same figures computed in Swift, and the
/// exposure rows kept current as sessions finish and people come back.
@Suite("Experiment rows in the store")
struct ExperimentStoreTests {
    static let experiment = Experiment(key: "q1", variations: [ExperimentVariation(id: "control"), ExperimentVariation(id: "warm")])

    func expected(_ sessions: [ExperimentSimulation.Session], excluding: Set<String> = []) -> [String: ArmAggregate] {
        var out: [String: ArmAggregate] = [:]
        var changes: [String: [String: [Int]]] = [:] // arm → person → intent-to-treat changes
        for s in sessions where !excluding.contains(s.user) {
            var a = out[s.variation] ?? ArmAggregate(variation: s.variation, people: 0, sessions: 0, completedSessions: 0, completers: 0,
                                                     changeSum: 0, changeSquares: 0, returnedPeople: 0)
            a.sessions += 1
            if let post = s.post {
                a.completedSessions += 1
                a.completers += 1
                a.changeSum += s.pre - post
                a.changeSquares += (s.pre - post) * (s.pre - post)
            }
            changes[s.variation, default: [:]][s.user, default: []].append(s.post.map { s.pre - $0 } ?? 0)
            out[s.variation] = a
        }
        for (arm, people) in changes {
            let means = people.values.map { Double($0.reduce(0, +)) / Double($0.count) }
            out[arm]?.people = people.count
            out[arm]?.personMeanSum = means.reduce(0, +)
            out[arm]?.personMeanSquares = means.reduce(0) { $0 + $1 * $1 }
            out[arm]?.repeatPeople = people.values.filter { $0.count > 1 }.count
            out[arm]?.mostSessions = people.values.map(\.count).max() ?? 0
        }
        return out
    }

    /// Equal, the per-person sums to rounding (SQL adds them in another order).
    func same(_ got: [ArmAggregate], _ want: [String: ArmAggregate]) -> Bool {
        guard got.count == want.count else { return false }
        return got.allSatisfy { g in
            guard var w = want[g.variation] else { return false }
            let close = abs(g.personMeanSum - w.personMeanSum) <= 1e-9 * max(1, abs(w.personMeanSum))
                && abs(g.personMeanSquares - w.personMeanSquares) <= 1e-9 * max(1, abs(w.personMeanSquares))
            w.personMeanSum = g.personMeanSum
            w.personMeanSquares = g.personMeanSquares
            return close && g == w
        }
    }

    @Test("per-arm sums, people and exclusions equal a direct computation")
    func aggregates() throws {
        let store = try temporaryStore()
        let sessions = ExperimentSimulation(experiment: Self.experiment, settings: .init(people: 300, effect: 0.5, completion: 0.7, seed: 3))
            .sessions()
        try store.recordSimulated(sessions, experiment: "q1", at: "2026-11-24T08:00:00+01:00")
        var got = try store.experimentAggregates("q1")
        #expect(got.excludedPeople == 0)
        #expect(same(got.arms, expected(sessions)))
        #expect(got.arms.allSatisfy { $0.repeatPeople == 0 && $0.mostSessions == 1 })
        // Someone sees the other arm too: all their sessions leave every figure.
        let switcher = sessions[0]
        let other = ExperimentSimulation.Session(user: switcher.user, variation: switcher.variation == "warm" ? "control" : "warm", pre: 5, post: 1)
        try store.recordSimulated([other], experiment: "q1", at: "2026-11-25T08:00:00+01:00")
        got = try store.experimentAggregates("q1")
        #expect(got.excludedPeople == 1)
        #expect(same(got.arms, expected(sessions, excluding: [switcher.user])))
    }

    @Test("people with several sessions: each person's mean change, summed per arm, equals a direct computation")
    func perPersonAggregates() throws {
        let store = try temporaryStore()
        let sessions = ExperimentSimulation(experiment: Self.experiment, settings: .init(
            people: 300, effect: 0.5, completion: 0.6, seed: 5, sessionsPerPerson: 6, personNoise: 1.5)).sessions()
        try store.recordSimulated(sessions, experiment: "q1", at: "2026-11-24T08:00:00+01:00")
        let got = try store.experimentAggregates("q1")
        #expect(same(got.arms, expected(sessions)))
        #expect(got.arms.allSatisfy { $0.repeatPeople > 0 && $0.mostSessions == 6 })
        // The report's per-person test is Welch's test on those means.
        let report = ExperimentReport(experiment: Self.experiment, aggregates: got)
        func means(_ arm: String) -> [Double] {
            Dictionary(grouping: sessions.filter { $0.variation == arm }, by: \.user).values
                .map { list in Double(list.map { s in s.post.map { s.pre - $0 } ?? 0 }.reduce(0, +)) / Double(list.count) }
        }
        let direct = try #require(WelchTest(control: SampleSummary(means("control")), treatment: SampleSummary(means("warm"))))
        let perPerson = try #require(report.comparisons.first?.perPerson)
        #expect(abs(perPerson.pValue - direct.pValue) < 1e-9 && abs(perPerson.difference - direct.difference) < 1e-9)
        #expect(report.repeatPeople == got.arms.reduce(0) { $0 + $1.repeatPeople } && report.mostSessionsPerPerson == 6)
    }

    @Test("one session each: the per-person test is the per-session test, and no verdict is marked")
    func oneSessionEach() throws {
        let store = try temporaryStore()
        let sessions = ExperimentSimulation(experiment: Self.experiment, settings: .init(people: 400, effect: 0.8, seed: 2)).sessions()
        try store.recordSimulated(sessions, experiment: "q1", at: "2026-11-24T08:00:00+01:00")
        let report = ExperimentReport(experiment: Self.experiment, aggregates: try store.experimentAggregates("q1"))
        let c = try #require(report.comparisons.first)
        let itt = try #require(c.intentToTreat), perPerson = try #require(c.perPerson)
        #expect(abs(itt.pValue - perPerson.pValue) < 1e-12 && abs(itt.difference - perPerson.difference) < 1e-12)
        #expect(report.repeatPeople == 0 && c.verdict != nil && c.confirmedPerPerson == nil)
    }

    @Test("A/A with people whose sessions are alike: per session far more than 5% of runs look significant; per person 1–10%")
    func correlatedSessions() throws {
        let store = try temporaryStore()
        let simulation = ExperimentSimulation(experiment: Self.experiment, settings: .init(
            people: 200, effect: 0, seed: 11, sessionsPerPerson: 8, personNoise: 2))
        var perSession = 0, perPerson = 0, marked = 0
        let runs = 100
        for run in 0..<runs {
            try store.recordSimulated(simulation.sessions(run: run), experiment: "aa\(run)", at: "2026-11-24T08:00:00+01:00")
            let report = ExperimentReport(experiment: Self.experiment, aggregates: try store.experimentAggregates("aa\(run)"))
            if (report.primaryPValue ?? 1) < ExperimentReport.alpha { perSession += 1 }
            if (report.perPersonPValue ?? 1) < ExperimentReport.alpha { perPerson += 1 }
            if report.comparisons.first?.confirmedPerPerson == false { marked += 1 }
        }
        #expect(perSession >= 15, "per session: \(perSession) of \(runs)")
        #expect(perPerson >= 1 && perPerson <= 10, "per person: \(perPerson) of \(runs)")
        // Most of the per-session false alarms are marked unconfirmed.
        #expect(marked >= perSession - perPerson, "marked \(marked), per session \(perSession), per person \(perPerson)")
    }

    @Test("an exposure of a session that finishes later carries its outcome; a session within 7 days is a return, later is not")
    func outcomeAndReturn() throws {
        let store = try temporaryStore()
        func start(_ id: String, _ user: String, _ at: String) throws {
            try store.beginSession(SessionRecord(id: id, flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil,
                                                 user: user, mood: nil, seed: 0, clock: at, startedAt: at))
        }
        try start("a1", "ana", "2026-11-20T09:00:00+01:00")
        try start("b1", "ben", "2026-11-20T09:00:00+01:00")
        try store.recordExposures([VariantAssignment(experiment: "q1", variation: "warm")], session: "a1", at: "2026-11-20T09:01:00+01:00")
        try store.recordExposures([VariantAssignment(experiment: "q1", variation: "warm")], session: "b1", at: "2026-11-20T09:01:00+01:00")
        // Once per person, experiment and session.
        try store.recordExposures([VariantAssignment(experiment: "q1", variation: "warm")], session: "a1", at: "2026-11-20T09:02:00+01:00")
        try store.completeSession("a1", pre: 8, post: 3, at: "2026-11-20T09:10:00+01:00", moodDay: nil)
        // Ana comes back 6 days later (another offset, the same instant rules); Ben after 8 days.
        try start("a2", "ana", "2026-11-26T07:00:00-01:00")
        try start("b2", "ben", "2026-11-28T09:00:00+01:00")
        let got = try store.experimentAggregates("q1")
        let warm = try #require(got.arms.first { $0.variation == "warm" })
        #expect(warm.people == 2 && warm.sessions == 2 && warm.completedSessions == 1 && warm.completers == 1)
        #expect(warm.changeSum == 5 && warm.changeSquares == 25)
        #expect(warm.returnedPeople == 1)
        #expect(try store.stickyVariation(user: "ana", experiment: "q1", bucketVersion: 0) == "warm")
        #expect(try store.stickyVariation(user: "ana", experiment: "q1", bucketVersion: 1) == nil)
    }
}

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
        var people: [String: Set<String>] = [:]
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
            people[s.variation, default: []].insert(s.user)
            a.people = people[s.variation]?.count ?? 0
            out[s.variation] = a
        }
        return out
    }

    @Test("per-arm sums, people and exclusions equal a direct computation")
    func aggregates() throws {
        let store = try temporaryStore()
        let sessions = ExperimentSimulation(experiment: Self.experiment, settings: .init(people: 300, effect: 0.5, completion: 0.7, seed: 3))
            .sessions()
        try store.recordSimulated(sessions, experiment: "q1", at: "2026-11-24T08:00:00+01:00")
        var got = try store.experimentAggregates("q1")
        #expect(got.excludedPeople == 0)
        #expect(Dictionary(uniqueKeysWithValues: got.arms.map { ($0.variation, $0) }) == expected(sessions))
        // Someone sees the other arm too: all their sessions leave every figure.
        let switcher = sessions[0]
        let other = ExperimentSimulation.Session(user: switcher.user, variation: switcher.variation == "warm" ? "control" : "warm", pre: 5, post: 1)
        try store.recordSimulated([other], experiment: "q1", at: "2026-11-25T08:00:00+01:00")
        got = try store.experimentAggregates("q1")
        #expect(got.excludedPeople == 1)
        #expect(Dictionary(uniqueKeysWithValues: got.arms.map { ($0.variation, $0) }) == expected(sessions, excluding: [switcher.user]))
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

import Testing
@testable import ReflectCore

@Suite("Experiment assignment")
struct ExperimentAssignmentTests {
    static func experiment(weights: [Double]? = nil, coverage: Double = 1, namespace: Namespace? = nil) -> Experiment {
        Experiment(key: "reframe-wording", variations: [ExperimentVariation(id: "control"), ExperimentVariation(id: "warm")],
                   weights: weights, coverage: coverage, targeting: ExperimentTargeting(flows: ["reflection"]), namespace: namespace)
    }

    static let people = (0..<2000).map { "person-\($0)" }

    static func context(_ user: String, flow: String = "reflection.negative") -> ExperimentContext {
        ExperimentContext(user: user, flow: flow, locale: "en", day: "2026-11-24")
    }

    @Test("the same person always gets the same arm; the split follows the weights")
    func deterministicAndWeighted() {
        let e = Self.experiment(weights: [0.2, 0.8])
        let arms = Self.people.map { e.assign(Self.context($0))?.variation }
        #expect(arms == Self.people.map { e.assign(Self.context($0))?.variation })
        let warm = Double(arms.filter { $0 == "warm" }.count) / Double(arms.count)
        #expect(abs(warm - 0.8) < 0.03)
    }

    @Test("lowering coverage shrinks arms in place: nobody moves from one arm to another")
    func coverageNeverMovesPeople() {
        let full = Self.experiment(coverage: 1), half = Self.experiment(coverage: 0.4)
        var dropped = 0
        for p in Self.people {
            guard let narrow = half.assign(Self.context(p)) else { dropped += 1; continue }
            #expect(full.assign(Self.context(p))?.variation == narrow.variation)
        }
        #expect(abs(Double(dropped) / Double(Self.people.count) - 0.6) < 0.04)
    }

    @Test("weights of the wrong count or sum fall back to equal weights")
    func badWeights() {
        #expect(Self.experiment(weights: [0.2, 0.3, 0.5]).effectiveWeights == [0.5, 0.5])
        #expect(Self.experiment(weights: [0.7, 0.6]).effectiveWeights == [0.5, 0.5])
        #expect(Self.experiment(weights: [0.4, 0.5999]).effectiveWeights == [0.4, 0.5999])
    }

    @Test("a stored assignment wins over changed weights; a stored id that no longer exists does not")
    func sticky() {
        let e = Self.experiment(weights: [0.99, 0.01])
        let p = Self.people.first { e.assign(Self.context($0))?.variation == "control" } ?? ""
        #expect(e.assign(Self.context(p), sticky: "warm")?.variation == "warm")
        #expect(e.assign(Self.context(p), sticky: "gone")?.variation == "control")
    }

    @Test("experiments on disjoint shares of one namespace never share a person")
    func namespaces() {
        let a = Self.experiment(namespace: Namespace(id: "wording", start: 0, end: 0.5))
        let b = Self.experiment(namespace: Namespace(id: "wording", start: 0.5, end: 1))
        for p in Self.people {
            #expect(!(a.assign(Self.context(p)) != nil && b.assign(Self.context(p)) != nil))
        }
        if let na = a.namespace, let nb = b.namespace { #expect(!na.overlaps(nb)) }
    }

    @Test("targeting, status and dates decide whether it applies at all")
    func applies() {
        var e = Self.experiment()
        #expect(e.assign(Self.context("x", flow: "demo.check-in")) == nil)
        #expect(e.assign(Self.context("x", flow: "reflection.positive")) != nil)
        e.status = .stopped
        #expect(e.assign(Self.context("x")) == nil)
        e.status = .running
        e.endDay = "2026-11-23"
        #expect(e.assign(Self.context("x")) == nil)
        e.endDay = nil
        e.targeting.moods = [.bad]
        #expect(e.assign(Self.context("x")) == nil)
    }

    @Test("hash version 1 is accepted and differs from version 2")
    func version1() {
        var e = Self.experiment()
        let v2 = Self.people.map { e.assign(Self.context($0))?.variation }
        e.hashVersion = 1
        let v1 = Self.people.map { e.assign(Self.context($0))?.variation }
        #expect(v1.allSatisfy { $0 != nil })
        #expect(v1 != v2)
    }
}

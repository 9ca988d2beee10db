/// What a session's experiments change, resolved for one person: their
/// arms, the strings those arms override, and which keys each experiment
/// varies (a prompt using such a key is an exposure).
///
/// Built by the host from the content's experiments and the person's
/// assignments (``Experiment/assign(_:sticky:)``, or the save's
/// ``SessionSave/variants`` when resuming); read by ``Localizer`` (strings)
/// and by the flow API (`s:variant`, exposures).
public struct ActiveVariants: Sendable, Equatable {
    /// The person's arm in each experiment they are in.
    public var assignments: [VariantAssignment]
    /// Every known experiment's control id: `s:variant` answers it for
    /// experiments the person is not in (control text, no exposure).
    public var controls: [String: String]
    /// Overrides of the person's arms, by locale tag, then key; they win
    /// over personalities and locale strings at each step of the chain.
    public var strings: [String: [String: String]]
    /// Locale key → the experiments (the person is in) whose arms vary it.
    public var keys: [String: [String]]
    /// Experiments that vary the whole session (a personality): the first
    /// prompt shown is their exposure.
    public var sessionWide: [String]

    public init(assignments: [VariantAssignment] = [], controls: [String: String] = [:], strings: [String: [String: String]] = [:],
                keys: [String: [String]] = [:], sessionWide: [String] = []) {
        self.assignments = assignments
        self.controls = controls
        self.strings = strings
        self.keys = keys
        self.sessionWide = sessionWide
    }

    public static let none = ActiveVariants()

    /// Resolves `assignments` against `experiments`: an assignment whose
    /// experiment or variation no longer exists is dropped (control text).
    public init(assignments: [VariantAssignment], experiments: [Experiment]) {
        var kept: [VariantAssignment] = []
        var strings: [String: [String: String]] = [:]
        var keys: [String: [String]] = [:]
        var sessionWide: [String] = []
        for a in assignments {
            guard let e = experiments.first(where: { $0.key == a.experiment }),
                  let arm = e.variations.first(where: { $0.id == a.variation }) else { continue }
            kept.append(a)
            for (tag, table) in arm.strings { strings[tag, default: [:]].merge(table) { first, _ in first } }
            // Every key any arm varies: control people are exposed by the same prompts.
            for key in Set(e.variations.flatMap { $0.strings.values.flatMap(\.keys) }).sorted() {
                keys[key, default: []].append(e.key)
            }
            if e.variations.contains(where: { $0.personality != nil }) { sessionWide.append(e.key) }
        }
        self.init(assignments: kept, controls: Dictionary(experiments.compactMap { e in e.control.map { (e.key, $0.id) } }) { a, _ in a },
                  strings: strings, keys: keys, sessionWide: sessionWide)
    }

    public func variation(of experiment: String) -> String? {
        assignments.first { $0.experiment == experiment }?.variation
    }
}

import Yams
import Foundation
import ReflectCore

/// An experiment file, `experiments/<key>.yaml`, read with the lines of
/// what `reflect check` may point at.
///
/// ```yaml
/// key: reframe-wording
/// status: running              # draft | running | stopped
/// hash_version: 2              # 1 accepted (GrowthBook's legacy hash)
/// seed: reframe-wording        # default: the key
/// bucket_version: 0            # bump to re-randomize people already assigned
/// start: 2026-11-01            # optional first and last local day
/// end: 2026-12-31
/// weights: [0.5, 0.5]          # default: equal
/// coverage: 1                  # share of people in the experiment
/// targeting: { flows: [reflection.negative], locales: [en, de], moods: [bad, horrible] }
/// namespace: { id: wording, range: [0, 0.5] }
/// variations:
///   - id: control               # the first is the control
///   - id: warm
///     strings:
///       en: { reflection.negative.q1: "What happened, in a sentence or two?" }
///     personality: zen          # optional: this arm's voice
/// ```
///
/// Structural mistakes (a status typo, an unknown field, a malformed
/// number) are errors at their line; content checks (unknown keys,
/// placeholders, weights) are `reflect check`'s (docs/experiments.md).
public struct ExperimentFile: Sendable, Equatable {
    public var experiment: Experiment
    /// The file as shown to authors (`experiments/reframe-wording.yaml`).
    public var file: String
    public var keyLine: Int?
    public var weightsLine: Int?
    public var namespaceLine: Int?
    /// Per variation: its line, and the line of each override (`tag key`).
    public var variationLines: [String: Int]
    public var stringLines: [String: Int]
    public var personalityLines: [String: Int]

    public func stringLine(variation: String, tag: String, key: String) -> Int? { stringLines["\(variation) \(tag) \(key)"] }

    static let fields = ["key", "seed", "hash_version", "status", "start", "end", "bucket_version", "weights", "coverage",
                         "targeting", "namespace", "variations", "description"]

    public static func load(_ url: URL, displayName: String) throws(EngineError) -> ExperimentFile {
        let text = try ContentText.read(url) { .invalidContent(file: displayName, line: $0, message: $1) }
        return try parse(text, file: displayName, expectedKey: url.deletingPathExtension().lastPathComponent)
    }

    public static func parse(_ text: String, file: String, expectedKey: String? = nil) throws(EngineError) -> ExperimentFile {
        let doc = try YAMLDocument(text: text, file: file)
        var key: String?, seed: String?, hashVersion = 2, status: Experiment.Status?, startDay: String?, endDay: String?
        var bucketVersion = 0, weights: [Double]?, coverage = 1.0, targeting = ExperimentTargeting(), namespace: Namespace?
        var variations: [ExperimentVariation] = []
        var out = ExperimentFile(experiment: Experiment(key: "", variations: []), file: file, variationLines: [:], stringLines: [:],
                                 personalityLines: [:])
        func number(_ node: Node, _ what: String) throws(EngineError) -> Double {
            guard let s = node.scalar?.string, let d = Double(s), d.isFinite else { throw doc.fail(node, "\(what) must be a number") }
            return d
        }
        func day(_ node: Node, _ what: String) throws(EngineError) -> String {
            let s = try doc.string(node, what)
            guard s.count == 10, FlowClock(iso8601: s + "T00:00:00Z") != nil else {
                throw doc.fail(node, "\(what) must be a day, YYYY-MM-DD (got '\(s)')")
            }
            return s
        }
        for (field, keyNode, value) in try doc.mapping(doc.root, "an experiment file") {
            switch field {
            case "key":
                let k = try doc.string(value, "key")
                guard ExperimentKey.isValid(k) else {
                    throw doc.fail(value, "key '\(k)' must be 1–64 lowercase letters, digits, _ - . (starting with a letter or digit)")
                }
                key = k
                out.keyLine = value.mark?.line
            case "seed": seed = try doc.string(value, "seed")
            case "hash_version":
                hashVersion = try doc.int(value, "hash_version")
                guard hashVersion == 1 || hashVersion == 2 else { throw doc.fail(value, "hash_version must be 2 (the default) or 1") }
            case "status":
                let s = try doc.string(value, "status")
                guard let st = Experiment.Status(rawValue: s) else {
                    throw doc.fail(value, "status '\(s)' is not one of draft, running, stopped")
                }
                status = st
            case "start": startDay = try day(value, "start")
            case "end": endDay = try day(value, "end")
            case "bucket_version":
                bucketVersion = try doc.int(value, "bucket_version")
                guard bucketVersion >= 0 else { throw doc.fail(value, "bucket_version must be 0 or more") }
            case "weights":
                guard let seq = value.sequence else { throw doc.fail(value, "weights must be a list of numbers") }
                var w: [Double] = []
                for item in seq {
                    let x = try number(item, "each weight")
                    guard x >= 0 else { throw doc.fail(item, "a weight cannot be negative") }
                    w.append(x)
                }
                weights = w
                out.weightsLine = value.mark?.line
            case "coverage":
                coverage = try number(value, "coverage")
                guard coverage >= 0, coverage <= 1 else { throw doc.fail(value, "coverage must be between 0 and 1") }
            case "targeting":
                for (t, tNode, list) in try doc.mapping(value, "targeting") {
                    switch t {
                    case "flows": targeting.flows = try doc.strings(list, "targeting.flows")
                    case "locales": targeting.locales = try doc.strings(list, "targeting.locales")
                    case "moods":
                        for m in try doc.strings(list, "targeting.moods") {
                            guard let mood = Mood(rawValue: m) else {
                                throw doc.fail(list, "targeting.moods: '\(m)' is not one of \(Mood.allCases.map(\.rawValue).joined(separator: ", "))")
                            }
                            targeting.moods.append(mood)
                        }
                    default: throw doc.fail(tNode, "targeting: unknown field '\(t)' (expected flows, locales, moods)")
                    }
                }
            case "namespace":
                var id: String?, range: [Double] = []
                for (n, nNode, v) in try doc.mapping(value, "namespace") {
                    switch n {
                    case "id": id = try doc.string(v, "namespace.id")
                    case "range":
                        guard let seq = v.sequence, seq.count == 2 else { throw doc.fail(v, "namespace.range must be [start, end]") }
                        for item in seq { range.append(try number(item, "namespace.range")) }
                    default: throw doc.fail(nNode, "namespace: unknown field '\(n)' (expected id, range)")
                    }
                }
                guard let id, !id.isEmpty, range.count == 2, range[0] >= 0, range[0] < range[1], range[1] <= 1 else {
                    throw doc.fail(value, "namespace needs an id and a range [start, end] with 0 ≤ start < end ≤ 1")
                }
                namespace = Namespace(id: id, start: range[0], end: range[1])
                out.namespaceLine = value.mark?.line
            case "variations":
                guard let seq = value.sequence else { throw doc.fail(value, "variations must be a list") }
                for item in seq {
                    var v = ExperimentVariation(id: "")
                    var personalityLine: Int?
                    var strings: [(String, String, Int?)] = []
                    for (f, fNode, fv) in try doc.mapping(item, "a variation") {
                        switch f {
                        case "id":
                            v.id = try doc.string(fv, "variation id")
                            guard ExperimentKey.isValid(v.id) else { throw doc.fail(fv, "variation id '\(v.id)' must be lowercase letters, digits, _ - .") }
                        case "personality":
                            v.personality = try doc.string(fv, "personality")
                            personalityLine = fv.mark?.line
                        case "strings":
                            for (tag, _, table) in try doc.mapping(fv, "strings") {
                                for (k, kNode, text) in try doc.mapping(table, "strings.\(tag)") {
                                    let s = try doc.string(text, "strings.\(tag).\(k)")
                                    v.strings[tag, default: [:]][k] = s
                                    strings.append((tag, k, kNode.mark?.line))
                                }
                            }
                        case "description": _ = try doc.string(fv, "description")
                        default: throw doc.fail(fNode, "a variation: unknown field '\(f)' (expected id, strings, personality, description)")
                        }
                    }
                    guard !v.id.isEmpty else { throw doc.fail(item, "each variation needs an id") }
                    guard !variations.contains(where: { $0.id == v.id }) else { throw doc.fail(item, "variation id '\(v.id)' appears twice") }
                    variations.append(v)
                    out.variationLines[v.id] = item.mark?.line
                    if let personalityLine { out.personalityLines[v.id] = personalityLine }
                    for (tag, k, line) in strings { if let line { out.stringLines["\(v.id) \(tag) \(k)"] = line } }
                }
            case "description": _ = try doc.string(value, "description")
            default:
                throw doc.fail(keyNode, "unknown field '\(field)' (expected \(fields.joined(separator: ", ")))")
            }
        }
        guard let key else { throw doc.fail(doc.root, "the experiment needs a key") }
        if let expectedKey, key != expectedKey { throw doc.fail(doc.root, "declares 'key: \(key)', expected '\(expectedKey)' (the file's name)") }
        guard let status else { throw doc.fail(doc.root, "the experiment needs a status (draft, running or stopped)") }
        guard variations.count >= 2 else { throw doc.fail(doc.root, "an experiment needs at least two variations (the first is the control)") }
        if let startDay, let endDay, endDay < startDay { throw doc.fail(doc.root, "end (\(endDay)) is before start (\(startDay))") }
        out.experiment = Experiment(key: key, seed: seed, hashVersion: hashVersion, status: status, startDay: startDay, endDay: endDay,
                                    bucketVersion: bucketVersion, variations: variations, weights: weights, coverage: coverage,
                                    targeting: targeting, namespace: namespace)
        return out
    }
}

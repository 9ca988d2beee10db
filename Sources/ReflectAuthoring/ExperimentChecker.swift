import Foundation
import ReflectCore
import ReflectEngine

/// `reflect check` for `experiments/`: each finding with file and line
/// (codes X001–X005, docs/diagnostics).
struct ExperimentChecker {
    let library: ContentLibrary

    func run() -> [Diagnostic] {
        var out: [Diagnostic] = []
        var loaded: [ExperimentFile] = []
        for file in library.experimentFiles() {
            switch file.result {
            case .success(let f): loaded.append(f)
            case .failure(let e): out.append(Diagnostic(.experimentMalformed, file: e.file ?? file.name, line: e.line, message: e.message))
            }
        }
        let locales = library.availableLocales()
        // The control text of a key, per locale tag: the locale file's own
        // string (as written, translated or not), else English.
        var documents: [String: LocaleDocument] = [:]
        for tag in locales { if let d = try? library.document(tag) { documents[tag] = d } }
        let personalities = Set(library.availablePersonalities())
        for f in loaded {
            let e = f.experiment
            for v in e.variations {
                if let p = v.personality, !personalities.contains(p) {
                    out.append(Diagnostic(.experimentUnknownKey, file: f.file, line: f.personalityLines[v.id] ?? f.variationLines[v.id],
                                          message: "variation '\(v.id)': no personality '\(p)' (available: "
                                              + "\(personalities.sorted().joined(separator: ", ")))"))
                }
                for (tag, table) in v.strings.sorted(by: { $0.key < $1.key }) {
                    for (key, text) in table.sorted(by: { $0.key < $1.key }) {
                        let line = f.stringLine(variation: v.id, tag: tag, key: key) ?? f.variationLines[v.id]
                        guard documents[tag] != nil else {
                            out.append(Diagnostic(.experimentUnknownKey, file: f.file, line: line,
                                                  message: "variation '\(v.id)': no locale '\(tag)' (locales/\(tag).yaml does not exist)"))
                            continue
                        }
                        guard let control = documents[tag]?.entries[key]?.text ?? documents["en"]?.entries[key]?.text else {
                            out.append(Diagnostic(.experimentUnknownKey, file: f.file, line: line,
                                                  message: "variation '\(v.id)': unknown locale key '\(key)' (not in locales/en.yaml)"))
                            continue
                        }
                        let want = Template(control).arguments, got = Template(text).arguments
                        if want != got {
                            let missing = want.subtracting(got).sorted().map { "%\($0)$@" }
                            let extra = got.subtracting(want).sorted().map { "%\($0)$@" }
                            var why: [String] = []
                            if !missing.isEmpty { why.append("lacks \(missing.joined(separator: ", "))") }
                            if !extra.isEmpty { why.append("adds \(extra.joined(separator: ", "))") }
                            out.append(Diagnostic(.experimentPlaceholders, file: f.file, line: line,
                                                  message: "variation '\(v.id)', '\(key)' (\(tag)): its placeholders differ from the control "
                                                      + "text (\(why.joined(separator: "; "))); the override would be dropped"))
                        }
                    }
                }
            }
            if let w = e.weights {
                let total = w.reduce(0, +)
                if w.count != e.variations.count {
                    out.append(Diagnostic(.experimentWeights, file: f.file, line: f.weightsLine,
                                          message: "\(w.count) weights for \(e.variations.count) variations; equal weights are used instead"))
                } else if !(total >= 0.99 && total <= 1.01) {
                    out.append(Diagnostic(.experimentWeights, file: f.file, line: f.weightsLine,
                                          message: "weights sum to \(total), not 1 (± 0.01); equal weights are used instead"))
                }
            }
        }
        // Overlaps between running experiments.
        let running = loaded.filter { $0.experiment.status == .running }
        for (i, a) in running.enumerated() {
            for b in running[..<i] {
                if a.experiment.key == b.experiment.key {
                    out.append(Diagnostic(.experimentOverlap, file: a.file, line: a.keyLine,
                                          message: "experiment key '\(a.experiment.key)' is also used by \(b.file)"))
                    continue
                }
                let keysA = Set(a.experiment.variations.flatMap { $0.strings.values.flatMap(\.keys) })
                let keysB = Set(b.experiment.variations.flatMap { $0.strings.values.flatMap(\.keys) })
                let shared = keysA.intersection(keysB)
                guard !shared.isEmpty else { continue }
                if let na = a.experiment.namespace, let nb = b.experiment.namespace, na.id == nb.id, !na.overlaps(nb) { continue }
                out.append(Diagnostic(.experimentOverlap, file: a.file, line: a.namespaceLine ?? a.keyLine,
                                      message: "running together with \(b.file) on \(shared.sorted().map { "'\($0)'" }.joined(separator: ", ")) "
                                          + "without disjoint namespace ranges: one person could get both"))
            }
        }
        return out
    }
}

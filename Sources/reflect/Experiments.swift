import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect experiments list | report KEY | simulate KEY` (docs/experiments.md).
struct Experiments: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A/B tests of wording: list them, report on one, or simulate one.",
        subcommands: [ExperimentsList.self, ExperimentsReport.self, ExperimentsSimulate.self])

    /// The experiment `key` from the content, or a clear error.
    static func experiment(_ key: String, in library: ContentLibrary) throws -> Experiment {
        for file in library.experimentFiles() {
            switch file.result {
            case .success(let f) where f.experiment.key == key: return f.experiment
            case .failure(let e) where file.name == "experiments/\(key).yaml": throw CLIError(fail(e))
            default: continue
            }
        }
        let known = library.runnableExperiments().map(\.experiment.key)
        Terminal.write("error: no experiment '\(key)' in experiments/ (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))\n", to: .err)
        throw ExitCode(1)
    }
}

/// An exit code carried as an error.
struct CLIError: Error {
    let code: ExitCode
    init(_ code: ExitCode) { self.code = code }
}

enum ReportFormat: String, ExpressibleByArgument { case text, json, md }

struct ExperimentsList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The experiments in experiments/, with exposures so far.")

    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Output format: text or json.") var format: ReportFormat = .text

    struct Row: Encodable {
        var key: String
        var file: String
        var status: String?
        var variations: [String]
        var weights: [Double]
        var coverage: Double
        var exposures: Int
        var error: String?
    }

    func run() throws {
        let counts = (try? storeOptions.open(.readOnly).experimentExposureCounts()) ?? [:]
        var rows: [Row] = []
        for file in try contentOptions.open().experimentFiles() {
            switch file.result {
            case .success(let f):
                let e = f.experiment
                rows.append(Row(key: e.key, file: f.file, status: e.status.rawValue, variations: e.variations.map(\.id),
                                weights: e.effectiveWeights, coverage: e.coverage, exposures: counts[e.key] ?? 0))
            case .failure(let error):
                rows.append(Row(key: String(file.name.dropFirst("experiments/".count).dropLast(5)), file: file.name, variations: [],
                                weights: [], coverage: 0, exposures: 0, error: error.description))
            }
        }
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            Terminal.write(String(decoding: try encoder.encode(rows), as: UTF8.self) + "\n", to: .out)
            return
        }
        if rows.isEmpty { Terminal.write("No experiments (add experiments/<key>.yaml; see docs/experiments.md).\n", to: .out) }
        for r in rows {
            if let error = r.error {
                Terminal.write("\(r.key)  INVALID  \(error)\n", to: .out)
                continue
            }
            let arms = zip(r.variations, r.weights).map { "\($0) \(ReportFormatter.percent($1))" }.joined(separator: ", ")
            Terminal.write("\(r.key)  \(r.status ?? "")  [\(arms)]  coverage \(ReportFormatter.percent(r.coverage))  "
                           + "\(r.exposures) exposures\n", to: .out)
        }
    }
}

struct ExperimentsReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Per variation: people, sessions, completion, intensity change against control, with 95% intervals and p-values.",
        discussion: """
            The primary metric is intensity change (pre − post) by intent to treat: every exposed session counts, \
            one that did not finish counts as 0. A sample ratio mismatch (p < 0.001) prints a warning and no verdict.
            """)

    @Argument(help: "The experiment key (experiments/KEY.yaml).") var key: String
    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Output format: text, json or md (Markdown).") var format: ReportFormat = .text

    func run() throws {
        do {
            let experiment = try Experiments.experiment(key, in: contentOptions.open())
            let store = try storeOptions.open(.readOnly)
            let aggregates: ExperimentAggregates
            do { aggregates = try store.experimentAggregates(key) } catch { throw failStore(error) }
            let report = ExperimentReport(experiment: experiment, aggregates: aggregates)
            Terminal.write(try ReportFormatter(report: report).render(format), to: .out)
        } catch let e as CLIError {
            throw e.code
        }
    }
}

struct ExperimentsSimulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Synthetic people with a known effect, written through the store, then reported.",
        discussion: """
            With --runs 1 (default) the sessions go into the database (--db: use a scratch file) and the report is \
            printed. With more runs, each run goes into a temporary database and the share of runs whose primary \
            metric is significant at 0.05 is printed: about 5% with --effect 0, most runs with a real effect.
            """)

    @Argument(help: "The experiment key (experiments/KEY.yaml): its variations, weights, coverage and seed.") var key: String
    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "People per run.") var people: Int = 800
    @Option(help: "The most exposed sessions one person has; each person has 1 to this many.") var sessionsPerPerson: Int = 1
    @Option(help: "Standard deviation of each person's own offset on intensity change (makes one person's sessions alike).")
    var personNoise: Double = 0
    @Option(help: "True effect on intensity change for every arm but the control, in intensity points.") var effect: Double = 0
    @Option(help: "Share of sessions that finish (0–1).") var completion: Double = 1
    @Option(help: "Standard deviation of the noise on intensity change.") var noise: Double = 1.5
    @Option(help: "Actual shares per arm, comma-separated (e.g. 0.55,0.45), instead of the experiment's own split.") var split: String?
    @Option(help: "Simulated experiments.") var runs: Int = 1
    @Option(help: "Seed of the simulation.") var seed: UInt64 = 1
    @Option(help: "Output format: text, json or md (Markdown).") var format: ReportFormat = .text

    struct Summary: Encodable {
        var runs: Int
        var people: Int
        var effect: Double
        var significant: Int
        var significantShare: Double
        /// Runs whose primary metric is significant counted per person (each person's mean once).
        var significantPerPerson: Int
        var significantPerPersonShare: Double
        var sampleRatioWarnings: Int
        var meanDifference: Double
    }

    func validate() throws {
        guard people >= 4, people <= 2_000_000 else { throw ValidationError("--people must be between 4 and 2,000,000") }
        guard runs >= 1, runs <= 10_000 else { throw ValidationError("--runs must be between 1 and 10,000") }
        guard completion >= 0, completion <= 1 else { throw ValidationError("--completion must be between 0 and 1") }
        guard noise >= 0, effect.isFinite, noise.isFinite else { throw ValidationError("--effect and --noise must be numbers, --noise ≥ 0") }
        guard sessionsPerPerson >= 1, sessionsPerPerson <= 1000 else { throw ValidationError("--sessions-per-person must be between 1 and 1,000") }
        guard personNoise >= 0, personNoise.isFinite else { throw ValidationError("--person-noise must be a number ≥ 0") }
        if let split, shares(split) == nil { throw ValidationError("--split must be shares such as 0.55,0.45") }
    }

    func shares(_ text: String) -> [Double]? {
        let values = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
        return values.compactMap { $0 }
    }

    func run() throws {
        do {
            let experiment = try Experiments.experiment(key, in: contentOptions.open())
            let splitShares = split.flatMap(shares)
            if let splitShares, splitShares.count != experiment.variations.count {
                throw ValidationError("--split has \(splitShares.count) shares; '\(key)' has \(experiment.variations.count) variations")
            }
            let simulation = ExperimentSimulation(experiment: experiment, settings: .init(
                people: people, effect: effect, completion: completion, noise: noise, split: splitShares, seed: seed,
                sessionsPerPerson: sessionsPerPerson, personNoise: personNoise))
            let at = FlowClock.system().iso8601
            if runs == 1 {
                let store = try storeOptions.open()
                let report: ExperimentReport
                do {
                    try store.recordSimulated(simulation.sessions(), experiment: key, at: at)
                    report = ExperimentReport(experiment: experiment, aggregates: try store.experimentAggregates(key))
                } catch { throw failStore(error) }
                Terminal.write(try ReportFormatter(report: report).render(format), to: .out)
                return
            }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-simulate-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            var significant = 0, significantPerPerson = 0, srm = 0, differences = 0.0
            do {
                let store = try Store(path: path)
                for r in 0..<runs {
                    let runKey = "\(key)~\(r)"
                    try store.recordSimulated(simulation.sessions(run: r), experiment: runKey, at: at)
                    let report = ExperimentReport(experiment: experiment, aggregates: try store.experimentAggregates(runKey))
                    if report.sampleRatioMismatch { srm += 1 }
                    if let p = report.primaryPValue, p < ExperimentReport.alpha { significant += 1 }
                    if let p = report.perPersonPValue, p < ExperimentReport.alpha { significantPerPerson += 1 }
                    differences += report.comparisons.first?.intentToTreat?.difference ?? 0
                }
            } catch { throw failStore(error) }
            let summary = Summary(runs: runs, people: people, effect: effect, significant: significant,
                                  significantShare: Double(significant) / Double(runs), significantPerPerson: significantPerPerson,
                                  significantPerPersonShare: Double(significantPerPerson) / Double(runs), sampleRatioWarnings: srm,
                                  meanDifference: differences / Double(runs))
            if format == .json {
                let encoder = JSONEncoder()
                encoder.keyEncodingStrategy = .convertToSnakeCase
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                Terminal.write(String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n", to: .out)
            } else {
                Terminal.write("""
                    \(runs) simulated experiments × \(people) people\(sessionsPerPerson > 1 ? " (1–\(sessionsPerPerson) sessions each)" : ""), true effect \(ReportFormatter.number(effect)):
                      primary metric significant at 0.05 in \(significant) runs (\(ReportFormatter.percent(summary.significantShare)))
                      counted per person (each person's mean change once): \(significantPerPerson) runs (\(ReportFormatter.percent(summary.significantPerPersonShare)))
                      mean difference to control \(ReportFormatter.signed(summary.meanDifference))
                      sample ratio mismatch warnings: \(srm)

                    """, to: .out)
            }
        } catch let e as CLIError {
            throw e.code
        }
    }
}

import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export everything (sessions, answers, mood entries) as JSON (re-importable) or CSV.",
        discussion: "JSON keeps every value and is what `reflect import` takes; CSV is for reading in a spreadsheet. Both are described in docs/export.md.")

    enum Format: String, ExpressibleByArgument { case json, csv }

    @Option(help: "json (re-importable; schema: docs/export.md) or csv (for reading).")
    var format: Format = .json

    @Option(help: "Write to FILE instead of stdout.")
    var out: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var content: ContentOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        let doc: ExportDocument
        do { doc = try store.export(at: FlowClock.system().iso8601) } catch { throw failStore(error) }
        // Rows that could not be read are left out of the export and named
        // here (and in the JSON's `problems`); everything else is exported.
        for problem in doc.problems ?? [] {
            FileHandle.standardError.write(Data("warning: \(problem)\n".utf8))
        }
        let data: Data
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(doc) + Data("\n".utf8)
        case .csv:
            // Answers stored before schema v12 kept their option ids only:
            // the CSV reads them by the flow's labels as it is now (the JSON
            // keeps what was stored).
            var recovered: [String: RecoveredOptionLabels] = [:]
            let needing = doc.sessions.filter { s in s.answers.contains { ($0.options?.isEmpty ?? true) && $0.value.choosesOptions } }
            if !needing.isEmpty {
                let library = Result { () throws(EngineError) -> ContentLibrary in try content.library }
                for s in needing {
                    // A session that cannot be read is already named in `problems`; its ids stay.
                    guard let detail = try? store.detail(s.id) else { continue }
                    recovered[s.id] = OptionLabelRecovery.labels(for: detail, library: { try library.get() })
                }
            }
            data = Data(doc.csv(recovered: recovered).utf8)
        }
        if let out {
            guard FileManager.default.createFile(atPath: out, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw ValidationError("cannot write \(out)")
            }
        } else {
            Terminal.writeData(data)
        }
    }
}

import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a JSON export. Everything is checked first and written in one transaction; what is already there is kept.")

    @Argument(help: "A file written by `reflect export --format json`.")
    var file: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
        let store = try storeOptions.open()
        do {
            let report = try store.importDocument(try ExportDocument.decodeValidated(from: data))
            print("imported \(report.sessionsAdded) sessions and \(report.moodEntriesAdded) mood entries"
                  + " (already present: \(report.sessionsAlreadyPresent) sessions, \(report.moodEntriesAlreadyPresent) mood entries)")
        } catch {
            throw failStore(error)
        }
    }
}

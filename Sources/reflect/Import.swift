import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a JSON export. Everything is checked first and written in one transaction; what is already there is kept.",
        discussion: "Only the JSON export imports; the CSV export is for reading in a spreadsheet. See docs/export.md.")

    @Argument(help: "A file written by `reflect export --format json` (not the CSV export).")
    var file: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
        let store = try storeOptions.open()
        do {
            let report = try store.importDocument(try ExportDocument.decodeValidated(from: data))
            let added = "imported \(report.sessionsAdded) sessions and \(report.moodEntriesAdded) mood entries, \(report.coachRowsAdded) coach records"
            let present = "already present: \(report.sessionsAlreadyPresent) sessions, \(report.moodEntriesAlreadyPresent) mood entries, "
                + "\(report.coachRowsAlreadyPresent) coach records"
            print("\(added) (\(present))")
            if report.chatMessagesAdded + report.chatMessagesAlreadyPresent > 0 {
                print("imported \(report.chatMessagesAdded) chat messages (already present: \(report.chatMessagesAlreadyPresent))")
            }
        } catch {
            throw failStore(error)
        }
    }
}

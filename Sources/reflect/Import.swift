import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a JSON export. Everything is checked first and written in one transaction; what is already there is kept.",
        discussion: "Only the JSON export imports; the CSV export is for reading in a spreadsheet. See docs/export.md.")

    @Argument(help: "A file written by `reflect export --format json` (not the CSV export).")
    var file: String

    @Option(help: "Language of the lines that say what was imported (en, de, es, fr, ja, ko, pt-BR; default: en).")
    var locale: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let language = try contentOptions.personLanguage(locale)
        func word(_ key: EngineString, _ args: String...) -> String { Template(language.string(key)).render(args) }
        // An unreadable file is refused before the store is opened: nothing
        // is written, and the reason is the system's (missing, a directory,
        // no permission).
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw failStore(.invalidImport(record: "file", field: "", reason: "cannot read \(file): \(Import.reason(error, path: file))"))
        }
        let store = try storeOptions.open()
        do {
            let report = try store.importDocument(try ExportDocument.decodeValidated(from: data))
            print(word(.importAdded, "\(report.sessionsAdded)", "\(report.moodEntriesAdded)", "\(report.coachRowsAdded)"))
            print(word(.importPresent, "\(report.sessionsAlreadyPresent)", "\(report.moodEntriesAlreadyPresent)", "\(report.coachRowsAlreadyPresent)"))
            if report.chatMessagesAdded + report.chatMessagesAlreadyPresent > 0 {
                print(word(.importChat, "\(report.chatMessagesAdded)", "\(report.chatMessagesAlreadyPresent)"))
            }
        } catch {
            throw failStore(error)
        }
    }

    /// Why `path` cannot be read, in the words a person knows (missing, a
    /// directory, no permission), or Foundation's when it is something else.
    private static func reason(_ error: any Error, path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        return error.localizedDescription
    }
}

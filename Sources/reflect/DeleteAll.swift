import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

struct DeleteAll: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete-all", abstract: "Delete everything stored (sessions, answers, mood entries, settings, progress, journal, chat), for every user.",
        discussion: "Without --yes it only says what it would delete and how to confirm. Export first if you want a copy (docs/export.md).")

    @Flag(help: "Confirm: this cannot be undone (export first if you want a copy).")
    var yes = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard yes else {
            // Say what would go and how to confirm, rather than a usage line.
            let path = storeOptions.db ?? Store.defaultPath()
            var what = "everything stored"
            if FileManager.default.fileExists(atPath: path), let c = try? Store(path: path, access: .readOnly).contents() {
                what = "\(c.sessions) session(s) with their \(c.answers) answer(s), \(c.moodEntries) mood entr\(c.moodEntries == 1 ? "y" : "ies") "
                    + "and \(c.otherRows) other record(s) (settings, progress, journal, prep, chat)"
            }
            let db = storeOptions.db.map { " --db \(SessionLoop.shellQuoted($0))" } ?? ""
            Terminal.write("""
                reflect delete-all deletes \(what) in \(path), for every user. This cannot be undone.
                To keep a copy first: reflect export\(db) --out reflect-export.json
                To delete everything: reflect delete-all --yes\(db)

                """, to: .err)
            throw ExitCode(1)
        }
        let store = try storeOptions.open()
        do { try store.deleteAll() } catch { throw failStore(error) }
        print("Deleted everything in \(store.path).")
    }
}

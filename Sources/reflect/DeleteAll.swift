import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

struct DeleteAll: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete-all", abstract: "Delete everything stored (sessions, answers, mood entries, settings, progress, journal, chat), for every user.",
        discussion: "Without --yes it only says what it would delete and how to confirm. Export first if you want a copy (docs/export.md).")

    @Flag(help: "Confirm: this cannot be undone (export first if you want a copy).")
    var yes = false

    @Option(help: "Language of what it says (en, de, es, fr, ja, ko, pt-BR; default: en).")
    var locale: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let language = try contentOptions.personLanguage(locale)
        func word(_ key: EngineString, _ args: String...) -> String { Template(language.string(key)).render(args) }
        guard yes else {
            // Say what would go and how to confirm, rather than a usage line.
            let path = storeOptions.db ?? Store.defaultPath()
            var lines = [word(.deleteAllWarning, path)]
            if FileManager.default.fileExists(atPath: path), let c = try? Store(path: path, access: .readOnly).contents() {
                lines.append(word(.deleteAllContents, "\(c.sessions)", "\(c.answers)", "\(c.moodEntries)", "\(c.otherRows)"))
            }
            let db = storeOptions.db.map { " --db \(SessionLoop.shellQuoted($0))" } ?? ""
            lines.append(word(.deleteAllKeepCopy, "reflect export\(db) --out reflect-export.json"))
            lines.append(word(.deleteAllConfirm, "reflect delete-all --yes\(db)"))
            Terminal.write(lines.joined(separator: "\n") + "\n", to: .err)
            throw ExitCode(1)
        }
        let store = try storeOptions.open()
        do { try store.deleteAll() } catch { throw failStore(error) }
        print(word(.deleteAllDone, store.path))
    }
}

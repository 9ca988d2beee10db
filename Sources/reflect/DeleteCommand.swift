import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect delete SESSION`: deletes one entry (a check-in, a moment, a
/// session) and everything stored under it.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete one entry (a check-in, a moment, a session) and everything stored with it.")

    @Argument(help: "A session id or the start of one (see reflect history).")
    var session: String

    @Option(help: "Language of the line that confirms it (en, de, es, fr, ja, ko, pt-BR; default: en).")
    var locale: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let language = try contentOptions.personLanguage(locale)
        let store = try storeOptions.open()
        do {
            let id = try store.resolveSession(session)
            let flow = try store.deleteSession(id, user: storeOptions.user)
            print(Template(language.string(.deleteDone)).render([flow, id]))
        } catch {
            throw failStore(error)
        }
    }
}

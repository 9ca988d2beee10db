import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

/// `reflect delete SESSION`: deletes one entry (a check-in, a moment, a
/// session) and everything stored under it.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete one entry (a check-in, a moment, a session) and everything stored with it.")

    @Argument(help: "A session id or the start of one (see reflect history).")
    var session: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        do {
            let id = try store.resolveSession(session)
            let flow = try store.deleteSession(id, user: storeOptions.user)
            print("deleted \(flow) \(id)")
        } catch {
            throw failStore(error)
        }
    }
}

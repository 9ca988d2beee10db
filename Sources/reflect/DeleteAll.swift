import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

struct DeleteAll: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete-all", abstract: "Delete every session and mood entry.")

    @Flag(help: "Confirm: this cannot be undone (export first if you want a copy).")
    var yes = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard yes else { throw ValidationError("refusing to delete everything without --yes") }
        let store = try storeOptions.open()
        do { try store.deleteAll() } catch { throw failStore(error) }
        print("Deleted everything in \(store.path).")
    }
}

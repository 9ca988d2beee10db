import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Recent sessions and mood entries.")

    @Option(help: "How many of each to show.")
    var limit: Int = 20

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        do {
            let sessions = try store.recentSessions(user: storeOptions.user, limit: limit)
            print("Sessions")
            if sessions.isEmpty { print("  (none yet)") }
            for s in sessions {
                let shift = s.pre.flatMap { p in s.post.map { "\(p) → \($0)" } } ?? ""
                let status = s.status == .completed ? "completed"
                    : "unfinished (\(try store.answerCount(s.id)) answered\(s.setAsideAt == nil ? "" : "; set aside, the flow changed"))"
                print("  \(s.startedAt.prefix(16).replacingOccurrences(of: "T", with: " "))  \(s.id.prefix(8))  "
                      + "\(s.flowID.padding(toLength: 22, withPad: " ", startingAt: 0))  \(status)  \(shift)")
            }
            let moods = try store.moodEntries(user: storeOptions.user, limit: limit)
            print("\nMood")
            if moods.isEmpty { print("  (none yet)") }
            for m in moods {
                print("  \(m.day)  \(m.mood.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))\(m.note.map { "  \($0)" } ?? "")")
            }
        } catch {
            throw failStore(error)
        }
    }
}

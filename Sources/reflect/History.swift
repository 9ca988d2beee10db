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
            // At a terminal, a line wider than it continues on the next,
            // indented under its flow (or note) rather than wrapped by the
            // terminal at column 0; piped, each entry stays one line.
            let width = LineEditor.columns
            let sessions = try store.recentSessions(user: storeOptions.user, limit: limit)
            print("Sessions")
            if sessions.isEmpty { print("  (none yet)") }
            let flowWidth = sessions.map { DisplayWidth.of($0.flowID) }.max() ?? 0
            for s in sessions {
                let shift = s.pre.flatMap { p in s.post.map { "\(p) → \($0)" } } ?? ""
                let status = s.status == .completed ? "completed"
                    : "unfinished (\(try store.answerCount(s.id)) answered\(s.setAsideAt == nil ? "" : "; set aside, the flow changed"))"
                let head = "  \(s.startedAt.prefix(16).replacingOccurrences(of: "T", with: " "))  \(s.id.prefix(8))  "
                let tail = status + (shift.isEmpty ? "" : "  " + shift)
                let whole = head + DisplayWidth.padded(s.flowID, to: flowWidth) + "  " + tail
                if let width, DisplayWidth.of(whole) > width {
                    // The status goes whole to the next line, under the flow.
                    print(head + s.flowID)
                    print(Self.line(String(repeating: " ", count: DisplayWidth.of(head)), tail, width: width))
                } else {
                    print(whole)
                }
            }
            let moods = try store.moodEntries(user: storeOptions.user, limit: limit)
            print("\nMood")
            if moods.isEmpty { print("  (none yet)") }
            for m in moods {
                print(Self.line("  \(m.day)  ", DisplayWidth.padded(m.mood.rawValue, to: 8) + (m.note.map { "  " + TerminalText.neutralized($0) } ?? ""), width: width))
            }
        } catch {
            throw failStore(error)
        }
    }

    /// `head` then `rest`; when a `width` is known and the whole is wider,
    /// `rest` wraps with its continuation lines indented to `head`'s width.
    static func line(_ head: String, _ rest: String, width: Int?) -> String {
        let whole = head + rest
        guard let width, DisplayWidth.of(whole) > width else { return whole }
        let indent = String(repeating: " ", count: DisplayWidth.of(head))
        let wrapped = DisplayWidth.wrapped(indent + rest, width: width)
        return head + wrapped.dropFirst(indent.count)
    }
}

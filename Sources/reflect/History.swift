import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Recent sessions and mood entries.")

    @Option(help: "How many of each to show.")
    var limit: Int = 20

    @Option(help: "Language of the list's own words and the moods (en, de, es, fr, ja, ko, pt-BR; default: en).")
    var locale: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let language = try contentOptions.personLanguage(locale)
        func word(_ key: EngineString, _ args: String...) -> String { Template(language.string(key)).render(args) }
        let store = try storeOptions.open(.readOnly)
        do {
            // At a terminal, a line wider than it continues on the next,
            // indented under its flow (or note) rather than wrapped by the
            // terminal at column 0; piped, each entry stays one line.
            let width = LineEditor.columns
            // Times on the person's clock, not as stored.
            let time = PersonTime(settings: try store.settings(user: storeOptions.user))
            let sessions = try store.recentSessions(user: storeOptions.user, limit: limit)
            print(word(.historySessions))
            if sessions.isEmpty { print("  " + word(.historyNone)) }
            let flowWidth = sessions.map { DisplayWidth.of($0.flowID) }.max() ?? 0
            for s in sessions {
                let shift = s.pre.flatMap { p in s.post.map { "\(p) → \($0)" } } ?? ""
                let status = s.status == .completed ? word(.historyCompleted)
                    : s.setAsideAt == nil ? word(.historyUnfinished, "\(try store.answerCount(s.id))")
                    : word(.historySetAside, "\(try store.answerCount(s.id))")
                let head = "  \(time.minute(s.startedAt))  \(s.id.prefix(8))  "
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
            print("\n" + word(.historyMoods))
            if moods.isEmpty { print("  " + word(.historyNone)) }
            let moodWidth = Mood.allCases.map { DisplayWidth.of(language.moodName($0)) }.max() ?? 8
            for m in moods {
                // The label is padded only for a note after it: no line ends in spaces.
                let rest = m.note.map { DisplayWidth.padded(language.moodName(m.mood), to: moodWidth) + "  " + TerminalText.neutralized($0) }
                    ?? language.moodName(m.mood)
                print(Self.line("  \(m.day)  ", rest, width: width))
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

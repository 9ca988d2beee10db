import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect prep …`: the person's Prep Library and its marks.
struct PrepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prep",
        abstract: "Your Prep Library: the small things you set up for tomorrow (list, add, rename, archive, restore, move, hide, mark).",
        subcommands: [List.self, Add.self, Rename.self, Archive.self, Restore.self, Move.self, Hide.self, Unhide.self, Mark.self],
        defaultSubcommand: List.self)

    /// Options every prep command shares.
    struct Common: ParsableArguments {
        @Option(help: "Injected clock, ISO-8601 with offset (default: now): decides today's day.")
        var now: String?

        @Option(help: "Language of the list: the default items' wording and its notes (en, de, es, fr, ja, ko, pt-BR).")
        var locale: String = "en"

        @Option(help: "Region whose crisis lines are shown if an item's text needs them (default: the locale's).")
        var region: String?

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var contentOptions: ContentOptions
    }

    enum Format: String, ExpressibleByArgument { case text, json }

    struct ListedItem: Encodable {
        var position: Int
        var id: String
        var text: String
        var core: Bool
        var archived: Bool
        var hiddenToday: Bool
        var custom: Bool

        enum CodingKeys: String, CodingKey {
            case position, id, text, core, archived, custom
            case hiddenToday = "hidden_today"
        }
    }

    /// Prints the library after a change (or for `list`).
    static func show(_ items: [PrepItem], common: Common, format: Format = .text, all: Bool = true) throws {
        let stamps = try Timestamps(now: common.now)
        let store = try common.storeOptions.open(.readOnly)
        let rules: DayRules
        do { rules = try store.settings(user: common.storeOptions.user).dayRules } catch { throw failStore(error) }
        let day = rules.moment(stamps.current).day
        let language = try? common.contentOptions.library.language(for: common.locale)
        let listed = items.enumerated().map { i, item in
            ListedItem(position: i + 1, id: item.id, text: PrepCommand.text(item.label, language), core: item.core, archived: item.archived,
                       hiddenToday: item.hiddenOn == day, custom: item.label.isLiteral)
        }.filter { all || !$0.archived }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(listed) + Data("\n".utf8))
        case .text:
            // The notes in the list's language (a broken locale is refused here, as everywhere that speaks).
            let words = try language ?? common.contentOptions.language(common.locale)
            for l in listed {
                var notes: [String] = []
                if l.core { notes.append(words.string(.prepCore)) }
                if l.archived { notes.append(words.string(.prepArchived)) }
                if l.hiddenToday { notes.append(words.string(.prepHiddenToday)) }
                print("\(l.position). \(l.text)  [\(l.id)\(notes.isEmpty ? "" : ", " + notes.joined(separator: ", "))]")
            }
        }
    }

    /// A default item's text in the locale, or the person's own words.
    static func text(_ label: PrepItemLabel, _ language: Language?) -> String {
        switch label {
        case .literal(let t): t
        case .key(let k): language?.localizer.string(k) ?? k
        }
    }

    static func change(_ change: PrepChange, _ common: Common) throws {
        let stamps = try Timestamps(now: common.now)
        let store = try common.storeOptions.open()
        let items: [PrepItem]
        do { items = try store.changePrepLibrary(user: common.storeOptions.user, change, at: stamps.stamp()) } catch {
            Terminal.write("error: \(error.description) [\(error.code)]\n", to: .err)
            throw ExitCode(1)
        }
        // The person's own words pass the safety gate like any answer: the
        // item is kept as written (flows never receive it: s:facts().prep
        // leaves it out), and the crisis notice is shown now.
        switch change {
        case .add(let text), .rename(_, let text):
            if let language = try? common.contentOptions.library.language(for: common.locale),
               case .crisis(let category) = language.safety.check(text) {
                let region = common.region ?? language.defaultRegion
                var lines = [language.safetyMessage(for: category) ?? language.string(.safetyMessage)]
                for r in language.resources(for: region, category: category) { lines.append("  • " + r) }
                Terminal.write(lines.joined(separator: "\n") + "\n\n")
            }
        default: break
        }
        try show(items, common: common)
    }

    static func today(_ common: Common) throws -> CalendarDay {
        let stamps = try Timestamps(now: common.now)
        let store = try common.storeOptions.open(.readOnly)
        do { return try store.settings(user: common.storeOptions.user).dayRules.moment(stamps.current).day } catch { throw failStore(error) }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The library in order (archived items too, unless --active).")
        @Flag(help: "Only today's checklist: active items.") var active = false
        @Option(help: "text or json.") var format: Format = .text
        @OptionGroup var common: Common

        func run() throws {
            let store = try common.storeOptions.open(.readOnly)
            var items: [PrepItem]
            do { items = try store.prepLibrary(user: common.storeOptions.user) } catch { throw failStore(error) }
            if active { items = PrepLibrary.checklist(items, on: try PrepCommand.today(common)) }
            try PrepCommand.show(items, common: common, format: format)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add your own item (one short line, shown as you wrote it).")
        @Argument(help: "The item's text.") var text: String
        @OptionGroup var common: Common
        func run() throws { try PrepCommand.change(.add(text: text), common) }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reword an item.")
        @Argument(help: "The item's id (see `reflect prep list`).") var id: String
        @Argument(help: "The new text.") var text: String
        @OptionGroup var common: Common
        func run() throws { try PrepCommand.change(.rename(id: id, text: text), common) }
    }

    struct Archive: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take an item off the checklist (core items: use hide).")
        @Argument(help: "The item's id.") var id: String
        @OptionGroup var common: Common
        func run() throws { try PrepCommand.change(.archive(id: id), common) }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put an archived item back on the checklist.")
        @Argument(help: "The item's id.") var id: String
        @OptionGroup var common: Common
        func run() throws { try PrepCommand.change(.restore(id: id), common) }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move an item to a position (1 = first).")
        @Argument(help: "The item's id.") var id: String
        @Argument(help: "The new position, 1-based.") var position: Int
        @OptionGroup var common: Common
        func run() throws { try PrepCommand.change(.move(id: id, position: position), common) }
    }

    struct Hide: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Hide an item from today's checklist only.")
        @Argument(help: "The item's id.") var id: String
        @OptionGroup var common: Common
        func run() throws { try PrepCommand.change(.hide(id: id, day: try PrepCommand.today(common)), common) }
    }

    struct Unhide: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a hidden item again.")
        @Argument(help: "The item's id.") var id: String
        @OptionGroup var common: Common
        func run() throws { try PrepCommand.change(.unhide(id: id), common) }
    }

    struct Mark: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark an item done, partly or skip for today (the evening check-in does this too).")
        @Argument(help: "The item's id.") var id: String
        @Argument(help: "done, partly or skip.") var mark: String
        @OptionGroup var common: Common

        func run() throws {
            guard let m = ChecklistMark(rawValue: mark.lowercased()) else {
                throw ValidationError("'\(mark)' is not a mark: done, partly or skip")
            }
            let stamps = try Timestamps(now: common.now)
            let language = try common.contentOptions.language(common.locale)
            let store = try common.storeOptions.open()
            let day = try PrepCommand.today(common)
            do {
                try store.markPrep(user: common.storeOptions.user, day: day, marks: [PrepMark(itemID: id, mark: m)], at: stamps.stamp())
            } catch {
                Terminal.write("error: \(error.description) [\(error.code)]\n", to: .err)
                throw ExitCode(1)
            }
            // The item by its text and the mark by its name, in the list's language.
            let item = (try? store.prepLibrary(user: common.storeOptions.user))?.first { $0.id == id }
            print("\(day): \(item.map { PrepCommand.text($0.label, language) } ?? id) — \(language.string(.mark(m)))")
        }
    }
}

import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect moments`: the moments a person kept, newest first, filtered by
/// theme, date and source, each with the entry it came from
/// (docs/journal.md, "Moments").
struct MomentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moments",
        abstract: "The moments you kept, newest first, with the entry each came from; filter by theme, date and source.")

    enum Format: String, ExpressibleByArgument { case text, json, md }

    @Option(help: "Only moments with this theme (work, sleep, family, exercise, stress, food, money, health, friends, self).")
    var theme: String?

    @Option(help: "Only moments taken from a 'check-in' or a 'session'.")
    var source: String?

    @Option(help: "First day, YYYY-MM-DD.")
    var from: String?

    @Option(help: "Last day, YYYY-MM-DD.")
    var to: String?

    @Option(help: "text, json or md.")
    var format: Format = .text

    @Option(help: "Language of the text (en, de, es, fr, ja, ko, pt-BR).")
    var locale: String = "en"

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        var filter = Moments.Filter(from: try JournalData.day(from, option: "--from"), to: try JournalData.day(to, option: "--to"))
        if let theme {
            guard let t = Theme(rawValue: theme) else {
                throw ValidationError("--theme must be one of \(Theme.allCases.map(\.rawValue).joined(separator: ", ")), got '\(theme.prefix(40))'")
            }
            filter.theme = t
        }
        if let source {
            guard Moments.sources.contains(source) else {
                throw ValidationError("--source must be one of \(Moments.sources.joined(separator: ", ")), got '\(source.prefix(40))'")
            }
            filter.source = source
        }
        if let from = filter.from, let to = filter.to, from > to { throw ValidationError("--from (\(from)) is after --to (\(to))") }
        let store = try storeOptions.open(.readOnly)
        let data = try JournalData(store: store, user: storeOptions.user, now: now)
        let items = Moments.list(data.entries, filter: filter)
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(items) + Data("\n".utf8))
        case .text, .md:
            let library = try contentOptions.open()
            let language: Language
            do { language = try library.language(for: locale) } catch { throw fail(error) }
            var titles: [String: String] = [:]
            for (_, result) in library.catalog.all() {
                if case .success(let def) = result, let title = language.flowTitle(def.title) { titles[def.id] = title }
            }
            let filtered = theme != nil || source != nil || from != nil || to != nil
            print(MomentsText(language: language, markdown: format == .md, titles: titles).render(items, filtered: filtered), terminator: "")
        }
    }
}

/// The moments in words, in the person's language.
struct MomentsText {
    let language: Language
    let markdown: Bool
    /// Flow id → its title in the language.
    let titles: [String: String]

    func s(_ key: String, _ args: String...) -> String {
        Template(language.localizer.string(key) ?? key).render(args)
    }

    func render(_ items: [MomentItem], filtered: Bool) -> String {
        guard !items.isEmpty else { return s(filtered ? "moments.none.filtered" : "moments.none") + "\n" }
        let title = s("moments.title", "\(items.count)")
        var out = [markdown ? "# " + title : title]
        let indent = markdown ? "  " : "    "
        for m in items {
            out.append("")
            let intensity = m.intensity.map { " · \($0)/10" } ?? ""
            out.append((markdown ? "- " : "") + "\(m.day)\(intensity) · “\(m.quote)”")
            let tags = m.themes.map { s($0.nameKey) } + m.emotions.map { s("emotion." + $0) }
            if !tags.isEmpty { out.append(indent + tags.joined(separator: ", ")) }
            if let asks = m.asks { out.append(indent + s("moments.asks", asks)) }
            if let link = m.link {
                let name = titles[link.flow] ?? link.flow
                out.append(indent + s(link.by == .quote ? "moments.from" : "moments.from.day", name, link.day.description, link.session))
            } else {
                out.append(indent + s("moments.from.none"))
            }
        }
        return out.joined(separator: "\n") + "\n"
    }
}

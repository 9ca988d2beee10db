import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect digest`: one week in brief, template-based (docs/journal.md,
/// "The weekly digest").
struct DigestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digest",
        abstract: "Your week in brief: a headline, a highlight and an intention for next week, from your own entries.")

    enum Format: String, ExpressibleByArgument { case text, json, md }

    @Option(help: "Any day of the week, YYYY-MM-DD (default: the current week of your logical day).")
    var week: String?

    @Option(help: "text, json or md.")
    var format: Format = .text

    @Option(help: "Language of the digest (en, de, es, fr, ja, ko, pt-BR).")
    var locale: String = "en"

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        let data = try JournalData(store: store, user: storeOptions.user, now: now)
        let day = try JournalData.day(week, option: "--week") ?? data.today
        let monday = Insights.weekStart(day)
        let digest = WeeklyDigest.compose(week: day, entries: data.entries, moods: data.moods,
                                          streak: data.showedUp.isEmpty ? nil : data.streak(through: WeeklyDigest.streakDay(week: day, today: data.today)),
                                          daysShowedUp: data.showedUp.count(from: monday, to: monday.adding(days: 6)))
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(digest) + Data("\n".utf8))
        case .text, .md:
            let language = try contentOptions.language(locale)
            print(DigestText(language: language, markdown: format == .md).render(digest), terminator: "")
        }
    }
}

/// The digest in words, in the person's language. Theme and mood are
/// worded as an association in the person's own entries, never a cause.
struct DigestText {
    let language: Language
    let markdown: Bool

    func s(_ key: String, _ args: String...) -> String {
        Template(language.localizer.string(key) ?? key).render(args)
    }

    func render(_ d: WeeklyDigest) -> String {
        let n = InsightsText.number
        let title = s("digest.title", d.start.description, d.end.description)
        var out = [markdown ? "# " + title : title, ""]
        if d.isEmpty {
            out += [s("digest.empty"), "", s("digest.intention.begin")]
            return out.joined(separator: "\n") + "\n"
        }
        switch d.headline.kind {
        case .moodChange:
            let mood = n(d.headline.mood ?? 0), change = d.headline.change ?? 0
            if abs(change) < WeeklyDigest.sameWithin {
                out.append(s("digest.headline.same", mood))
            } else {
                out.append(s(change > 0 ? "digest.headline.up" : "digest.headline.down", mood, n(abs(change))))
            }
        case .mood:
            out.append(s("digest.headline.mood", n(d.headline.mood ?? 0), "\(d.headline.checkIns ?? 0)"))
        case .entries, .empty:
            out.append(s("digest.headline.entries", "\(d.headline.entries ?? 0)", "\(d.headline.days ?? 0)"))
        }
        out.append("")
        if let h = d.highlight {
            let weekday = s("weekday.\(h.weekday)")
            switch h.kind {
            case .bestDay:
                let mood = n(h.mood ?? 0)
                out.append(h.words.map { s("digest.highlight.best", weekday, mood, $0) } ?? s("digest.highlight.best.plain", weekday, mood))
            case .moment:
                out.append(s("digest.highlight.moment", h.words ?? "", weekday))
            }
        } else {
            out.append(s("digest.highlight.none", "\(WeeklyDigest.minimumMoodDays)"))
        }
        switch d.intention.kind {
        case .commitment: out.append(s("digest.intention.commitment", d.intention.text ?? ""))
        case .theme: out.append(s("digest.intention.theme", s(d.intention.theme?.nameKey ?? "")))
        case .gentle: out.append(s("digest.intention.gentle"))
        case .begin: out.append(s("digest.intention.begin"))
        }
        out.append("")
        let bullet = markdown ? "- " : "  "
        if let streak = d.streak {
            // A streak that ended is not named as "0 days": the longest is.
            out.append(bullet + (streak.current > 0 ? s("digest.streak", "\(d.daysShowedUp)", "\(streak.current)", "\(streak.longest)")
                                                    : s("digest.streak.longest", "\(d.daysShowedUp)", "\(streak.longest)")))
        }
        let metrics = InsightsText(language: language, markdown: markdown)
        if let week = d.checkIns {
            out.append(bullet + s("digest.checkins", "\(week.checkIns)") + " " + metrics.metrics(week))
            if let before = d.previousCheckIns {
                out.append(bullet + s("digest.checkins.before", "\(before.checkIns)") + " " + metrics.metrics(before))
            }
        } else {
            out.append(bullet + s("insights.checkins.few", "\(d.checkInDays)", "\(Insights.Minimum.checkInsPerWindow)"))
        }
        if let a = d.association {
            out.append(bullet + s("digest.association", d.end.description))
            out.append((markdown ? "  - " : "    ") + s("insights.themes.line", s(a.theme.nameKey), n(a.moodWith), n(a.moodWithout),
                                                            "\(a.daysWith)", "\(a.daysWithout)"))
        }
        return out.joined(separator: "\n") + "\n"
    }
}

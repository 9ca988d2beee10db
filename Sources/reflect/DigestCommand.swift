import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect digest`: one week in brief, template-based, narrated by the
/// text generator when one is configured (docs/journal.md, "The weekly
/// digest" and "Narration").
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
    @OptionGroup var generation: GeneratorOptions

    /// The digest and, when it was narrated, how (`--format json`).
    struct JSONForm: Encodable {
        let digest: WeeklyDigest
        let narration: DigestNarration.Outcome?
        enum Keys: String, CodingKey { case narration }
        func encode(to encoder: any Encoder) throws {
            try digest.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeIfPresent(narration, forKey: .narration)
        }
    }

    func run() throws {
        let reading = try storeOptions.open(.readOnly)
        let data = try JournalData(store: reading, user: storeOptions.user, now: now)
        let day = try JournalData.day(week, option: "--week") ?? data.today
        let monday = Insights.weekStart(day)
        let digest = WeeklyDigest.compose(week: day, entries: data.entries, moods: data.moods,
                                          streak: data.showedUp.isEmpty ? nil : data.streak(through: WeeklyDigest.streakDay(week: day, today: data.today)),
                                          daysShowedUp: data.showedUp.count(from: monday, to: monday.adding(days: 6)))
        var narration: DigestNarration.Outcome?
        if !digest.isEmpty {
            let settings: Settings
            do { settings = try reading.settings(user: storeOptions.user) } catch { throw failStore(error) }
            if narrates(settings) {
                let library = try contentOptions.open()
                let voice: Language
                do {
                    voice = try library.language(for: locale, personality: settings.personality == "default" ? nil : settings.personality)
                } catch { throw fail(error) }
                if let generator = try generation.make(language: voice, library: library, settings: settings), generator.name != "template" {
                    // The store is written only to keep a narration.
                    narration = try narrate(digest, voice: voice, words: try contentOptions.language(locale), generator: generator,
                                            library: library, store: try storeOptions.open(), week: monday.description)
                }
            }
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(JSONForm(digest: digest, narration: narration)) + Data("\n".utf8))
        case .text, .md:
            let language = try contentOptions.language(locale)
            print(DigestText(language: language, markdown: format == .md).render(digest, narration: narration), terminator: "")
        }
    }

    /// Whether a text generator other than the offline template may tell the
    /// week: a server configured (environment or settings) or named with
    /// `--generator openai`. The template's digest is already the template's
    /// telling, and `--generator none` asks for none.
    func narrates(_ settings: Settings) -> Bool {
        switch generation.generator {
        case .none?, .template?: return false
        case .openai?: return true
        case nil: return OpenAIConfiguration.fromEnvironment() != nil || settings.llmURL != nil
        }
    }

    /// The stored narration of this week's data, else the provider's (kept
    /// when it passed; a stored one made from other data is dropped).
    /// `words` is the language the digest is written in, `voice` the same
    /// with the person's personality, whose voice the narration takes.
    func narrate(_ digest: WeeklyDigest, voice: Language, words: Language, generator: any TextGenerator, library: ContentLibrary,
                 store: Store, week: String) throws -> DigestNarration.Outcome {
        let plain = DigestText(language: words, markdown: false).parts(digest)
        let server = (generator as? OpenAIGenerator).map { " \($0.configuration.baseURL.absoluteString) \($0.configuration.model)" } ?? ""
        let narrator = DigestNarration(language: voice, generator: generator, prompts: try library.prompts(), story: plain.story,
                                       figures: plain.figures.map { $0.trimmingCharacters(in: .whitespaces) }, provider: generator.name + server)
        let basis = narrator.basis
        do {
            let outcome = narrator.narrate(stored: try store.digestNarration(user: storeOptions.user, week: week, basis: basis))
            if outcome.generated, !outcome.cached, let text = outcome.text {
                try store.saveDigestNarration(user: storeOptions.user, week: week, basis: basis, text: text, at: FlowClock.system().iso8601)
            } else if outcome.cached, !outcome.generated {
                try store.forgetDigestNarration(user: storeOptions.user, week: week)
            } else if !outcome.generated {
                try store.forgetStaleDigestNarration(user: storeOptions.user, week: week, basis: basis)
            }
            return outcome
        } catch { throw failStore(error) }
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

    /// The digest as the template words it: its title, its story
    /// (headline, highlight, intention) and its figures. An empty week has
    /// a gentle line and an invitation for its story, and no figures.
    func parts(_ d: WeeklyDigest) -> (title: String, story: [String], figures: [String]) {
        let n = language.localizer.numbers.format
        let title = s("digest.title", d.start.description, d.end.description)
        if d.isEmpty { return (title, [s("digest.empty"), s("digest.intention.begin")], []) }
        var out: [String] = []
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
        let story = out
        out = []
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
        return (title, story, out)
    }

    /// The whole digest: the story as the template words it, or as
    /// `narration` tells it (with the crisis lines that go with a
    /// de-escalation), then the figures.
    func render(_ d: WeeklyDigest, narration: DigestNarration.Outcome? = nil) -> String {
        let (title, story, figures) = parts(d)
        var out = [markdown ? "# " + title : title, ""]
        if let text = narration?.text {
            out.append(text)
            for line in narration?.resources ?? [] { out.append((markdown ? "- " : "  ") + line) }
        } else if d.isEmpty {
            out += [story[0], "", story[1]]
        } else {
            out += [story[0], ""] + story.dropFirst()
        }
        if !figures.isEmpty { out += [""] + figures }
        return out.joined(separator: "\n") + "\n"
    }
}

import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect profile [show|set]`: the personalization profile (tone,
/// response length, preferred actions, topics to avoid), and
/// `reflect rate up|down`: 👍 / 👎 on a coach's reply, which updates it
/// (docs/journal.md, "Personalization profile").
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show or change your personalization profile (tone, response length, preferred actions, topics to avoid).",
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self)

    enum Format: String, ExpressibleByArgument { case text, json }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the profile: your choices, with your 👍 / 👎 since applied.")

        @Option(help: "text or json.")
        var format: Format = .text

        @Option(help: "Language of the text form (en, de, es, fr, ja, ko, pt-BR; default: en). JSON keeps its ids.")
        var locale: String?

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var contentOptions: ContentOptions

        func run() throws {
            let language = format == .text ? try contentOptions.personLanguage(locale) : nil
            let store = try storeOptions.open(.readOnly)
            let profile: PersonalizationProfile
            do { profile = try store.personalizationProfile(user: storeOptions.user) } catch { throw failStore(error) }
            switch format {
            case .text:
                guard let language else { return }
                func word(_ key: EngineString, _ arg: String) -> String { Template(language.string(key)).render([arg]) }
                func themes(_ list: [Theme]) -> String {
                    list.isEmpty ? language.string(.profileNone) : list.map { language.themeName($0) }.joined(separator: ", ")
                }
                print(word(.profileTone, language.string(.tone(profile.tone))))
                print(word(.profileLength, language.string(.length(profile.responseLength))))
                print(word(.profileActions, themes(profile.preferredActions)))
                print(word(.profileAvoid, themes(profile.avoidTopics)))
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.keyEncodingStrategy = .convertToSnakeCase
                Terminal.writeJSON(try encoder.encode(profile) + Data("\n".utf8))
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change your choices: KEY VALUE [KEY VALUE ...] with tone (warm, direct, cheerful, neutral), "
                + "length (short, medium, long), actions and avoid (themes, comma-separated; \"none\" clears).")

        @Argument(help: "KEY VALUE pairs, e.g. tone direct length short avoid money,family.")
        var pairs: [String]

        @Option(help: "The time to record (ISO-8601 with offset; default now).")
        var now: String?

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            guard !pairs.isEmpty, pairs.count % 2 == 0 else { throw ValidationError("give KEY VALUE pairs (tone, length, actions, avoid)") }
            let stamps = try Timestamps(now: now)
            let store = try storeOptions.open()
            do {
                var choices = try store.personalizationChoices(user: storeOptions.user)?.choices ?? PersonalizationChoices()
                for i in stride(from: 0, to: pairs.count, by: 2) {
                    let key = pairs[i], value = pairs[i + 1]
                    switch key {
                    case "tone":
                        guard let t = PersonalizationProfile.Tone(rawValue: value) else {
                            throw ValidationError("tone must be warm, direct, cheerful or neutral, not '\(value)'")
                        }
                        choices.tone = t
                    case "length":
                        guard let l = PersonalizationProfile.ResponseLength(rawValue: value) else {
                            throw ValidationError("length must be short, medium or long, not '\(value)'")
                        }
                        choices.responseLength = l
                    case "actions": choices.preferredActions = try ProfileCommand.themes(value, key: key)
                    case "avoid": choices.avoidTopics = try ProfileCommand.themes(value, key: key)
                    default: throw ValidationError("unknown key '\(key)' (tone, length, actions, avoid)")
                    }
                }
                try store.savePersonalizationChoices(choices, user: storeOptions.user, at: stamps.current.iso8601)
            } catch let e as StoreError { throw failStore(e) }
        }
    }

    static func themes(_ value: String, key: String) throws -> [Theme] {
        if value == "none" { return [] }
        return try value.split(separator: ",").map { raw in
            guard let t = Theme(rawValue: raw.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("\(key): '\(raw)' is not a theme (\(Theme.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return t
        }
    }
}

/// `reflect rate up|down (--session ID | --chat)`.
struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "👍 or 👎 on a coach's reply: a session's feedback (--session) or the latest chat reply (--chat). Updates your profile.")

    enum Rating: String, ExpressibleByArgument { case up, down, 👍, 👎 }

    @Argument(help: "up or down (👍 or 👎).")
    var rating: Rating

    @Option(help: "A session id or the start of one: rates its feedback.")
    var session: String?

    @Flag(help: "Rates the latest reply of reflect chat.")
    var chat = false

    @Option(help: "The chat's locale, for the reply's themes, and the language of the line that confirms (default en).")
    var locale = "en"

    @Option(help: "The time to record (ISO-8601 with offset; default now).")
    var now: String?

    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard (session != nil) != chat else { throw ValidationError("rate either --session ID or --chat") }
        let stamps = try Timestamps(now: now)
        let library = try contentOptions.open()
        let words = try contentOptions.language(locale)
        let store = try storeOptions.open()
        let value: ReplyRating.Rating = rating == .up || rating == .👍 ? .up : .down
        do {
            let reply: RatedReply, text: String, tag: String, actions: [Theme]
            if let session {
                let id = try store.resolveSession(session)
                guard let rated = try store.ratedSession(id, user: storeOptions.user) else {
                    throw ValidationError("session \(id) has no feedback to rate")
                }
                (reply, text, tag, actions) = (.session(id), rated.text, rated.locale, rated.actionThemes)
            } else {
                guard let rated = try store.latestChatReply(user: storeOptions.user) else { throw ValidationError("there is no chat reply to rate") }
                (reply, text, tag, actions) = (.chat(chatID: rated.chatID, position: rated.position), rated.text, locale, [])
            }
            let language = try library.language(for: tag, personality: nil)
            let rated = ReplyRating(rating: value, length: ReplyRating.length(of: text), themes: language.themes.themes(in: text),
                                    actionThemes: actions)
            try store.rate(reply, user: storeOptions.user, rating: rated, at: stamps.current.iso8601)
            let profile = try store.personalizationProfile(user: storeOptions.user)
            print(Template(words.string(value == .up ? .rateUp : .rateDown))
                .render([words.string(.tone(profile.tone)), words.string(.length(profile.responseLength))]))
        } catch let e as StoreError { throw failStore(e) }
    }
}

extension EngineString {
    /// A tone's name in the person's language.
    static func tone(_ tone: PersonalizationProfile.Tone) -> EngineString {
        switch tone {
        case .warm: .toneWarm
        case .direct: .toneDirect
        case .cheerful: .toneCheerful
        case .neutral: .toneNeutral
        }
    }

    /// A response length's name in the person's language.
    static func length(_ length: PersonalizationProfile.ResponseLength) -> EngineString {
        switch length {
        case .short: .lengthShort
        case .medium: .lengthMedium
        case .long: .lengthLong
        }
    }
}

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

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let profile: PersonalizationProfile
            do { profile = try store.personalizationProfile(user: storeOptions.user) } catch { throw failStore(error) }
            switch format {
            case .text:
                print("tone              \(profile.tone.rawValue)")
                print("length            \(profile.responseLength.rawValue)")
                print("preferred_actions \(profile.preferredActions.map(\.rawValue).joined(separator: ","))")
                print("avoid_topics      \(profile.avoidTopics.map(\.rawValue).joined(separator: ","))")
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

    @Option(help: "The chat's locale, for the reply's themes (default en).")
    var locale = "en"

    @Option(help: "The time to record (ISO-8601 with offset; default now).")
    var now: String?

    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard (session != nil) != chat else { throw ValidationError("rate either --session ID or --chat") }
        let stamps = try Timestamps(now: now)
        let library = try contentOptions.open()
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
            print("rated \(value.rawValue); profile: tone \(profile.tone.rawValue), length \(profile.responseLength.rawValue)")
        } catch let e as StoreError { throw failStore(e) }
    }
}

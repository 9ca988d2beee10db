import Foundation
import GRDB
import ReflectCore

// The personalization profile (docs/journal.md, "Personalization profile"):
// the person's own choices (table `personalization_profile`) and their
// 👍 / 👎 on coach replies (table `reply_rating`); the profile is computed
// from both (`PersonalizationProfile.applying`), never stored twice.

/// What a 👍 / 👎 is about.
public enum RatedReply: Sendable, Equatable {
    /// A session's feedback (its `feedback.*` generated texts).
    case session(String)
    /// One coach reply of `reflect chat` (chat id and position).
    case chat(chatID: String, position: Int)

    var target: String {
        switch self {
        case .session: "session"
        case .chat: "chat"
        }
    }

    var targetID: String {
        switch self {
        case .session(let id): id
        case .chat(let chat, let position): "\(chat):\(position)"
        }
    }
}

/// The person's choices, as stored, with when they were last changed.
public struct StoredPersonalization: Sendable, Equatable {
    public var choices: PersonalizationChoices
    public var updatedAt: String
}

extension Store {
    /// Stores a 👍 / 👎 on `reply`, replacing an earlier rating of the same
    /// reply: `text` is the reply as shown (only its length class and
    /// themes are kept), `actionThemes` the themes of the session's small
    /// step, if any.
    public func rate(_ reply: RatedReply, user: String, rating: ReplyRating, at: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO reply_rating (user, target, target_id, rating, length, themes, action, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user, target, target_id) DO UPDATE SET
                    rating = excluded.rating, length = excluded.length, themes = excluded.themes, action = excluded.action, at = excluded.at
                """, arguments: [user, reply.target, reply.targetID, rating.rating.rawValue, rating.length.rawValue,
                                 Store.themeList(rating.themes), Store.themeList(rating.actionThemes), at])
        }
    }

    /// The person's ratings, oldest first (by time, then as stored).
    public func replyRatings(user: String) throws(StoreError) -> [(at: String, rating: ReplyRating)] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT rating, length, themes, action, at FROM reply_rating WHERE user = ?", arguments: [user])
            let ratings = rows.compactMap { row -> (Date, String, ReplyRating)? in
                guard let r = (row["rating"] as String?).flatMap(ReplyRating.Rating.init(rawValue:)),
                      let length = (row["length"] as String?).flatMap(PersonalizationProfile.ResponseLength.init(rawValue:)),
                      let at: String = row["at"], let date = FlowClock(iso8601: at)?.date else { return nil }
                return (date, at, ReplyRating(rating: r, length: length, themes: Store.themes(row["themes"]),
                                              actionThemes: Store.themes(row["action"])))
            }
            // Stable by time: enumerate to keep insertion order for equal instants.
            return ratings.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map { ($0.element.1, $0.element.2) }
        }
    }

    /// The person's own choices, nil when they made none.
    public func personalizationChoices(user: String) throws(StoreError) -> StoredPersonalization? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM personalization_profile WHERE user = ?", arguments: [user]) else { return nil }
            return StoredPersonalization(
                choices: PersonalizationChoices(tone: (row["tone"] as String?).flatMap(PersonalizationProfile.Tone.init(rawValue:)),
                                                responseLength: (row["response_length"] as String?)
                                                    .flatMap(PersonalizationProfile.ResponseLength.init(rawValue:)),
                                                preferredActions: Store.themes(row["preferred_actions"]),
                                                avoidTopics: Store.themes(row["avoid_topics"])),
                updatedAt: row["updated_at"] ?? "")
        }
    }

    /// Stores the person's own choices (replacing the earlier ones).
    public func savePersonalizationChoices(_ choices: PersonalizationChoices, user: String, at: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO personalization_profile (user, tone, response_length, preferred_actions, avoid_topics, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (user) DO UPDATE SET tone = excluded.tone, response_length = excluded.response_length,
                    preferred_actions = excluded.preferred_actions, avoid_topics = excluded.avoid_topics, updated_at = excluded.updated_at
                """, arguments: [user, choices.tone?.rawValue, choices.responseLength?.rawValue, Store.themeList(choices.preferredActions),
                                 Store.themeList(choices.avoidTopics), at])
        }
    }

    /// The person's profile: their choices, with the ratings made since
    /// they last changed them applied in order (a rating older than a
    /// choice does not undo it).
    public func personalizationProfile(user: String) throws(StoreError) -> PersonalizationProfile {
        let stored = try personalizationChoices(user: user)
        let since = stored.flatMap { FlowClock(iso8601: $0.updatedAt)?.date }
        let ratings = try replyRatings(user: user).filter { entry in
            guard let since else { return true }
            return (FlowClock(iso8601: entry.at)?.date).map { $0 >= since } ?? true
        }
        return (stored?.choices ?? PersonalizationChoices()).profile.applying(ratings.map(\.rating))
    }

    /// Themes as stored: a JSON list of theme ids; unknown ids are skipped.
    static func themes(_ json: String?) -> [Theme] {
        guard let json, let ids = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { return [] }
        return ids.compactMap(Theme.init(rawValue:))
    }

    static func themeList(_ themes: [Theme]) -> String {
        "[" + themes.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
    }
}

/// What a session's 👍 / 👎 rates: its feedback as shown, the locale it
/// ran in, and the themes of its small step (`action` answer).
public struct RatedSession: Sendable, Equatable {
    public var text: String
    public var locale: String
    public var actionThemes: [Theme]
}

/// What a chat reply's 👍 / 👎 rates.
public struct RatedChatReply: Sendable, Equatable {
    public var chatID: String
    public var position: Int
    public var text: String
}

extension Store {
    /// The feedback of `user`'s session `id` (nil when it has none).
    public func ratedSession(_ id: String, user: String) throws(StoreError) -> RatedSession? {
        try read { db in
            guard let locale = try String.fetchOne(db, sql: "SELECT locale FROM session WHERE id = ? AND user = ?", arguments: [id, user]) else {
                throw StoreError.sessionNotFound(id)
            }
            let texts = try String.fetchAll(db, sql: """
                SELECT text FROM generated_text WHERE session_id = ? AND request LIKE 'feedback.%' ORDER BY at, request
                """, arguments: [id])
            guard !texts.isEmpty else { return nil }
            let themes = try String.fetchAll(db, sql: "SELECT theme FROM answer_theme WHERE session_id = ? AND step = 'action' ORDER BY theme",
                                             arguments: [id]).compactMap(Theme.init(rawValue:))
            return RatedSession(text: texts.joined(separator: "\n"), locale: locale, actionThemes: Theme.allCases.filter(themes.contains))
        }
    }

    /// The person's latest coach reply in `reflect chat`, nil when none.
    public func latestChatReply(user: String) throws(StoreError) -> RatedChatReply? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT chat_id, position, text FROM chat_message WHERE user = ? AND role = 'coach'
                ORDER BY at DESC, chat_id DESC, position DESC LIMIT 1
                """, arguments: [user]) else { return nil }
            return RatedChatReply(chatID: row["chat_id"], position: row["position"], text: row["text"])
        }
    }
}

extension Store {
    /// Every person's choices and ratings, as stored, for the export.
    static func exportedPersonalization(in db: Database) throws -> ExportedPersonalization {
        func ids(_ json: String?) -> [String] { Store.themes(json).map(\.rawValue) }
        let choices = try Row.fetchAll(db, sql: "SELECT * FROM personalization_profile ORDER BY user").map { row in
            ExportedProfileChoices(user: row["user"], tone: row["tone"], responseLength: row["response_length"],
                                   preferredActions: ids(row["preferred_actions"]), avoidTopics: ids(row["avoid_topics"]),
                                   updatedAt: row["updated_at"])
        }
        let ratings = try Row.fetchAll(db, sql: "SELECT * FROM reply_rating ORDER BY user, at, id").map { row in
            ExportedReplyRating(user: row["user"], target: row["target"], targetID: row["target_id"], rating: row["rating"],
                                length: row["length"], themes: ids(row["themes"]), actionThemes: ids(row["action"]), at: row["at"])
        }
        return ExportedPersonalization(choices: choices, ratings: ratings)
    }
}

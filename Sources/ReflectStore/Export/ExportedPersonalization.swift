import Foundation
import ReflectCore

/// The personalization profile's data in the export (docs/storage.md):
/// each person's own choices and their 👍 / 👎, as stored. Absent in
/// exports from before it, and when there is nothing.
public struct ExportedPersonalization: Codable, Sendable, Equatable {
    public var choices: [ExportedProfileChoices]
    public var ratings: [ExportedReplyRating]

    public init(choices: [ExportedProfileChoices] = [], ratings: [ExportedReplyRating] = []) {
        self.choices = choices
        self.ratings = ratings
    }

    public var isEmpty: Bool { choices.isEmpty && ratings.isEmpty }

    /// Checks every value before anything is written (import is atomic).
    func validate() throws(StoreError) {
        func themes(_ list: [String], _ record: String, _ field: String) throws(StoreError) {
            guard list.count <= Theme.allCases.count * 4 else { throw .invalidImport(record: record, field: field, reason: "too many themes") }
            for t in list where Theme(rawValue: t) == nil {
                throw .invalidImport(record: record, field: field, reason: "unknown theme '\(t.prefix(40))'")
            }
        }
        func user(_ u: String, _ record: String) throws(StoreError) {
            guard !u.isEmpty, u.utf8.count <= 256, !u.utf8.contains(0) else { throw .invalidImport(record: record, field: "user", reason: "not a user name") }
        }
        func time(_ t: String, _ record: String, _ field: String) throws(StoreError) {
            guard FlowClock(iso8601: t) != nil else {
                throw .invalidImport(record: record, field: field, reason: "'\(t.prefix(40))' is not an ISO-8601 time with offset")
            }
        }
        var people = Set<String>()
        for (i, c) in choices.enumerated() {
            let r = "personalization.choices[\(i)]"
            try user(c.user, r)
            guard people.insert(c.user).inserted else { throw .invalidImport(record: r, field: "user", reason: "'\(c.user)' appears twice") }
            if let t = c.tone, PersonalizationProfile.Tone(rawValue: t) == nil {
                throw .invalidImport(record: r, field: "tone", reason: "unknown tone '\(t.prefix(40))' (warm, direct, cheerful, neutral)")
            }
            if let l = c.responseLength, PersonalizationProfile.ResponseLength(rawValue: l) == nil {
                throw .invalidImport(record: r, field: "response_length", reason: "unknown length '\(l.prefix(40))' (short, medium, long)")
            }
            try themes(c.preferredActions, r, "preferred_actions")
            try themes(c.avoidTopics, r, "avoid_topics")
            try time(c.updatedAt, r, "updated_at")
        }
        var rated = Set<String>()
        for (i, x) in ratings.enumerated() {
            let r = "personalization.ratings[\(i)]"
            try user(x.user, r)
            guard ["chat", "session"].contains(x.target) else { throw .invalidImport(record: r, field: "target", reason: "must be chat or session") }
            guard !x.targetID.isEmpty, x.targetID.utf8.count <= 256, !x.targetID.utf8.contains(0) else {
                throw .invalidImport(record: r, field: "target_id", reason: "not an id")
            }
            guard rated.insert("\(x.user)/\(x.target)/\(x.targetID)").inserted else {
                throw .invalidImport(record: r, field: "target_id", reason: "rated twice")
            }
            guard ReplyRating.Rating(rawValue: x.rating) != nil else { throw .invalidImport(record: r, field: "rating", reason: "must be up or down") }
            guard PersonalizationProfile.ResponseLength(rawValue: x.length) != nil else {
                throw .invalidImport(record: r, field: "length", reason: "must be short, medium or long")
            }
            try themes(x.themes, r, "themes")
            try themes(x.actionThemes, r, "action_themes")
            try time(x.at, r, "at")
        }
    }
}

/// A person's own profile choices (table `personalization_profile`).
public struct ExportedProfileChoices: Codable, Sendable, Equatable {
    public var user: String
    public var tone: String?
    public var responseLength: String?
    public var preferredActions: [String]
    public var avoidTopics: [String]
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case user, tone
        case responseLength = "response_length", preferredActions = "preferred_actions", avoidTopics = "avoid_topics", updatedAt = "updated_at"
    }
}

/// One 👍 / 👎 (table `reply_rating`): what was rated and what the profile
/// learns from it; never the reply's text.
public struct ExportedReplyRating: Codable, Sendable, Equatable {
    public var user: String
    public var target: String
    public var targetID: String
    public var rating: String
    public var length: String
    public var themes: [String]
    public var actionThemes: [String]
    public var at: String

    enum CodingKeys: String, CodingKey {
        case user, target, rating, length, themes, at
        case targetID = "target_id", actionThemes = "action_themes"
    }
}

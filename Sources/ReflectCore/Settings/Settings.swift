import Foundation

/// A person's settings, typed (docs/coach.md, "Settings"). The store keeps
/// them per person; the core only defines them and their validation.
///
/// Contract: every value of a `Settings` is legal; ``setting(_:to:)`` is
/// the one way to change one from text and refuses an illegal value with a
/// ``SettingsError`` naming the key, the value and what is legal, leaving
/// the settings as they were.
public struct Settings: Sendable, Equatable {
    /// The zone days are counted in; `.clockOffset` (`auto`) until chosen.
    public var timeZone: PersonTimeZone = .clockOffset
    /// When one logical day ends and the next begins (00:00–12:00).
    public var dayBoundary: ClockTime = DayRules.defaultBoundary
    /// The `morning_review` reminder, local time.
    public var morningReminder = ClockTime(valid: 8, 0)
    /// The `evening_prep` reminder, local time.
    public var eveningReminder = ClockTime(valid: 21, 0)
    /// The optional `midday_help` reminder; nil when off.
    public var middayReminder: ClockTime?
    /// The optional weekly `parts_letter` reminder; nil when off.
    public var partsLetterReminder: WeeklyTime?
    public var voice: NotificationVoice = .nice
    /// Off: no celebration events at all (achievements are still recorded).
    public var celebrations = true
    /// The personality pack (`personalities/<id>.yaml`).
    public var personality = "default"
    /// Chat messages older than this many days are deleted when a chat
    /// starts; nil keeps them (docs/generation.md).
    public var chatHistoryDays: Int?
    /// An OpenAI-compatible server for generated text; nil: none (the
    /// environment's `REFLECT_LLM_URL` wins over it).
    public var llmURL: String?
    public var llmModel = "default"

    /// The latest boundary allowed: a day cannot start in the afternoon.
    public static let latestBoundary = ClockTime(valid: 12, 0)

    public init() {}

    /// The rules for counting this person's days.
    public var dayRules: DayRules { DayRules(timeZone: timeZone, boundary: dayBoundary) }

    /// A setting's value as text (`04:00`, `Europe/Berlin`, `off`), the
    /// form ``setting(_:to:)`` reads back.
    public func text(of key: SettingKey) -> String {
        switch key {
        case .timeZone: timeZone.description
        case .dayBoundary: dayBoundary.description
        case .morningReminder: morningReminder.description
        case .eveningReminder: eveningReminder.description
        case .middayReminder: middayReminder?.description ?? "off"
        case .partsLetterReminder: partsLetterReminder?.description ?? "off"
        case .voice: voice.rawValue
        case .celebrations: celebrations ? "on" : "off"
        case .personality: personality
        case .chatHistoryDays: chatHistoryDays.map(String.init) ?? "off"
        case .llmURL: llmURL ?? "off"
        case .llmModel: llmModel
        }
    }

    /// Every setting as (key, text), in the order of ``SettingKey``.
    public var entries: [(key: SettingKey, value: String)] {
        SettingKey.allCases.map { ($0, text(of: $0)) }
    }

    /// Sets `key` from text; throws (changing nothing) when the value is
    /// not legal for the key.
    public mutating func setting(_ key: SettingKey, to raw: String) throws(SettingsError) {
        let value = raw.trimmingCharacters(in: .whitespaces)
        func bad(_ reason: String) -> SettingsError { .invalidValue(key: key, value: raw, reason: reason) }
        func time() throws(SettingsError) -> ClockTime {
            guard let t = ClockTime(parsing: value) else { throw bad("is not a time of day") }
            return t
        }
        switch key {
        case .timeZone:
            if value.lowercased() == "auto" { timeZone = .clockOffset; return }
            guard let zone = PersonTimeZone.named(value) else { throw bad("is not a known time zone") }
            timeZone = zone
        case .dayBoundary:
            let t = try time()
            guard t <= Settings.latestBoundary else { throw bad("is later than \(Settings.latestBoundary)") }
            dayBoundary = t
        case .morningReminder: morningReminder = try time()
        case .eveningReminder: eveningReminder = try time()
        case .middayReminder:
            if ["off", "none", ""].contains(value.lowercased()) { middayReminder = nil; return }
            middayReminder = try time()
        case .partsLetterReminder:
            if ["off", "none", ""].contains(value.lowercased()) { partsLetterReminder = nil; return }
            guard let weekly = WeeklyTime(parsing: value) else { throw bad("is not a weekday and a time") }
            partsLetterReminder = weekly
        case .voice:
            guard let v = NotificationVoice(rawValue: value.lowercased()) else { throw bad("is not a voice") }
            voice = v
        case .celebrations:
            switch value.lowercased() {
            case "on", "true", "yes": celebrations = true
            case "off", "false", "no": celebrations = false
            default: throw bad("is not on or off")
            }
        case .personality:
            guard Settings.isPackID(value) else { throw bad("is not a personality id") }
            personality = value
        case .chatHistoryDays:
            if ["off", "none", ""].contains(value.lowercased()) { chatHistoryDays = nil; return }
            guard let days = Int(value), (1...3650).contains(days) else { throw bad("is not a number of days from 1 to 3650") }
            chatHistoryDays = days
        case .llmURL:
            if ["off", "none", ""].contains(value.lowercased()) { llmURL = nil; return }
            guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https", url.host != nil, value.utf8.count <= 512 else {
                throw bad("is not an http(s) URL")
            }
            llmURL = value
        case .llmModel:
            guard !value.isEmpty, value.utf8.count <= 128, !value.contains(where: { $0.isNewline }) else { throw bad("is not a model name") }
            llmModel = value
        }
    }

    /// Resets `key` to its default.
    public mutating func reset(_ key: SettingKey) {
        let d = Settings()
        switch key {
        case .timeZone: timeZone = d.timeZone
        case .dayBoundary: dayBoundary = d.dayBoundary
        case .morningReminder: morningReminder = d.morningReminder
        case .eveningReminder: eveningReminder = d.eveningReminder
        case .middayReminder: middayReminder = d.middayReminder
        case .partsLetterReminder: partsLetterReminder = d.partsLetterReminder
        case .voice: voice = d.voice
        case .celebrations: celebrations = d.celebrations
        case .personality: personality = d.personality
        case .chatHistoryDays: chatHistoryDays = d.chatHistoryDays
        case .llmURL: llmURL = d.llmURL
        case .llmModel: llmModel = d.llmModel
        }
    }

    /// A pack id: a lowercase letter, then lowercase letters, digits, `_`
    /// or `-`; at most 32 characters.
    static func isPackID(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, s.unicodeScalars.count <= 32, ("a"..."z").contains(first) else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }
}

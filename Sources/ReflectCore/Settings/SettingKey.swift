/// The settings a person can change, by their stored and command-line name.
public enum SettingKey: String, Sendable, CaseIterable, Codable {
    case timeZone = "time_zone"
    case dayBoundary = "day_boundary"
    case morningReminder = "morning_reminder"
    case eveningReminder = "evening_reminder"
    case middayReminder = "midday_reminder"
    /// The weekly parts letter's reminder: a weekday and a time, or off.
    case partsLetterReminder = "parts_letter_reminder"
    case voice
    case celebrations
    case personality
    /// Chat messages older than this many days are deleted when a chat starts.
    case chatHistoryDays = "chat_history_days"
    /// An OpenAI-compatible server for generated text (`REFLECT_LLM_URL` wins).
    case llmURL = "llm_url"
    case llmModel = "llm_model"

    /// The key for a name as typed: `day_boundary` or `day-boundary`.
    public init?(name: String) {
        self.init(rawValue: name.replacingOccurrences(of: "-", with: "_").lowercased())
    }

    /// What values are legal, for help and errors.
    public var legalValues: String {
        switch self {
        case .timeZone: "an IANA time zone such as Europe/Berlin or America/New_York, or 'auto' (the offset of the current time)"
        case .dayBoundary: "a time HH:MM from 00:00 to 12:00 (default 04:00)"
        case .morningReminder: "a time HH:MM (default 08:00)"
        case .eveningReminder: "a time HH:MM (default 21:00)"
        case .middayReminder: "a time HH:MM, or 'off' (default off)"
        case .partsLetterReminder: "a weekday and a time such as 'sun 19:00' (mon … sun), or 'off' (default off)"
        case .voice: "nice or rude"
        case .celebrations: "on or off"
        case .personality: "a personality pack id such as default, zen or best_friend"
        case .chatHistoryDays: "a number of days from 1 to 3650, or 'off' (keep the chat history; default off)"
        case .llmURL: "an http(s) URL of an OpenAI-compatible API such as http://127.0.0.1:8080/v1, or 'off' (default off)"
        case .llmModel: "the model name the server expects (default: 'default')"
        }
    }
}

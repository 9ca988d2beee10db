/// One daily reminder of the schedule the engine owns (the operating
/// system's notification centre is the app's job).
public struct Reminder: Sendable, Equatable {
    public enum ID: String, Sendable, CaseIterable, Codable {
        case eveningPrep = "evening_prep"
        case morningReview = "morning_review"
        case middayHelp = "midday_help"
    }

    public var id: ID
    /// Local time, repeating daily.
    public var time: ClockTime
    public var link: DeepLink

    /// The locale key of its title.
    public var titleKey: String { "coach.reminder.\(id.rawValue).title" }

    /// The locale key of its body in a voice.
    public func bodyKey(_ voice: NotificationVoice) -> String { "coach.reminder.\(id.rawValue).\(voice.rawValue)" }

    /// The whole schedule for these settings, in time order: evening prep
    /// and morning review always, midday help when set. Rescheduling
    /// replaces the whole set (same ids).
    public static func schedule(_ settings: Settings) -> [Reminder] {
        var all = [
            Reminder(id: .morningReview, time: settings.morningReminder, link: .reviewPrep),
            Reminder(id: .eveningPrep, time: settings.eveningReminder, link: .prepTonight),
        ]
        if let midday = settings.middayReminder { all.append(Reminder(id: .middayHelp, time: midday, link: .needHelp)) }
        return all.sorted { $0.time < $1.time }
    }
}

/// One reminder of the schedule the engine owns (the operating system's
/// notification centre is the app's job): daily, or weekly on one day.
public struct Reminder: Sendable, Equatable {
    public enum ID: String, Sendable, CaseIterable, Codable {
        case eveningPrep = "evening_prep"
        case morningReview = "morning_review"
        case middayHelp = "midday_help"
        /// The weekly parts letter (optional, once a week).
        case partsLetter = "parts_letter"
    }

    public var id: ID
    /// Local time.
    public var time: ClockTime
    /// Nil: every day; else the weekday it repeats on (1 = Sunday … 7 = Saturday).
    public var weekday: Int?
    public var link: DeepLink

    public init(id: ID, time: ClockTime, weekday: Int? = nil, link: DeepLink) {
        self.id = id
        self.time = time
        self.weekday = weekday
        self.link = link
    }

    /// The locale key of its title.
    public var titleKey: String { "coach.reminder.\(id.rawValue).title" }

    /// The locale key of its body in a voice.
    public func bodyKey(_ voice: NotificationVoice) -> String { "coach.reminder.\(id.rawValue).\(voice.rawValue)" }

    /// When it repeats: `sun 19:00` for a weekly one, else its time.
    public var schedule: String {
        weekday.flatMap { WeeklyTime(weekday: $0, time: time)?.description } ?? time.description
    }

    /// The whole schedule for these settings: the daily reminders in time
    /// order (evening prep and morning review always, midday help when
    /// set), then the weekly parts letter when set. Rescheduling replaces
    /// the whole set (same ids).
    public static func schedule(_ settings: Settings) -> [Reminder] {
        var all = [
            Reminder(id: .morningReview, time: settings.morningReminder, link: .reviewPrep),
            Reminder(id: .eveningPrep, time: settings.eveningReminder, link: .prepTonight),
        ]
        if let midday = settings.middayReminder { all.append(Reminder(id: .middayHelp, time: midday, link: .needHelp)) }
        all.sort { $0.time < $1.time }
        if let weekly = settings.partsLetterReminder {
            all.append(Reminder(id: .partsLetter, time: weekly.time, weekday: weekly.weekday, link: .partsLetter))
        }
        return all
    }
}

/// The themes entries are tagged with (auto-tagging, a moment's themes,
/// `reflect insights`' tag × mood). Stable ids: stored with entries and used
/// as the keys of the locale files' `themes:` word lists.
public enum Theme: String, Sendable, Codable, CaseIterable, Comparable {
    case work, sleep, family, exercise, stress, food, money, health, friends
    case `self`

    /// The locale key of the theme's name (`theme.work`).
    public var nameKey: String { "theme.\(rawValue)" }

    /// Position in the declared order (work first, self last).
    public var order: Int {
        switch self {
        case .work: 0
        case .sleep: 1
        case .family: 2
        case .exercise: 3
        case .stress: 4
        case .food: 5
        case .money: 6
        case .health: 7
        case .friends: 8
        case .self: 9
        }
    }

    public static func < (a: Theme, b: Theme) -> Bool { a.order < b.order }
}

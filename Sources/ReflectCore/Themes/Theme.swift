/// The themes entries are tagged with (auto-tagging, a moment's themes,
/// `reflect insights`' tag × mood). Stable ids: stored with entries and used
/// as the keys of the locale files' `themes:` word lists.
public enum Theme: String, Sendable, Codable, CaseIterable, Comparable {
    case work, sleep, family, exercise, stress, food, money, health, friends
    case `self`

    /// The locale key of the theme's name (`theme.work`).
    public var nameKey: String { "theme.\(rawValue)" }

    /// Position in the declared order (work first, self last).
    public var order: Int { Theme.allCases.firstIndex(of: self) ?? 0 }

    public static func < (a: Theme, b: Theme) -> Bool { a.order < b.order }
}

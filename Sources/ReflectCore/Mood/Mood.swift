/// The 5-point mood scale a person logs.
public enum Mood: String, Sendable, Codable, CaseIterable, Comparable {
    case horrible, bad, average, good, great

    /// 0 (horrible) … 4 (great).
    public var score: Int {
        switch self {
        case .horrible: 0
        case .bad: 1
        case .average: 2
        case .good: 3
        case .great: 4
        }
    }

    /// Which reflection fits: great/good → positive (Behavioral Activation),
    /// average → neutral (ACT defusion), bad/horrible → negative (CBT
    /// thought record).
    public var category: MoodCategory {
        switch self {
        case .great, .good: .positive
        case .average: .neutral
        case .bad, .horrible: .negative
        }
    }

    public static func < (a: Mood, b: Mood) -> Bool { a.score < b.score }
}

public enum MoodCategory: String, Sendable, Codable, CaseIterable {
    case positive, neutral, negative
}

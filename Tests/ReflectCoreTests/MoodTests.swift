import Foundation
import Testing
@testable import ReflectCore

@Suite("Mood")
struct MoodTests {
    @Test("scores run 0 (horrible) to 4 (great)", arguments: [
        (Mood.horrible, 0), (.bad, 1), (.average, 2), (.good, 3), (.great, 4),
    ])
    func score(mood: Mood, expected: Int) {
        #expect(mood.score == expected)
    }

    @Test("great and good are positive, average neutral, bad and horrible negative", arguments: [
        (Mood.great, MoodCategory.positive), (.good, .positive), (.average, .neutral), (.bad, .negative), (.horrible, .negative),
    ])
    func category(mood: Mood, expected: MoodCategory) {
        #expect(mood.category == expected)
    }

    @Test("moods order by score")
    func ordering() {
        #expect(Mood.horrible < .bad)
        #expect(Mood.good < .great)
        #expect(!(Mood.great < .average))
        #expect([Mood.great, .horrible, .average, .good, .bad].sorted() == [.horrible, .bad, .average, .good, .great])
        #expect(Mood.allCases.max() == .great)
    }

    @Test("moods encode as their lowercase names")
    func coding() throws {
        #expect(String(decoding: try JSONEncoder().encode([Mood.horrible, .great]), as: UTF8.self) == #"["horrible","great"]"#)
        #expect(try JSONDecoder().decode(Mood.self, from: Data(#""average""#.utf8)) == .average)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Mood.self, from: Data(#""Average""#.utf8)) }
        #expect(MoodCategory(rawValue: "neutral") == .neutral)
    }
}

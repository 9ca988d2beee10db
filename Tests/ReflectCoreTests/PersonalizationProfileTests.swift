import Testing
@testable import ReflectCore

@Suite("Personalization profile")
struct PersonalizationProfileTests {
    func r(_ rating: ReplyRating.Rating, _ length: PersonalizationProfile.ResponseLength, themes: [Theme] = [], actions: [Theme] = []) -> ReplyRating {
        ReplyRating(rating: rating, length: length, themes: themes, actionThemes: actions)
    }

    @Test("repeated 👎 on long replies makes replies short; one 👎, or a 👍 on a long reply in between, does not")
    func lengthFromDowns() {
        let base = PersonalizationProfile()
        #expect(base.applying([r(.down, .long)]).responseLength == .medium)
        #expect(base.applying([r(.down, .long), r(.down, .long)]).responseLength == .short)
        #expect(base.applying([r(.down, .long), r(.up, .long), r(.down, .long)]).responseLength == .medium)
        #expect(base.applying([r(.down, .long), r(.up, .short), r(.down, .long)]).responseLength == .short,
                "a 👍 on another length does not reset it")
        #expect(base.applying([r(.down, .short), r(.down, .short)]).responseLength == .medium)
        #expect(PersonalizationProfile(responseLength: .long).applying([r(.up, .long), r(.up, .long), r(.up, .short)]).responseLength == .long)
        #expect(base.applying([r(.up, .long), r(.up, .long), r(.up, .long)]).responseLength == .long)
    }

    @Test("preferred actions come from 👍 sessions' small steps, most liked first; topics after three 👎 and no 👍")
    func actionsAndTopics() {
        let p = PersonalizationProfile(preferredActions: [.sleep]).applying([
            r(.up, .short, actions: [.exercise, .friends]), r(.up, .short, actions: [.friends]), r(.down, .short, actions: [.food]),
            r(.up, .short, actions: [.food]),
            r(.down, .medium, themes: [.money, .work]), r(.down, .medium, themes: [.money, .work]), r(.down, .short, themes: [.money]),
            r(.up, .short, themes: [.work]), r(.down, .short, themes: [.work]),
        ])
        #expect(p.preferredActions == [.sleep, .friends, .exercise], "the person's own first; food nets zero")
        #expect(p.avoidTopics == [.money], "work was also liked once")
        #expect(p.tone == .warm, "tone is only the person's choice")
    }

    @Test("a reply's length class by its words, three Japanese characters a word")
    func lengthOfReply() {
        #expect(ReplyRating.length(of: "That sounds hard. What helped last time?") == .short)
        #expect(ReplyRating.length(of: Array(repeating: "word", count: 60).joined(separator: " ")) == .medium)
        #expect(ReplyRating.length(of: Array(repeating: "word", count: 81).joined(separator: " ")) == .long)
        #expect(ReplyRating.length(of: String(repeating: "言葉", count: 150)) == .long)
    }
}

import Testing
@testable import ReflectCore

@Suite("Suggestion: did you mean")
struct SuggestionTests {
    @Test("equally near candidates give the same suggestion whatever their order (keys often come from a dictionary)")
    func tiesDoNotDependOnOrder() {
        let keys = ["journal.gratitude.q2", "journal.gratitude.q1", "journal.gratitude.q3"]
        #expect(Suggestion.nearest(to: "journal.gratitude.q9", among: keys) == "journal.gratitude.q1")
        #expect(Suggestion.nearest(to: "journal.gratitude.q9", among: keys.reversed()) == "journal.gratitude.q1")
        // A nearer candidate still wins over an earlier one in code-point order.
        #expect(Suggestion.nearest(to: "intensty", among: ["ask", "intensity", "intense"]) == "intensity")
        #expect(Suggestion.nearest(to: "zzzzzz", among: keys) == nil)
    }
}

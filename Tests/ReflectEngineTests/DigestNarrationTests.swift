import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

// The weekly digest narrated by a text generator (docs/journal.md,
// "Narration"): what may stand in for the template's story, and what not.

private let library = ContentLibrary(root: ContentRoot(repositoryRoot))

/// A provider that answers `reply` after `delay` seconds and counts its calls.
private final class ScriptedGenerator: TextGenerator, @unchecked Sendable {
    let reply: String
    let delay: Double
    private let lock = NSLock()
    private var requests: [GenerationRequest] = []
    var name: String { "scripted" }

    init(_ reply: String, delay: Double = 0) {
        self.reply = reply
        self.delay = delay
    }

    var calls: [GenerationRequest] { lock.withLock { requests } }

    func generate(_ request: GenerationRequest) async throws -> String {
        lock.withLock { requests.append(request) }
        if delay > 0 { try await Task.sleep(for: .seconds(delay)) }
        return reply
    }
}

private let story = ["Your check-in mood averaged 7 this week, up 2.7 from the week before.",
                     "Your best day was Tuesday (mood 8 of 10) — “A walk after work”",
                     "For next week: “Rehearse once with Sam”"]
private let figures = ["Days you showed up: 4 of 7 · longest streak: 4", "Check-ins this week (3): mood 7 · energy 5 · stress 4 · sleep 7 h"]

private func narrator(_ generator: ScriptedGenerator, locale: String = "en") throws -> DigestNarration {
    DigestNarration(language: try library.language(for: locale), generator: generator, prompts: try PromptLibrary.load(library.root),
                    story: story, figures: figures, provider: "scripted")
}

@Suite("Weekly digest narration", .hangGuard)
struct DigestNarrationTests {
    @Test("a narration that keeps to the digest's figures is shown as generated; the request carries the story and figures, nothing else")
    func good() throws {
        let text = "A brighter week: your mood averaged 7, up 2.7, and Tuesday's walk after work made it your best day (8 of 10). "
            + "Next week you plan to rehearse once with Sam."
        let generator = ScriptedGenerator(text)
        let outcome = try narrator(generator).narrate(stored: nil)
        #expect(outcome.text == text && outcome.generated && !outcome.cached && outcome.refused == nil)
        let request = try #require(generator.calls.first)
        #expect(request.purpose == "digest" && request.inputs == story && request.context.coachLines == figures)
    }

    @Test("a stored narration for the same basis is shown without asking the provider")
    func stored() throws {
        let generator = ScriptedGenerator("unused")
        let n = try narrator(generator)
        let outcome = n.narrate(stored: "Kept from before.")
        #expect(outcome.text == "Kept from before." && outcome.cached && outcome.generated && generator.calls.isEmpty)
        #expect(outcome.basis == n.basis)
    }

    @Test("a stored narration that today's gate flags is not shown as it was kept")
    func storedScreenedAgain() throws {
        let generator = ScriptedGenerator("unused")
        let outcome = try narrator(generator).narrate(stored: "This week you thought about killing yourself.")
        #expect(outcome.cached && !outcome.generated && outcome.refused?.hasPrefix("crisis.") == true && !outcome.resources.isEmpty)
        #expect(generator.calls.isEmpty)
    }

    @Test("a number the digest does not hold is refused (the template stands), in any script and form", arguments: [
        "Your mood averaged 9 this week.", "You showed up 6 days.", "Your mood rose by 1.5.", "Your mood averaged ９ this week.",
        "Mood 7.5 on average.",
    ])
    func inventedFigure(_ reply: String) throws {
        let outcome = try narrator(ScriptedGenerator(reply)).narrate(stored: nil)
        #expect(outcome.text == nil && !outcome.generated && outcome.refused == "rule.invented_figure")
    }

    @Test("the digest's own numbers pass in other forms: 2,7 for 2.7, 07 for 7, full-width digits")
    func sameNumbers() throws {
        for reply in ["Up 2,7 from last week, a mood of 07.", "Tuesday: ８ of １０.", "4 of 7 days, mood 7.0."] {
            let outcome = try narrator(ScriptedGenerator(reply)).narrate(stored: nil)
            #expect(outcome.generated && outcome.refused == nil, "\(reply)")
        }
        #expect(DigestNarration.numbers(in: "2026-11-16, 7,5 and 8. Then 0.50 and ٣") == ["2026", "11", "16", "7.5", "8", "0.5", "3"])
    }

    @Test("a narration over 90 words is refused")
    func tooLong() throws {
        let reply = Array(repeating: "week", count: 91).joined(separator: " ")
        let outcome = try narrator(ScriptedGenerator(reply)).narrate(stored: nil)
        #expect(outcome.text == nil && outcome.refused == "rule.too_long")
        let ok = try narrator(ScriptedGenerator(Array(repeating: "week", count: 90).joined(separator: " "))).narrate(stored: nil)
        #expect(ok.generated)
    }

    @Test("a narration that speaks of suicide is replaced by the de-escalation message with crisis lines")
    func crisis() throws {
        let outcome = try narrator(ScriptedGenerator("This week you thought about killing yourself.")).narrate(stored: nil)
        #expect(!outcome.generated && outcome.refused?.hasPrefix("crisis.") == true, "\(outcome)")
        #expect(outcome.text != nil && !outcome.resources.isEmpty)
    }

    @Test("a provider slower than 3 s: no narration, and the person waits no longer than the timeout")
    func slow() throws {
        let started = ContinuousClock.now
        let outcome = try narrator(ScriptedGenerator("Your mood averaged 7.", delay: 10)).narrate(stored: nil)
        #expect(outcome.text == nil && outcome.refused == "timeout")
        #expect(ContinuousClock.now - started < .seconds(6), "contained: the deadline is 3 s")
    }

    @Test("the basis changes with the data, the language, the voice and the provider; not with nothing")
    func basis() throws {
        let g = ScriptedGenerator("x")
        let base = try narrator(g)
        #expect(base.basis == (try narrator(g)).basis)
        let prompts = try PromptLibrary.load(library.root)
        let en = try library.language(for: "en")
        var others: [DigestNarration] = []
        others.append(DigestNarration(language: en, generator: g, prompts: prompts, story: story.dropLast() + ["For next week: “Call Sam”"],
                                      figures: figures, provider: "scripted"))
        others.append(DigestNarration(language: en, generator: g, prompts: prompts, story: story, figures: figures.dropLast(), provider: "scripted"))
        others.append(DigestNarration(language: try library.language(for: "de"), generator: g, prompts: prompts, story: story, figures: figures,
                                      provider: "scripted"))
        others.append(DigestNarration(language: en, generator: g, prompts: prompts, story: story, figures: figures, provider: "openai other-model"))
        // A line moved from the story to the figures is other data too.
        others.append(DigestNarration(language: en, generator: g, prompts: prompts, story: Array(story.dropLast()), figures: [story[2]] + figures,
                                      provider: "scripted"))
        #expect(Set(others.map(\.basis)).count == others.count && !others.map(\.basis).contains(base.basis))
    }
}

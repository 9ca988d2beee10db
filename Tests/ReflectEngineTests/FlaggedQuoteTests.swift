import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine
@testable import ReflectAuthoring

/// Issue 18, item 2: no flow may quote an answer the safety gate flagged,
/// however it builds its text — by construction (the flow never receives
/// the flagged text), not per flow; and `reflect check` flags a flow that
/// puts answers into its texts outside `args` (R014).
@Suite("a flagged answer is never quoted back")
struct FlaggedQuoteTests {
    static let crisis = "I want to kill myself"

    /// Every way a flow can put an answer into what a person reads.
    static let quoting = source("flows/test/quoting.lua", """
        return flow {
          id = "test.quoting", version = 1,
          run = function(s)
            local what = s:ask { id = "what", text = "What is on your mind?" }
            s:ask { id = "concat", text = "You said \\"" .. what .. "\\". Say more?", required = false }
            s:ask { id = "format", text = string.format("About %s: anything else?", what), required = false }
            s:ask { id = "quote", text = "Quoted: " .. s:quote(what), required = false }
            s:ask { id = "args", text = "With args: \\"%@\\"", args = { what }, fallback = "With args, nothing to quote.", required = false }
            s:ask { id = "stext", text = s:text("Via s:text: %@", what), required = false }
            local earlier = s:facts().earlier[1]
            s:message { id = "earlier", text = "Earlier: " .. (earlier and earlier.value or "none") .. " / length " .. #what }
          end,
        }
        """)

    @Test("the quick-start check-in and a flow quoting by every means never show a flagged answer")
    func neverQuoted() throws {
        let english = try english()
        #expect(english.safety.check(FlaggedQuoteTests.crisis) != .ok)
        var opts = options()
        opts.facts = UserFacts(earlierAnswers: [EarlierAnswer(flow: "demo.check-in", step: "situation", value: .text("I want to end it all"))])
        let session = try FlowSession.open(FlaggedQuoteTests.quoting, language: english, options: opts)
        var events = try session.submit(.text(FlaggedQuoteTests.crisis))
        for _ in 0..<5 { events += try session.submit(.command(.skip)) }
        let shown = events.prompts.map(\.text)
        #expect(shown.count == 6)
        for text in shown {
            #expect(!text.localizedCaseInsensitiveContains("kill"), "\(text)")
            #expect(!text.localizedCaseInsensitiveContains("end it all"), "\(text)")
        }
        #expect(shown.contains("With args, nothing to quote."))
        #expect(shown.last == "Earlier:  / length 0")
        // The answer itself is kept as given.
        #expect(session.save.answers.first?.value == .text(FlaggedQuoteTests.crisis))
        #expect(events.contains { if case .safety = $0 { true } else { false } })

        let checkIn = try ContentLibrary(root: ContentRoot(repositoryRoot)).catalog.source(for: "demo.check-in", mood: nil)
        let demo = try FlowSession.open(checkIn, language: english, options: options())
        let demoEvents = try demo.answer(.number(8), .text(FlaggedQuoteTests.crisis))
        let friend = try #require(demoEvents.prompts.last)
        #expect(friend.step == "friend" && !friend.text.contains("kill"), "\(friend.text)")
    }

    @Test("replaying a saved session keeps the flagged answer out of the flow as well")
    func replay() throws {
        let english = try english()
        let session = try FlowSession.open(FlaggedQuoteTests.quoting, language: english, options: options())
        _ = try session.answer(.text(FlaggedQuoteTests.crisis))
        let resumed = try FlowSession.open(FlaggedQuoteTests.quoting, language: english, options: options(), resuming: session.save)
        #expect(resumed.current?.step == "concat")
        #expect(resumed.current?.text == "You said \"\". Say more?")
    }

    @Test("reflect check warns (R014) when a flow puts an answer into a text itself, and not when it uses args")
    func checkFlags() throws {
        let english = try english()
        let report = FlowExplorer(runs: 20).explore(FlaggedQuoteTests.quoting, language: english)
        let r013 = report.diagnostics.filter { $0.code == .quotedOutsideArgs }
        #expect(Set(r013.compactMap { $0.message.split(separator: "'").dropFirst().first.map(String.init) }) == ["concat", "format", "quote", "stext"],
                "\(r013.map(\.message))")
        #expect(r013.allSatisfy { $0.severity == .warning })

        let checkIn = try ContentLibrary(root: ContentRoot(repositoryRoot)).catalog.source(for: "demo.check-in", mood: nil)
        #expect(!FlowExplorer(runs: 20).explore(checkIn, language: english).diagnostics.contains { $0.code == .quotedOutsideArgs })
    }

    @Test("a Prep Library item the gate flags never reaches a flow: s:facts().prep leaves it out (issue 19)")
    func flaggedPrepItem() throws {
        let english = try english()
        let listing = source("flows/test/prep.lua", """
            return flow { id = "test.prep", version = 1, run = function(s)
              local texts = {}
              for _, item in ipairs(s:facts().prep) do texts[#texts + 1] = item.id .. "=" .. item.text end
              s:message { id = "items", text = table.concat(texts, ";") }
            end }
            """)
        var opts = options()
        opts.facts = UserFacts(prepItems: [
            PrepItem(id: "water", label: .key("coach.prep.item.water"), core: true),
            PrepItem(id: "my-5", label: .literal("Lay out my walking shoes"), core: false),
            PrepItem(id: "my-6", label: .literal("buy enough pills to end it all"), core: false),
        ])
        let session = try FlowSession.open(listing, language: english, options: opts)
        #expect(session.current?.text == "water=coach.prep.item.water;my-5=Lay out my walking shoes")
        // Replayed from the save (the snapshot holds the item as written), it stays out.
        let resumed = try FlowSession.open(listing, language: english, options: options(), resuming: session.save)
        #expect(resumed.current?.text == session.current?.text)
    }

    @Test("a generated final question that quotes the person is not R014: the shipped reflection flows check clean of it")
    func generatedTextIsNotTheFlowsQuote() throws {
        let english = try english()
        let catalog = ContentLibrary(root: ContentRoot(repositoryRoot)).catalog
        for mood in [Mood.bad, .average, .good] {
            let source = try catalog.source(for: "reflection", mood: mood)
            let diagnostics = FlowExplorer(runs: 20).explore(source, language: english).diagnostics
            #expect(!diagnostics.contains { $0.code == .quotedOutsideArgs }, "\(source.name): \(diagnostics.map(\.headline))")
        }
    }
}

import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

// A text s:generate hands the flow is finished: the person's words quoted
// in it, or a provider's reply, are shown exactly as written when a prompt
// uses it — never read again as a template (`%@`, `%%`) or looked up as a key.

private let library = ContentLibrary(root: ContentRoot(repositoryRoot))

/// Replies `text` to every request.
private struct FixedGenerator: TextGenerator {
    let text: String
    var name: String { "fixed" }
    func generate(_ request: GenerationRequest) async throws -> String { text }
}

private func negative(_ generator: (any TextGenerator)? = nil) throws -> FlowSession {
    var o = SessionOptions(sessionID: "finished-text", mood: .bad, clock: FlowClock(iso8601: "2026-11-24T20:00:00+01:00") ?? .system(),
                           seed: 1, region: "US")
    o.prompts = try PromptLibrary.load(library.root)
    o.generator = generator
    return try FlowSession.open(try library.catalog.source(for: "reflection.negative"), language: try library.language(for: "en"), options: o)
}

@Suite("Finished texts: what s:generate returns is shown as written", .hangGuard)
struct FinishedTextTests {
    @Test("the person's words with %@, %% and %1$@ in them are quoted into the final question exactly", arguments: [
        "I am 100%% useless, %@ always", "Everything is %1$@ wrong", "50% of the time I fail at %", "a.b.c",
    ])
    func quotedWords(_ thought: String) throws {
        let session = try negative()
        try session.answer(.number(8), .text("My report"), .text(thought), .text("It went well once"))
        _ = try session.submit(.text("One slide was wrong"))
        let shown = try #require(session.current?.text)
        #expect(session.current?.step == "reframe")
        #expect(shown.contains(thought), "the final question quotes '\(thought)' as typed: \(shown)")
    }

    @Test("a provider's final question with %@ or a key-like word is shown exactly as it came")
    func providerText() throws {
        for reply in ["What would “I always mess up” mean if 100%% of it were true?", "When you say “I always mess up”, what does %@ stand for?"] {
            let session = try negative(FixedGenerator(text: reply))
            try session.answer(.number(8), .text("My report"), .text("I always mess up"), .text("It went well once"))
            _ = try session.submit(.text("One slide was wrong"))
            #expect(session.current?.step == "reframe")
            #expect(session.current?.text == reply, "\(session.current?.text ?? "")")
        }
    }

    @Test("a literal text a flow writes itself is still a template: %% is one percent sign")
    func ownText() throws {
        var o = SessionOptions(sessionID: "own-text", mood: nil, clock: FlowClock(iso8601: "2026-11-24T20:00:00+01:00") ?? .system(), seed: 1)
        o.prompts = PromptLibrary()
        let source = FlowSource(name: "flows/own.lua", text: """
            return flow {
              id = "own", version = 1,
              run = function(s)
                s:ask { id = "q", text = "How sure are you, 0 to 100%% — about '%@'?", args = { "it" } }
              end,
            }
            """)
        let session = try FlowSession.open(source, language: try library.language(for: "en"), options: o)
        #expect(session.current?.text == "How sure are you, 0 to 100% — about 'it'?")
    }
}

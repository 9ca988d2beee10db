import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

private let everyKind = source("flows/test/kinds.lua", """
    return flow {
      id = "test.kinds", version = 1, total = 6,
      run = function(s)
        local mood = s:choose { id = "pick", text = "Which one?", options = {
          { id = "walk", text = "A walk" }, { id = "call", text = "A call" } } }
        local many = s:choose_many { id = "many", text = "Which ones?", options = {
          { id = "tea", text = "Tea" }, { id = "nap", text = "A nap" }, { id = "music", text = "Music" } } }
        local list = s:checklist { id = "list", text = "How did these go?", items = {
          { id = "water", text = "Water" }, { id = "steps", text = "Steps" } } }
        s:action { id = "breathe", text = "Breathe in for four, out for six." }
        local maybe = s:ask { id = "extra", text = "Anything else?", required = false }
        local ok = s:yesno { id = "ok", text = "Was this " .. mood .. " helpful? (" .. #many .. " picks, water " .. list.water .. ", extra " .. tostring(maybe) .. ")" }
        s:message { id = "bye", text = ok and "Glad to hear." or "Thanks for telling me." }
      end,
    }
    """)

@Suite("Prompt kinds and commands")
struct PromptKindsTests {
    @Test("every prompt kind takes its answers and hands typed values to the flow")
    func everyKindRoundTrip() throws {
        let session = try FlowSession.open(everyKind, options: options())
        #expect(session.current?.options.map(\.id) == ["walk", "call"])
        let events = try drive(session, [
            .choose("nope"), .choose("2"),
            .chooseMany(["tea", "music", "tea"]),
            .checklist(["water": "done"]), .checklist(["water": "done", "steps": "sometimes"]),
            .checklist(["water": "partly", "steps": "skip"]),
            .text("later"), .acknowledge,
            .command(.skip),
            .text("yes"),
            .acknowledge,
        ])
        let invalid = events.compactMap { if case .invalid(_, let code, _) = $0 { code } else { nil } }
        #expect(invalid == ["choice_unknown", "checklist_incomplete", "checklist_mark", "ack_expected"])
        #expect(session.save.answers.map(\.value) == [
            .choice("call"), .choices(["tea", "music"]), .checklist(["water": .partly, "steps": .skip]),
            .acknowledged, .skipped, .boolean(true), .acknowledged,
        ])
        #expect(events.prompts.last { $0.step == "ok" }?.text == "Was this call helpful? (2 picks, water partly, extra nil)")
        #expect(events.prompts.last?.text == "Glad to hear.")
        #expect(session.isFinished)
    }

    @Test("progress counts questions; a message keeps the last number")
    func progress() throws {
        let session = try FlowSession.open(everyKind, options: options())
        let events = try drive(session, [.choose("walk"), .chooseMany(["tea"]), .checklist(["water": "done", "steps": "done"]),
                                         .acknowledge, .text("x"), .boolean(false), .acknowledge])
        let seen = events.prompts.map { "\($0.step):\($0.index)/\($0.total ?? 0)" }
        #expect(seen == ["pick:1/6", "many:2/6", "list:3/6", "breathe:4/6", "extra:5/6", "ok:6/6", "bye:6/6"])
    }

    @Test("skip is refused on a required question; keep needs a draft; back at the start stays put")
    func commandsRefused() throws {
        let session = try FlowSession.open(everyKind, options: options())
        let skip = try session.submit(.command(.skip))
        #expect(skip.first == .invalid(step: "pick", code: "required", message: "This question needs an answer."))
        #expect(skip.last.flatMap { if case .prompt(let p) = $0 { p.step.rawValue } else { nil } } == "pick")
        #expect(try session.submit(.command(.keep)).first == .invalid(step: "pick", code: "no_draft", message: "There is no earlier answer to keep here."))
        let back = try session.submit(.command(.back))
        #expect(back.first == .invalid(step: "pick", code: "back_start", message: "This is the first question."))
        #expect(session.save.answers.isEmpty)
    }

    @Test("a draft that no longer fits its question is not offered")
    func draftMustFit() throws {
        let session = try FlowSession.open(everyKind, options: options())
        try session.answer(.choose("walk"), .chooseMany(["tea"]))
        _ = try session.submit(.command(.back))
        #expect(session.current?.step == "many")
        #expect(session.current?.draft == .choices(["tea"]))
        _ = try session.submit(.command(.keep))
        #expect(session.current?.step == "list")
        #expect(session.save.drafts.isEmpty)
    }

    @Test("a locale key missing everywhere is an error at the calling line, never a raw key on screen")
    func missingKey() throws {
        let flow = source("flows/test/missing.lua", """
            return flow { id = "test.missing", version = 1, run = function(s)
              s:ask { id = "a", text = "reflection.negative.q1" }

              s:ask { id = "b", text = "reflection.negative.q99" }
            end }
            """)
        let session = try FlowSession.open(flow, language: try english(), options: options())
        #expect(session.current?.text == "What happened today that affected your mood?")
        let error = try #require(throws: EngineError.self) { try session.submit(.text("something")) }
        #expect(error.code == "lua.runtime")
        #expect(error.file == "flows/test/missing.lua")
        #expect(error.line == 4)
        #expect(error.message.contains("unknown locale key 'reflection.negative.q99'"))
        #expect(session.save.answers.count == 1, "the answer given before the error is kept")
    }

    @Test("an empty referenced answer falls back to the step's static text")
    func staticFallback() throws {
        // Blank text no longer answers a required question (issue 12, item 9),
        // but a save from before may hold blank answers.
        let source = try FlowCatalog(root: ContentRoot(repositoryRoot)).source(for: "reflection.negative")
        let fresh = try FlowSession.open(source, language: try english(), options: options())
        try fresh.answer(.number(6))
        var save = fresh.save
        save.answers.append(RecordedAnswer(step: "situation", value: .text("   ")))
        let session = try FlowSession.open(source, language: try english(), options: options(), resuming: save)
        #expect(session.current?.text == "What thought kept coming back about it?")
        save.answers.append(RecordedAnswer(step: "thought", value: .text("")))
        let later = try FlowSession.open(source, language: try english(), options: options(), resuming: save)
        #expect(later.current?.text == "If a good friend had this thought, what would you want them to consider?")

        // A bare non-answer is not quoted back either.
        let idk = try FlowSession.open(try FlowCatalog(root: ContentRoot(repositoryRoot)).source(for: "reflection.negative"),
                                       language: try english(), options: options())
        try idk.answer(.number(6), .text("idk."))
        #expect(idk.current?.text == "What thought kept coming back about it?")
    }
}

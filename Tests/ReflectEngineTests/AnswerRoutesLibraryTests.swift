import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// Issue 18, item 1, the library route: an app answers every prompt kind
/// with ``AnswerInput`` values, and the documented JSON answer objects
/// (docs/events.md) decode to exactly those values. The other routes are
/// CLITests › AnswerRoutesTests.
@Suite("answer routes: the library")
struct AnswerRoutesLibraryTests {
    static let flow = source("flows/test/routes.lua", """
        return flow {
          id = "test.routes", version = 1, total = 7,
          run = function(s)
            local feel = s:intensity { id = "feel", text = "How strong?" }
            local what = s:ask { id = "what", text = "What happened?" }
            local ok = s:yesno { id = "ok", text = "Was it ok?" }
            local one = s:choose { id = "one", text = "Which one?", options = {
              { id = "walk", text = "A walk" }, { id = "call", text = "A call" } } }
            local many = s:choose_many { id = "many", text = "Which ones?", options = {
              { id = "tea", text = "Tea" }, { id = "nap", text = "A nap" }, { id = "music", text = "Music" } } }
            local list = s:checklist { id = "list", text = "How did these go?", items = {
              { id = "water", text = "Water" }, { id = "steps", text = "Steps" } } }
            s:action { id = "breathe", text = "Breathe out slowly." }
            s:message { id = "bye", text = "got " .. feel .. "/" .. what .. "/" .. tostring(ok) .. "/" .. one .. "/"
              .. table.concat(many, "+") .. "/" .. list.water .. "," .. list.steps }
          end,
        }
        """)

    /// Per kind: the library's input and the documented JSON line for it.
    static let answers: [(kind: PromptKind, input: AnswerInput, json: String)] = [
        (.intensity, .number(6), "6"),
        (.text, .text("Lunch ran late"), "\"Lunch ran late\""),
        (.yesNo, .boolean(true), "true"),
        (.singleChoice, .choose("call"), "{\"choose\": \"call\"}"),
        (.multiChoice, .chooseMany(["tea", "music"]), "{\"choose\": [\"tea\", \"music\"]}"),
        (.checklist, .checklist(["water": "done", "steps": "partly"]), "{\"checklist\": {\"water\": \"done\", \"steps\": \"partly\"}}"),
        (.action, .acknowledge, "{\"done\": true}"),
        (.message, .acknowledge, "{\"ack\": true}"),
    ]

    @Test("every kind answered with AnswerInput values reaches the flow and the save")
    func library() throws {
        let session = try FlowSession.open(AnswerRoutesLibraryTests.flow, options: options())
        var kinds: [PromptKind] = []
        var events = session.openingEvents
        for answer in AnswerRoutesLibraryTests.answers {
            kinds.append(try #require(session.current).kind)
            events += try session.submit(answer.input)
        }
        #expect(kinds == AnswerRoutesLibraryTests.answers.map(\.kind))
        #expect(!events.contains { if case .invalid = $0 { true } else { false } })
        #expect(events.prompts.last?.text == "got 6/Lunch ran late/true/call/tea+music/done,partly")
        #expect(session.save.answers.map(\.value) == [
            .integer(6), .text("Lunch ran late"), .boolean(true), .choice("call"), .choices(["tea", "music"]),
            .checklist(["water": .done, "steps": .partly]), .acknowledged, .acknowledged,
        ])
        #expect(session.isFinished)
    }

    @Test("each documented JSON answer decodes to the library's value for its kind")
    func jsonMatchesLibrary() throws {
        for answer in AnswerRoutesLibraryTests.answers {
            #expect(try AnswerLine.parse(answer.json) == answer.input, "\(answer.kind): \(answer.json)")
        }
        #expect(try AnswerLine.parse("{\"choose\": 2}") == .choose("2"))
        #expect(try AnswerLine.parse("{\"command\": \"skip\"}") == .command(.skip))
        for bad in ["{\"choose\": true}", "{\"checklist\": [\"done\"]}", "{\"checklist\": {\"water\": 1}}", "{}", "[1]", "null",
                    "{\"done\": false}", "{\"choose\": \"a\", \"done\": true}", "{\"pick\": \"a\"}"] {
            #expect(throws: AnswerLineError.self, "\(bad)") { try AnswerLine.parse(bad) }
        }
    }
}

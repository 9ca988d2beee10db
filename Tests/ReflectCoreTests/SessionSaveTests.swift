import Foundation
import Testing
@testable import ReflectCore

@Suite("SessionSave.decodeValidated")
struct SessionSaveTests {
    /// A valid save as a JSON object, to be altered one field at a time.
    static func base() -> [String: Any] {
        [
            "format": 1,
            "flow": "thought-record",
            "flowVersion": 3,
            "seed": 42,
            "now": "2026-11-22T08:30:00+01:00",
            "locale": "pt-BR",
            "mood": "bad",
            "answers": [
                ["step": "pre", "value": 7],
                ["step": "situation", "value": "My boss criticised my slides"],
            ],
            "drafts": [
                ["step": "feelings", "value": ["choices": ["tense", "numb"]]],
            ],
        ]
    }

    static func data(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    /// The field named by the validation error for `object`, or nil if it decoded.
    static func failingField(_ object: [String: Any]) throws -> String? {
        let bytes = try data(object)
        do throws(SaveValidationError) {
            _ = try SessionSave.decodeValidated(from: bytes)
            return nil
        } catch {
            return error.field
        }
    }

    static func with(_ key: String, _ value: Any) -> [String: Any] {
        var o = base()
        o[key] = value
        return o
    }

    @Test("a valid save decodes with its answers, drafts, mood and locale")
    func decodesValid() throws {
        let save = try SessionSave.decodeValidated(from: Self.data(Self.base()))
        #expect(save.format == 1)
        #expect(save.flow == "thought-record")
        #expect(save.flowVersion == 3)
        #expect(save.seed == 42)
        #expect(save.now == "2026-11-22T08:30:00+01:00")
        #expect(save.locale == "pt-BR")
        #expect(save.mood == .bad)
        #expect(save.answers == [RecordedAnswer(step: "pre", value: .integer(7)),
                                 RecordedAnswer(step: "situation", value: .text("My boss criticised my slides"))])
        #expect(save.drafts == [RecordedAnswer(step: "feelings", value: .choices(["tense", "numb"]))])
    }

    @Test("a save round-trips through JSON with every kind of answer")
    func roundTrip() throws {
        let save = SessionSave(
            flow: "morning-check", flowVersion: 12, seed: UInt64.max, now: "2026-01-02T23:59:59-05:00",
            locale: "ja", mood: .great,
            answers: [
                RecordedAnswer(step: "pre", value: .integer(0)),
                RecordedAnswer(step: "note", value: .text("いつも失敗する")),
                RecordedAnswer(step: "ok", value: .boolean(false)),
                RecordedAnswer(step: "pick", value: .choice("calm")),
                RecordedAnswer(step: "list", value: .checklist(["water": .done, "walk": .skip])),
                RecordedAnswer(step: "read", value: .acknowledged),
                RecordedAnswer(step: "q3.labeling", value: .skipped),
            ],
            drafts: [RecordedAnswer(step: "post", value: .integer(4)), RecordedAnswer(step: "note", value: .text("draft"))])
        let decoded = try SessionSave.decodeValidated(from: JSONEncoder().encode(save))
        #expect(decoded == save)
        #expect(decoded.seed == UInt64.max)
        #expect(decoded.mood == .great)
        #expect(decoded.locale == "ja")
        #expect(decoded.drafts.count == 2)
    }

    @Test("locale and drafts may be absent; mood may be absent")
    func defaults() throws {
        var o = Self.base()
        o["locale"] = nil
        o["drafts"] = nil
        o["mood"] = nil
        let save = try SessionSave.decodeValidated(from: Self.data(o))
        #expect(save.locale == "en")
        #expect(save.drafts.isEmpty)
        #expect(save.mood == nil)
    }

    @Test("a bad locale tag is reported as 'locale'", arguments: ["en_US", "pt BR", "fr;rm -rf", "é", String(repeating: "a", count: 36)])
    func badLocale(tag: String) throws {
        #expect(try Self.failingField(Self.with("locale", tag)) == "locale")
    }

    @Test("a long but well-formed locale tag is fine")
    func longLocale() throws {
        #expect(try Self.failingField(Self.with("locale", "zh-Hant-TW")) == nil)
        #expect(try Self.failingField(Self.with("locale", String(repeating: "a", count: 35))) == nil)
    }

    @Test("a step twice in the drafts is reported with its index")
    func duplicateDraft() throws {
        let o = Self.with("drafts", [["step": "feelings", "value": "a"], ["step": "other", "value": "b"], ["step": "feelings", "value": "c"]])
        let error = try #require(throws: SaveValidationError.self) { try SessionSave.decodeValidated(from: Self.data(o)) }
        #expect(error.field == "drafts[2].step")
        #expect(error.reason.contains("feelings"))
        #expect(error.description.contains("drafts[2].step"))
    }

    @Test("a step twice in the answers is reported with its index")
    func duplicateAnswer() throws {
        let o = Self.with("answers", [["step": "pre", "value": 1], ["step": "pre", "value": 2]])
        #expect(try Self.failingField(o) == "answers[1].step")
    }

    @Test("the same step in answers and in drafts is allowed")
    func sameStepInBothLists() throws {
        let o = Self.with("drafts", [["step": "pre", "value": 3]])
        #expect(try Self.failingField(o) == nil)
    }

    @Test("oversize values are reported with the entry's index")
    func oversizeValues() throws {
        let manyIDs = (0...100).map { "o\($0)" } // 101 ids
        #expect(try Self.failingField(Self.with("answers", [["step": "a", "value": "x"], ["step": "b", "value": ["choices": manyIDs]]]))
                == "answers[1].value")
        #expect(try Self.failingField(Self.with("answers", [["step": "a", "value": ["choices": (0..<100).map { "o\($0)" }]]])) == nil)
        #expect(try Self.failingField(Self.with("drafts", [["step": "a", "value": ["choice": String(repeating: "c", count: 65)]]]))
                == "drafts[0].value")
        #expect(try Self.failingField(Self.with("answers", [["step": "a", "value": ["choices": ["ok", String(repeating: "c", count: 65)]]]]))
                == "answers[0].value")
        let bigChecklist = Dictionary(uniqueKeysWithValues: (0...100).map { ("i\($0)", "done") })
        #expect(try Self.failingField(Self.with("answers", [["step": "a", "value": ["checklist": bigChecklist]]])) == "answers[0].value")
        let longText = String(repeating: "é", count: SessionSave.maxTextBytes / 2) + "x"
        #expect(try Self.failingField(Self.with("answers", [["step": "a", "value": longText]])) == "answers[0].value")
        #expect(try Self.failingField(Self.with("answers", [["step": "a", "value": String(longText.dropLast())]])) == nil)
    }

    @Test("more than 1000 answers is refused")
    func tooManyAnswers() throws {
        let entries = (0...1000).map { ["step": "s\($0)", "value": 1] as [String: Any] }
        #expect(try Self.failingField(Self.with("answers", entries)) == "answers")
        #expect(try Self.failingField(Self.with("answers", Array(entries.dropLast()))) == nil)
    }

    @Test("an invalid step id is reported at its place")
    func badStepID() throws {
        let o = Self.with("answers", [["step": "pre", "value": 1], ["step": "Bad Step", "value": 2]])
        #expect(try Self.failingField(o) == "answers[1].step")
    }

    @Test("a malformed answer value is reported at its place")
    func badValue() throws {
        #expect(try Self.failingField(Self.with("answers", [["step": "pre", "value": ["ack": false]]])) == "answers[0].value")
        let field = try Self.failingField(Self.with("drafts", [["step": "pre", "value": ["checklist": ["a": "finished"]]]]))
        #expect(field?.hasPrefix("drafts[0].value") == true, "\(field ?? "nil")")
    }

    @Test("top-level fields are named when wrong", arguments: [
        ("format", "2"), ("flow", #""""#), ("flow", "\"" + String(repeating: "f", count: 129) + "\""), ("seed", "-1"),
        ("seed", #""abc""#), ("now", #""yesterday""#), ("now", #""2026-11-22T08:30:00""#), ("mood", #""meh""#),
        ("flowVersion", #""three""#), ("answers", #""none""#),
    ])
    func badTopLevel(key: String, json: String) throws {
        let bad = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        #expect(try Self.failingField(Self.with(key, bad)) == key)
    }

    @Test("missing required fields are named", arguments: ["format", "flow", "flowVersion", "seed", "now", "answers"])
    func missingField(key: String) throws {
        var o = Self.base()
        o[key] = nil
        let error = try #require(throws: SaveValidationError.self) { try SessionSave.decodeValidated(from: Self.data(o)) }
        #expect(error.field == key)
        #expect(error.reason == "missing")
    }

    @Test("text that is not JSON is refused without a field")
    func notJSON() {
        let error = #expect(throws: SaveValidationError.self) {
            try SessionSave.decodeValidated(from: Data("not json".utf8))
        }
        #expect(error?.field == "")
        #expect(error?.description.hasPrefix("invalid session save: ") == true)
    }
}

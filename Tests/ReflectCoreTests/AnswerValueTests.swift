import Foundation
import Testing
@testable import ReflectCore

@Suite("AnswerValue JSON")
struct AnswerValueTests {
    private static func encode(_ v: AnswerValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(v), as: UTF8.self)
    }

    private static func decode(_ json: String) throws -> AnswerValue {
        try JSONDecoder().decode(AnswerValue.self, from: Data(json.utf8))
    }

    @Test("every case encodes to its documented JSON and decodes back", arguments: [
        (AnswerValue.text("I froze"), #""I froze""#),
        (.integer(7), "7"),
        (.boolean(true), "true"),
        (.boolean(false), "false"),
        (.choice("calm"), #"{"choice":"calm"}"#),
        (.choices(["numb", "calm"]), #"{"choices":["numb","calm"]}"#),
        (.checklist(["walk": .partly, "water": .done, "call": .skip]), #"{"checklist":{"call":"skip","walk":"partly","water":"done"}}"#),
        (.acknowledged, #"{"ack":true}"#),
        (.skipped, #"{"skipped":true}"#),
    ])
    func roundTrip(value: AnswerValue, json: String) throws {
        #expect(try Self.encode(value) == json)
        #expect(try Self.decode(json) == value)
    }

    @Test("values that look like other cases keep their own case", arguments: [
        AnswerValue.integer(0), .integer(1), .integer(-3), .text("true"), .text("7"), .text(""), .text("{\"ack\":true}"),
        .choice(""), .choices([]), .checklist([:]), .text("いつも😀"), .number(7.5), .number(0.25),
    ])
    func ambiguousValuesRoundTrip(value: AnswerValue) throws {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(AnswerValue.self, from: data) == value)
    }

    @Test("malformed answers are refused", arguments: [
        #"{"ack":false}"#, #"{"skipped":false}"#, #"{"choice":"a","choices":["a"]}"#, "{}", #"{"other":1}"#,
        // 7.5 is a number prompt's answer now (AnswerValue.number); see NumberScaleTests.
        "null", "[1,2]", #"{"choice":7}"#, #"{"checklist":{"a":"finished"}}"#, #"{"choices":"a"}"#,
    ])
    func malformed(json: String) {
        #expect(throws: (any Error).self) { try Self.decode(json) }
    }
}

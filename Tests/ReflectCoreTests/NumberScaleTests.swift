import Foundation
import Testing
@testable import ReflectCore

@Suite("Number prompts: NumberScale and PromptShape")
struct NumberScaleTests {
    static let sleep = PromptShape(kind: .number, scale: NumberScale(min: 0, max: 24, step: 0.25))
    static let mood = PromptShape(kind: .number, scale: NumberScale(min: 1, max: 10))

    private func value(_ r: Result<AnswerValue, InvalidAnswer>) -> AnswerValue? {
        if case .success(let v) = r { return v }
        return nil
    }

    @Test("values on the scale are taken as numbers or text, with a decimal point or comma; whole ones are integers", arguments: [
        (AnswerInput.number(6.75), AnswerValue.number(6.75)), (.text("7.5"), .number(7.5)), (.text(" 7,25 "), .number(7.25)),
        (.number(8), .integer(8)), (.text("0"), .integer(0)), (.number(24), .integer(24)), (.text("8.00"), .integer(8)),
    ])
    func accepted(input: AnswerInput, expected: AnswerValue) {
        #expect(value(Self.sleep.validate(input)) == expected)
    }

    @Test("off the scale, between steps, non-numeric and non-finite answers are refused with the range and step", arguments: [
        AnswerInput.number(7.3), .number(-0.25), .number(24.25), .number(.nan), .number(.infinity), .text("seven"),
        .text("7..5"), .text("7,5,0"), .text(""), .boolean(true), .choose("7"),
    ])
    func refused(input: AnswerInput) {
        guard case .failure(let e) = Self.sleep.validate(input) else {
            Issue.record("\(input) was taken")
            return
        }
        #expect(e.code == "number_range")
        #expect(e.arguments == ["0", "24", "0.25"])
        #expect(e.message == "Please enter a number from 0 to 24, in steps of 0.25.")
    }

    @Test("a 1–10 scale refuses 0, 11 and halves")
    func wholeScale() {
        #expect(value(Self.mood.validate(.number(1))) == .integer(1))
        #expect(value(Self.mood.validate(.number(10))) == .integer(10))
        for bad in [0.0, 11, 5.5] { #expect(value(Self.mood.validate(.number(bad))) == nil, "\(bad)") }
    }

    @Test("a stored answer fits only the scale it came from")
    func accepts() {
        #expect(Self.sleep.accepts(.number(6.75)))
        #expect(Self.sleep.accepts(.integer(7)))
        #expect(!Self.sleep.accepts(.number(6.8)))
        #expect(!Self.mood.accepts(.number(6.5)))
        #expect(!Self.mood.accepts(.integer(0)))
        #expect(!Self.mood.accepts(.text("7")))
        #expect(!PromptShape(kind: .intensity).accepts(.number(6.5)))
    }

    @Test("answers round-trip through JSON unchanged: a decimal stays a decimal, a whole number an integer")
    func json() throws {
        for v: AnswerValue in [.number(6.75), .number(0.1), .integer(7)] {
            let data = try JSONEncoder().encode(v)
            #expect(try JSONDecoder().decode(AnswerValue.self, from: data) == v)
        }
        #expect(String(decoding: try JSONEncoder().encode(AnswerValue.number(6.75)), as: UTF8.self) == "6.75")
        #expect(try JSONDecoder().decode(AnswerValue.self, from: Data("7.0".utf8)) == .integer(7))
    }

    @Test("bad scales are named: min not below max, step not above 0 or finer than six decimals, max not reached in whole steps, too many values")
    func problems() {
        #expect(NumberScale.problem(min: 0, max: 24, step: 0.25) == nil)
        #expect(NumberScale.problem(min: 0, max: 1, step: 0.1) == nil)
        #expect(NumberScale.problem(min: 5, max: 5, step: 1)?.contains("below max") == true)
        #expect(NumberScale.problem(min: 0, max: 10, step: 0)?.contains("above 0") == true)
        #expect(NumberScale.problem(min: 0, max: 10, step: 3)?.contains("whole number of steps") == true)
        #expect(NumberScale.problem(min: 0, max: 0.05, step: 0.000001) == nil)
        #expect(NumberScale.problem(min: 0, max: 1, step: 1e-9) == "step (1e-09) must be at least 0.000001: values are shown with at most six decimals")
        #expect(NumberScale.problem(min: 0, max: 1e-299, step: 1e-300)?.contains("steps of 0") == false, "a step is never shown as 0")
        #expect(NumberScale.problem(min: 0, max: 1, step: 0.000002)?.contains("more than") == true)
        #expect(NumberScale.problem(min: 0, max: .infinity, step: 1)?.contains("finite") == true)
    }

    @Test("a typed number is never taken as another value of a scale with large steps; scales beyond ±1e9 are refused")
    func largeSteps() {
        let big = PromptShape(kind: .number, scale: NumberScale(min: 0, max: 1e9, step: 1e7))
        #expect(value(big.validate(.text("5"))) == nil, "5 is not 0")
        #expect(value(big.validate(.number(9_999_999))) == nil)
        #expect(value(big.validate(.text("10000000"))) == .integer(10_000_000))
        #expect(value(big.validate(.text("0"))) == .integer(0))
        #expect(NumberScale.problem(min: -9.223372036854775808e18, max: 9.223372036854775808e18, step: 9.223372036854775808e18)?
                    .contains("within ±1000000000") == true)
        #expect(NumberScale.problem(min: -1e9, max: 1e9, step: 1e5) == nil)
        #expect(NumberScale.format(1e20) == "100000000000000000000")
    }

    @Test("a text prompt with max_chars counts characters, not bytes")
    func maxCharacters() {
        let shape = PromptShape(kind: .text, maxCharacters: 5)
        #expect(value(shape.validate(.text("äöüßé"))) == .text("äöüßé"))
        guard case .failure(let e) = shape.validate(.text("abcdef")) else {
            Issue.record("6 characters taken")
            return
        }
        #expect(e.code == "too_many_characters")
        #expect(e.arguments == ["5", "6"])
        #expect(!shape.accepts(.text("abcdef")))
    }
}

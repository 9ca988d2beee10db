import Foundation
import Testing
@testable import ReflectCore

/// The error code of a failed validation, or nil when it succeeded.
private func code(_ r: Result<AnswerValue, InvalidAnswer>) -> String? {
    if case .failure(let e) = r { return e.code }
    return nil
}

private func value(_ r: Result<AnswerValue, InvalidAnswer>) -> AnswerValue? {
    if case .success(let v) = r { return v }
    return nil
}

@Suite("PromptShape.validate")
struct PromptShapeValidateTests {
    // MARK: text

    @Test("text takes any string up to 20 000 bytes")
    func text() {
        let shape = PromptShape(kind: .text)
        #expect(value(shape.validate(.text("I missed the bus"))) == .text("I missed the bus"))
        #expect(value(PromptShape(kind: .text, required: false).validate(.text(""))) == .text(""))
        // Required: blank text and a NUL are refused (issue 12, items 6 and 9).
        for blank in ["", "   ", "\t\n", "\u{3000}", "\u{200B}"] { #expect(code(shape.validate(.text(blank))) == "required") }
        #expect(code(shape.validate(.text("a\u{0}b"))) == "nul")
        let max = String(repeating: "é", count: SessionSave.maxTextBytes / 2) // 2 bytes each
        #expect(value(shape.validate(.text(max))) == .text(max))
        #expect(code(shape.validate(.text(max + "a"))) == "too_long")
    }

    @Test("text refuses numbers, booleans, choices and acknowledgements")
    func textRefusesOthers() {
        let shape = PromptShape(kind: .text)
        for input: AnswerInput in [.number(3), .boolean(true), .choose("a"), .chooseMany(["a"]), .checklist([:]), .acknowledge] {
            #expect(code(shape.validate(input)) == "text_expected", "\(input)")
        }
    }

    // MARK: intensity

    @Test("intensity takes a whole number 0–10, as a number or numeric text", arguments: [
        (AnswerInput.text("7"), 7), (.number(7.0), 7), (.number(0), 0), (.number(10), 10), (.text(" 3 "), 3), (.text("10"), 10),
    ])
    func intensityAccepted(input: AnswerInput, expected: Int) {
        #expect(value(PromptShape(kind: .intensity).validate(input)) == .integer(expected))
    }

    @Test("intensity refuses out-of-range, fractional, non-numeric and NaN answers", arguments: [
        AnswerInput.number(11), .number(7.5), .text("abc"), .number(.nan), .number(-1), .number(.infinity),
        .text("7.5"), .text("11"), .text(""), .text("seven"), .boolean(true), .choose("7"), .acknowledge,
    ])
    func intensityRefused(input: AnswerInput) {
        #expect(code(PromptShape(kind: .intensity).validate(input)) == "intensity_range")
    }

    // MARK: yes/no

    @Test("yes/no takes a boolean or yes/no words in any case", arguments: [
        (AnswerInput.boolean(true), true), (.boolean(false), false), (.text("yes"), true), (.text("Y"), true),
        (.text(" YES "), true), (.text("true"), true), (.text("no"), false), (.text("N"), false), (.text("False"), false),
    ])
    func yesNoAccepted(input: AnswerInput, expected: Bool) {
        #expect(value(PromptShape(kind: .yesNo).validate(input)) == .boolean(expected))
    }

    @Test("yes/no refuses other words and kinds", arguments: [
        AnswerInput.text("maybe"), .text("yess"), .text(""), .text("1"), .number(1), .choose("yes"), .acknowledge,
    ])
    func yesNoRefused(input: AnswerInput) {
        #expect(code(PromptShape(kind: .yesNo).validate(input)) == "yes_no")
    }

    // MARK: single choice

    static let options = ["calm", "tense", "numb"]

    @Test("a single choice takes a known id, or its 1-based number")
    func singleChoice() {
        let shape = PromptShape(kind: .singleChoice, optionIDs: Self.options)
        #expect(value(shape.validate(.choose("tense"))) == .choice("tense"))
        #expect(value(shape.validate(.text("numb"))) == .choice("numb"))
        #expect(value(shape.validate(.text("1"))) == .choice("calm"))
        #expect(value(shape.validate(.text(" 3 "))) == .choice("numb"))
        #expect(value(shape.validate(.choose("2"))) == .choice("tense"))
    }

    @Test("a single choice refuses unknown ids, out-of-range numbers and other kinds", arguments: [
        AnswerInput.choose("angry"), .text("0"), .text("4"), .text("-1"), .text("Calm"), .text(""), .number(1),
        .chooseMany(["calm"]), .boolean(true),
    ])
    func singleChoiceRefused(input: AnswerInput) {
        let shape = PromptShape(kind: .singleChoice, optionIDs: Self.options)
        #expect(code(shape.validate(input)) == "choice_unknown")
    }

    @Test("an option id that looks like a number is taken as the id, not as a position")
    func numericIDs() {
        let shape = PromptShape(kind: .singleChoice, optionIDs: ["2", "1"])
        #expect(value(shape.validate(.text("1"))) == .choice("1"))
        #expect(value(shape.validate(.text("2"))) == .choice("2"))
    }

    // MARK: multi choice

    @Test("a multi choice keeps distinct known ids in the order given")
    func multiChoice() {
        let shape = PromptShape(kind: .multiChoice, optionIDs: Self.options)
        #expect(value(shape.validate(.chooseMany(["numb", "calm"]))) == .choices(["numb", "calm"]))
        #expect(value(shape.validate(.chooseMany(["numb", "numb", "3", "calm"]))) == .choices(["numb", "calm"]))
        #expect(value(shape.validate(.choose("tense"))) == .choices(["tense"]))
        #expect(value(shape.validate(.text("1, 3"))) == .choices(["calm", "numb"]))
        #expect(value(shape.validate(.text("tense numb,calm"))) == .choices(["tense", "numb", "calm"]))
    }

    @Test("a multi choice refuses an unknown id anywhere in the list")
    func multiChoiceUnknown() {
        let shape = PromptShape(kind: .multiChoice, optionIDs: Self.options)
        #expect(code(shape.validate(.chooseMany(["calm", "angry"]))) == "choice_unknown")
        #expect(code(shape.validate(.text("1, 9"))) == "choice_unknown")
        #expect(code(shape.validate(.number(1))) == "choice_unknown")
    }

    @Test("an empty multi choice is refused when required and taken when optional")
    func multiChoiceEmpty() {
        let required = PromptShape(kind: .multiChoice, optionIDs: Self.options, required: true)
        let optional = PromptShape(kind: .multiChoice, optionIDs: Self.options, required: false)
        #expect(code(required.validate(.chooseMany([]))) == "required")
        #expect(code(required.validate(.text(" , "))) == "required")
        #expect(value(optional.validate(.chooseMany([]))) == .choices([]))
    }

    // MARK: checklist

    static let items = ["water", "walk", "call"]

    @Test("a checklist with a valid mark for every item is taken")
    func checklistComplete() {
        let shape = PromptShape(kind: .checklist, optionIDs: Self.items)
        let r = shape.validate(.checklist(["water": "done", "walk": "partly", "call": "skip"]))
        #expect(value(r) == .checklist(["water": .done, "walk": .partly, "call": .skip]))
    }

    @Test("a checklist missing an item is incomplete")
    func checklistIncomplete() {
        let shape = PromptShape(kind: .checklist, optionIDs: Self.items)
        #expect(code(shape.validate(.checklist(["water": "done", "walk": "done"]))) == "checklist_incomplete")
        #expect(code(shape.validate(.checklist([:]))) == "checklist_incomplete")
        #expect(code(shape.validate(.text("done"))) == "checklist_incomplete")
    }

    @Test("checklist marks may be typed in any case or abbreviated (English words by default)")
    func checklistMarkWords() {
        let shape = PromptShape(kind: .checklist, optionIDs: Self.items)
        let r = shape.validate(.checklist(["water": "DONE", "walk": " p ", "call": "S"]))
        #expect(value(r) == .checklist(["water": .done, "walk": .partly, "call": .skip]))
    }

    @Test("a checklist with an unknown mark is refused")
    func checklistBadMark() {
        let shape = PromptShape(kind: .checklist, optionIDs: Self.items)
        #expect(code(shape.validate(.checklist(["water": "done", "walk": "finished", "call": "skip"]))) == "checklist_mark")
        #expect(code(shape.validate(.checklist(["water": "maybe", "walk": "done", "call": "done"]))) == "checklist_mark")
        #expect(code(shape.validate(.checklist(["water": "", "walk": "done", "call": "done"]))) == "checklist_mark")
    }

    @Test("a prompt takes the yes/no and mark words of its language as well as English")
    func localisedWords() {
        let german = AnswerWords(yes: ["ja", "j"], no: ["nein"], done: ["erledigt", "e"], partly: ["teilweise", "t"],
                                 skip: ["übersprungen", "ü"]).merged(with: .english)
        let yesNo = PromptShape(kind: .yesNo, words: german)
        #expect(value(yesNo.validate(.text("Ja"))) == .boolean(true))
        #expect(value(yesNo.validate(.text("NEIN"))) == .boolean(false))
        #expect(value(yesNo.validate(.text("yes"))) == .boolean(true))
        #expect(code(yesNo.validate(.text("doch vielleicht"))) == "yes_no")
        let checklist = PromptShape(kind: .checklist, optionIDs: Self.items, words: german)
        let r = checklist.validate(.checklist(["water": "Erledigt", "walk": "teilweise", "call": "Ubersprungen"]))
        #expect(value(r) == .checklist(["water": .done, "walk": .partly, "call": .skip]))
        // Without the German words those are not marks.
        #expect(code(PromptShape(kind: .checklist, optionIDs: Self.items).validate(.checklist(["water": "erledigt", "walk": "done", "call": "done"])))
                == "checklist_mark")
    }

    @Test("a checklist with an item not on the list is refused, naming the item")
    func checklistUnknownItem() throws {
        let shape = PromptShape(kind: .checklist, optionIDs: Self.items)
        let r = shape.validate(.checklist(["water": "done", "walk": "done", "call": "done", "swim": "done"]))
        guard case .failure(let e) = r else { Issue.record("expected a failure, got \(r)"); return }
        #expect(e.code == "checklist_item")
        #expect(e.message.contains("swim"))
    }

    // MARK: action and message

    @Test("an action is acknowledged by {done}, an empty line or the word done")
    func actionAcknowledged() {
        let shape = PromptShape(kind: .action)
        for input: AnswerInput in [.acknowledge, .text(""), .text("   "), .text("done"), .text("Done")] {
            #expect(value(shape.validate(input)) == .acknowledged, "\(input)")
        }
    }

    @Test("an action refuses other text and kinds")
    func actionRefused() {
        let shape = PromptShape(kind: .action)
        for input: AnswerInput in [.text("not yet"), .text("yes"), .boolean(true), .number(1), .choose("done")] {
            #expect(code(shape.validate(input)) == "ack_expected", "\(input)")
        }
    }

    @Test("'done' with surrounding spaces acknowledges an action, like an empty line does")
    func actionDoneWithSpaces() {
        let shape = PromptShape(kind: .action)
        #expect(value(shape.validate(.text(" done "))) == .acknowledged)
    }

    @Test("a message is acknowledged by {ack}, Enter or the word done, like an action; typed text is refused, never silently dropped")
    func message() {
        let shape = PromptShape(kind: .message)
        #expect(value(shape.validate(.acknowledge)) == .acknowledged)
        #expect(value(shape.validate(.text(""))) == .acknowledged)
        #expect(value(shape.validate(.text("  "))) == .acknowledged)
        #expect(value(shape.validate(.text("done"))) == .acknowledged)
        // Words typed at a message would not be kept: refused, so the person knows.
        #expect(code(shape.validate(.text("ok whatever"))) == "ack_expected")
        #expect(code(shape.validate(.text("Dear part of me that wants comfort food"))) == "ack_expected")
        #expect(code(shape.validate(.boolean(true))) == "ack_expected")
        #expect(code(shape.validate(.number(2))) == "ack_expected")
    }

    @Test("an action with a button is acknowledged by the button's label or its number, as shown")
    func actionButton() {
        let shape = PromptShape(kind: .action, optionIDs: ["done"], optionLabels: ["Start My Day"])
        #expect(value(shape.validate(.text("Start my day"))) == .acknowledged)
        #expect(value(shape.validate(.text("1"))) == .acknowledged)
        #expect(code(shape.validate(.text("not yet"))) == "ack_expected")
    }

    // MARK: commands

    @Test("skip is refused when the prompt is required and gives .skipped when optional", arguments: PromptKind.allCases)
    func skip(kind: PromptKind) {
        #expect(code(PromptShape(kind: kind, optionIDs: ["a"], required: true).validate(.command(.skip))) == "required")
        #expect(value(PromptShape(kind: kind, optionIDs: ["a"], required: false).validate(.command(.skip))) == .skipped)
    }

    @Test("other commands are not answers", arguments: [SessionCommand.back, .keep, .quit])
    func otherCommands(command: SessionCommand) {
        for kind in PromptKind.allCases {
            #expect(code(PromptShape(kind: kind, optionIDs: ["a"], required: false).validate(.command(command))) == "command")
        }
    }
}

@Suite("PromptShape.accepts")
struct PromptShapeAcceptsTests {
    @Test("each kind accepts its own stored value")
    func ownValues() {
        #expect(PromptShape(kind: .text).accepts(.text("x")))
        #expect(PromptShape(kind: .intensity).accepts(.integer(0)))
        #expect(PromptShape(kind: .intensity).accepts(.integer(10)))
        #expect(PromptShape(kind: .yesNo).accepts(.boolean(false)))
        #expect(PromptShape(kind: .singleChoice, optionIDs: ["a", "b"]).accepts(.choice("b")))
        #expect(PromptShape(kind: .multiChoice, optionIDs: ["a", "b"]).accepts(.choices(["b", "a"])))
        #expect(PromptShape(kind: .checklist, optionIDs: ["a", "b"]).accepts(.checklist(["a": .done, "b": .skip])))
        #expect(PromptShape(kind: .action).accepts(.acknowledged))
        #expect(PromptShape(kind: .message).accepts(.acknowledged))
    }

    @Test("values that no longer fit the prompt are refused")
    func misfits() {
        #expect(!PromptShape(kind: .intensity).accepts(.integer(11)))
        #expect(!PromptShape(kind: .intensity).accepts(.integer(-1)))
        #expect(!PromptShape(kind: .singleChoice, optionIDs: ["a", "b"]).accepts(.choice("c")))
        #expect(!PromptShape(kind: .multiChoice, optionIDs: ["a", "b"]).accepts(.choices(["a", "c"])))
        #expect(!PromptShape(kind: .multiChoice, optionIDs: ["a", "b"]).accepts(.choices(["a", "a"])))
        #expect(!PromptShape(kind: .checklist, optionIDs: ["a", "b"]).accepts(.checklist(["a": .done])))
        #expect(!PromptShape(kind: .checklist, optionIDs: ["a", "b"]).accepts(.checklist(["a": .done, "b": .done, "c": .done])))
    }

    @Test("a value of another kind is refused")
    func wrongKind() {
        #expect(!PromptShape(kind: .text).accepts(.integer(3)))
        #expect(!PromptShape(kind: .intensity).accepts(.text("3")))
        #expect(!PromptShape(kind: .yesNo).accepts(.text("yes")))
        #expect(!PromptShape(kind: .singleChoice, optionIDs: ["a"]).accepts(.choices(["a"])))
        #expect(!PromptShape(kind: .multiChoice, optionIDs: ["a"]).accepts(.choice("a")))
        #expect(!PromptShape(kind: .message).accepts(.text("ok")))
        #expect(!PromptShape(kind: .action).accepts(.boolean(true)))
    }

    @Test("a skipped value fits only an optional prompt", arguments: PromptKind.allCases)
    func skipped(kind: PromptKind) {
        #expect(PromptShape(kind: kind, required: false).accepts(.skipped))
        #expect(!PromptShape(kind: kind, required: true).accepts(.skipped))
    }

    @Test("whatever validate returns, accepts takes back", arguments: PromptKind.allCases)
    func validateThenAccepts(kind: PromptKind) {
        let inputs: [AnswerInput] = [.text("x"), .text("7"), .text("yes"), .text("2"), .text("a, b"), .text(""),
                                     .number(3), .boolean(true), .choose("a"), .chooseMany(["b", "a"]),
                                     .checklist(["a": "done", "b": "partly"]), .acknowledge, .command(.skip)]
        for required in [true, false] {
            let shape = PromptShape(kind: kind, optionIDs: ["a", "b"], required: required)
            for input in inputs {
                if case .success(let v) = shape.validate(input) {
                    #expect(shape.accepts(v), "\(kind) required=\(required): \(input) → \(v)")
                }
            }
        }
    }

    @Test("an empty multi choice is not accepted for a required prompt, as validate refuses it")
    func emptyChoicesRequired() {
        let shape = PromptShape(kind: .multiChoice, optionIDs: ["a", "b"], required: true)
        #expect(code(shape.validate(.chooseMany([]))) == "required")
        #expect(!shape.accepts(.choices([])))
    }
}

/// Issue 18, item 7: numbers and options as people type them.
@Suite("PromptShape: typed numbers and labels")
struct PromptShapeTypedTests {
    @Test("full-width digits are numbers for intensities and choices; a label chooses its option")
    func fullWidthAndLabels() {
        #expect(value(PromptShape(kind: .intensity).validate(.text("７"))) == .integer(7))
        #expect(value(PromptShape(kind: .intensity).validate(.text("１０"))) == .integer(10))
        #expect(code(PromptShape(kind: .intensity).validate(.text("１１"))) == "intensity_range")
        let one = PromptShape(kind: .singleChoice, optionIDs: ["walk", "call"], optionLabels: ["A walk", "Llamar a alguien"])
        #expect(value(one.validate(.text("２"))) == .choice("call"))
        #expect(value(one.validate(.text("llamar a ALGUIEN"))) == .choice("call"))
        #expect(value(one.validate(.text("a walk "))) == .choice("walk"))
        #expect(code(one.validate(.text("a run"))) == "choice_unknown")
        let many = PromptShape(kind: .multiChoice, optionIDs: ["tea", "nap", "music"], optionLabels: ["Tea", "A nap", "Música"])
        #expect(value(many.validate(.text("１、３"))) == .choices(["tea", "music"]))
        #expect(value(many.validate(.text("A nap"))) == .choices(["nap"]))
        #expect(value(many.validate(.text("a nap, musica"))) == .choices(["nap", "music"]))
    }

    @Test("digits of every script count as full-width ones do: Arabic-Indic, Persian, Devanagari, Bengali, Thai")
    func decimalDigitsOfAnyScript() {
        let intensity = PromptShape(kind: .intensity)
        #expect(value(intensity.validate(.text("٧"))) == .integer(7))         // Arabic-Indic
        #expect(value(intensity.validate(.text("١٠"))) == .integer(10))
        #expect(value(intensity.validate(.text("۳"))) == .integer(3))         // Persian (Extended Arabic-Indic)
        #expect(value(intensity.validate(.text("७"))) == .integer(7))         // Devanagari
        #expect(value(intensity.validate(.text("৫"))) == .integer(5))         // Bengali
        #expect(value(intensity.validate(.text("๘"))) == .integer(8))         // Thai
        #expect(code(intensity.validate(.text("١١"))) == "intensity_range")
        // Numerals that are not decimal digits are still not numbers.
        #expect(code(intensity.validate(.text("Ⅶ"))) == "intensity_range")
        #expect(code(intensity.validate(.text("七"))) == "intensity_range")
        let sleep = PromptShape(kind: .number, scale: NumberScale(min: 0, max: 24, step: 0.25))
        #expect(value(sleep.validate(.text("٧٫٥"))) == .number(7.5))         // Arabic decimal separator
        #expect(value(sleep.validate(.text("７．２５"))) == .number(7.25))
        #expect(value(sleep.validate(.text("８"))) == .integer(8))
        let one = PromptShape(kind: .singleChoice, optionIDs: ["walk", "call"])
        #expect(value(one.validate(.text("٢"))) == .choice("call"))
        let many = PromptShape(kind: .multiChoice, optionIDs: ["tea", "nap", "music"])
        #expect(value(many.validate(.text("١، ٣"))) == .choices(["tea", "music"]))
    }
}

import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

private let sleepFlow = source("flows/test/sleep.lua", """
    return flow {
      id = "test.sleep", version = 1,
      run = function(s)
        local h = s:number { id = "hours", text = "How long did you sleep?", min = 0, max = 24, step = 0.25,
                             min_label = "not at all", max_label = "all day" }
        local q = s:number { id = "quality", text = "How well?", min = 1, max = 10 }
        s:message { id = "bye", text = "You slept " .. h .. " hours (" .. math.type(h) .. "), quality " .. q .. " (" .. math.type(q) .. ")" }
      end,
    }
    """)

@Suite("s:number")
struct NumberPromptTests {
    @Test("a number prompt shows its scale and hands the flow a float for quarter hours and an integer for whole values")
    func roundTrip() throws {
        let session = try FlowSession.open(sleepFlow, options: options())
        let first = try #require(session.current)
        #expect(first.kind == .number)
        #expect(first.scale == NumberScale(min: 0, max: 24, step: 0.25, minLabel: "not at all", maxLabel: "all day"))
        let events = try drive(session, [.number(7.3), .text("6,75"), .text("7")])
        #expect(events.compactMap { if case .invalid(_, let code, _) = $0 { code } else { nil } } == ["number_range"])
        #expect(session.save.answers.map(\.value) == [.number(6.75), .integer(7)])
        #expect(session.current?.text == "You slept 6.75 hours (float), quality 7 (integer)")
    }

    @Test("the prompt event carries the scale and its labels; invalid names the range in the session's language")
    func jsonAndLocalizedMessage() throws {
        let session = try FlowSession.open(sleepFlow, language: try english(), options: options())
        let data = try JSONEncoder().encode(session.openingEvents.last)
        let line = String(decoding: data, as: UTF8.self)
        #expect(line.contains("\"scale\":{"))
        #expect(line.contains("\"min_label\":\"not at all\""))
        #expect(line.contains("\"step\":0.25"))
        let invalid = try session.answer(.number(30))
        #expect(invalid.contains(.invalid(step: "hours", code: "number_range", message: "Please enter a number from 0 to 24, in steps of 0.25.")))
        let german = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: "de")
        let de = try FlowSession.open(sleepFlow, language: german, options: options())
        let refused = try de.answer(.number(30))
        #expect(refused.contains(.invalid(step: "hours", code: "number_range", message: "Bitte gib eine Zahl von 0 bis 24 ein, in Schritten von 0,25.")))
    }

    @Test("a number in a prompt's args or s:text is shown as the person's language writes it: 7,5 in German, 7.5 in English")
    func numbersInArgs() throws {
        let flow = source("flows/test/shown.lua", """
            return flow {
              id = "test.shown", version = 1,
              run = function(s)
                local h = s:number { id = "hours", text = "How long did you sleep?", min = 0, max = 24, step = 0.25 }
                local q = s:number { id = "quality", text = "How well?", min = 1, max = 10 }
                s:message { id = "bye", text = s:text("%@ of 10", q) .. " · " .. s:text("%@ hours", h) }
              end,
            }
            """)
        let german = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: "de")
        let de = try FlowSession.open(flow, language: german, options: options())
        try de.answer(.text("7,5"))
        try de.answer(.number(8))
        #expect(de.current?.text == "8 of 10 · 7,5 hours", "\(de.current?.text ?? "")")
        let argsFlow = source("flows/test/args.lua", """
            return flow {
              id = "test.args", version = 1,
              run = function(s)
                local h = s:number { id = "hours", text = "How long did you sleep?", min = 0, max = 24, step = 0.25 }
                s:message { id = "bye", text = "Slept %1$@ hours, quality %2$@", args = { h, 8 } }
              end,
            }
            """)
        let deArgs = try FlowSession.open(argsFlow, language: german, options: options())
        try deArgs.answer(.text("7,5"))
        #expect(deArgs.current?.text == "Slept 7,5 hours, quality 8", "\(deArgs.current?.text ?? "")")
        let en = try FlowSession.open(argsFlow, language: try english(), options: options())
        try en.answer(.number(7.5))
        #expect(en.current?.text == "Slept 7.5 hours, quality 8", "\(en.current?.text ?? "")")
    }

    @Test("a resumed session replays decimal answers onto the same scale")
    func replay() throws {
        let session = try FlowSession.open(sleepFlow, options: options())
        try session.answer(.number(8.5))
        let resumed = try FlowSession.open(sleepFlow, options: options(), resuming: session.save)
        #expect(resumed.current?.step == "quality")
        try resumed.answer(.number(3))
        #expect(resumed.current?.text == "You slept 8.5 hours (float), quality 3 (integer)")
    }

    @Test("a scale that cannot exist stops the flow at its line, naming the problem", arguments: [
        ("min = 5, max = 5", "must be below max"), ("min = 0, max = 10, step = 3", "whole number of steps"),
        ("min = 0, max = 10, step = -1", "above 0"), ("max = 10", "'min' and 'max' must be numbers"),
        ("min = 0, max = 10, step = 'x'", "'step' must be a number"),
        ("min = 0, max = 10, min_label = 3", "'min_label' must be a locale key or text"),
    ])
    func badScales(fields: String, message: String) throws {
        let bad = source("flows/test/bad.lua", """
            return flow { id = "test.bad", version = 1, run = function(s)
              s:number { id = "n", text = "How much?", \(fields) }
            end }
            """)
        do {
            _ = try FlowSession.open(bad, options: options())
            Issue.record("the flow ran")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
            #expect("\(error)".contains("flows/test/bad.lua:2"), "\(error)")
        }
    }
}

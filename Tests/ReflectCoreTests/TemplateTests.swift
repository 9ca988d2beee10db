import Testing
@testable import ReflectCore

@Suite("Template")
struct TemplateTests {
    @Test("%@ takes the next argument")
    func sequential() {
        let t = Template("You said “%@”, then %@.")
        #expect(t.pieces == [.text("You said “"), .argument(1), .text("”, then "), .argument(2), .text(".")])
        #expect(t.arguments == [1, 2])
        #expect(t.hasPlaceholders)
        #expect(t.render(["I failed", "you froze"]) == "You said “I failed”, then you froze.")
    }

    @Test("%2$@ takes argument 2, so a translation can reorder arguments")
    func positional() {
        let t = Template("%2$@ avant %1$@")
        #expect(t.pieces == [.argument(2), .text(" avant "), .argument(1)])
        #expect(t.arguments == [1, 2])
        #expect(t.render(["A", "B"]) == "B avant A")
    }

    @Test("a positional argument may repeat")
    func repeated() {
        let t = Template("%1$@, %1$@!")
        #expect(t.arguments == [1])
        #expect(t.render(["Hey"]) == "Hey, Hey!")
    }

    @Test("%% is a literal percent sign and takes no argument")
    func percentPercent() {
        let t = Template("100%% sure")
        #expect(t.pieces == [.text("100% sure")])
        #expect(t.arguments.isEmpty)
        #expect(!t.hasPlaceholders)
        #expect(t.render(["unused"]) == "100% sure")
        #expect(Template("%%@").render(["x"]) == "%@")
        #expect(Template("%%%@").render(["x"]) == "%x")
    }

    @Test("any other % is literal text", arguments: ["50% of days", "%d items", "ends with %", "%", "%0$@", "%100$@", "%$@", "%x$@", "%1$s"])
    func otherPercentIsLiteral(source: String) {
        let t = Template(source)
        #expect(t.arguments.isEmpty)
        #expect(t.render(["ARG"]) == source)
    }

    @Test("the highest positional number accepted is 99")
    func positionalBounds() {
        #expect(Template("%99$@").arguments == [99])
        #expect(Template("%1$@").arguments == [1])
    }

    @Test("a missing argument renders as empty text; extra arguments are ignored")
    func missingArguments() {
        let t = Template("You said: %@ (%2$@)")
        #expect(t.render(["x"]) == "You said: x ()")
        #expect(t.render([]) == "You said:  ()")
        #expect(t.render(["x", "y", "z"]) == "You said: x (y)")
    }

    @Test("text without placeholders renders unchanged and keeps its source")
    func plain() {
        let t = Template("How intense is it now?")
        #expect(t.source == "How intense is it now?")
        #expect(t.pieces == [.text("How intense is it now?")])
        #expect(t.render([]) == "How intense is it now?")
        #expect(Template("").pieces.isEmpty)
        #expect(Template("").render(["x"]) == "")
    }

    @Test("non-ASCII text around placeholders is kept intact")
    func unicode() {
        let t = Template("「%@」と書きました。%2$@")
        #expect(t.render(["いつも失敗する", "🙂"]) == "「いつも失敗する」と書きました。🙂")
    }

    @Test("arguments are inserted verbatim: a % in an argument is not interpreted")
    func argumentsVerbatim() {
        #expect(Template("%@ and %@").render(["%@", "100%%"]) == "%@ and 100%%")
    }
}

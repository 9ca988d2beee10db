import ReflectCore
import Testing
@testable import LuaHost
@testable import ReflectEngine

/// A prompt's table is read in one pass (``PromptFields``); this checks that
/// pass against the general reading, one lookup per field and
/// `FlowAPILimits.knownFields`, on many random tables of every kind.
@Suite("Prompt fields", .hangGuard)
struct PromptFieldsTests {
    @Test("one pass reads what field lookups read, and finds an unknown field exactly when knownFields refuses")
    func agreesWithLookups() {
        let names = ["id", "text", "args", "fallback", "hint", "required", "progress", "probe", "options", "items", "button",
                     "max_chars", "min", "max", "step", "min_label", "max_label", "requried", "titel", "Text", "", "id ",
                     "purpose", "inputs", "static", "timeout", "prompt", "framework", "distortion", "pre", "post", "final"]
        let values: [LuaValue] = ["q1", "reflection.negative.q1", 3, 2.5, true, false,
                                  .table(LuaTable(sequence: ["a", "b"])), .table(LuaTable())]
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        func draw(_ n: Int) -> Int {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return Int(x % UInt64(n))
        }
        for round in 0..<3000 {
            var fields: [LuaKey: LuaValue] = [:]
            for _ in 0..<(round % 9) { fields[.string(names[draw(names.count)])] = values[draw(values.count)] }
            if draw(4) == 0 { fields[.integer(Int64(draw(3) + 1))] = values[draw(values.count)] }
            let t = LuaTable(fields)
            // The same table where it crossed (read in place by host calls).
            let bytes = (try? LuaCodec.encode([.table(t)], owner: 1)) ?? []
            for kind in PromptKind.allCases {
                let read = PromptFields(t, kind: kind)
                bytes.withUnsafeBytes { b in
                    let view = LuaTableView(buffer: b, entries: 9, arrayCount: EncodedValue.u32(b, 1), fieldCount: EncodedValue.u32(b, 5), owner: 1)
                    let inPlace = PromptFields(view, kind: kind)
                    #expect(inPlace.id == read.id && inPlace.text == read.text && inPlace.args == read.args && inPlace.fallback == read.fallback)
                    #expect(inPlace.hint == read.hint && inPlace.required == read.required && inPlace.progress == read.progress)
                    #expect(inPlace.probe == read.probe && inPlace.list == read.list && inPlace.button == read.button)
                    #expect(inPlace.maxChars == read.maxChars && inPlace.hasUnknown == read.hasUnknown, "\(kind) \(t)")
                }
                let list = kind == .checklist ? "items" : "options"
                #expect(read.id == t["id"] && read.text == t["text"] && read.args == t["args"] && read.fallback == t["fallback"])
                #expect(read.hint == t["hint"] && read.required == t["required"] && read.progress == t["progress"] && read.probe == t["probe"])
                if PromptFields.hasList(kind) { #expect(read.list == t[list]) }
                if kind == .text {
                    // s:generate's and s:feedback's fields, read where they crossed,
                    // and any other name through the same lookup.
                    bytes.withUnsafeBytes { b in
                        let view = LuaTableView(buffer: b, entries: 9, arrayCount: EncodedValue.u32(b, 1), fieldCount: EncodedValue.u32(b, 5), owner: 1)
                        for names in [NamedFields.generate, NamedFields.feedback] {
                            let fields = NamedFields(view, names: names)
                            let strings = names.map(\.description)
                            for name in strings + strings + ["id", "text", "args", "requried", "", "id "] { #expect(fields[name] == t[name], "\(name) \(t)") }
                        }
                    }
                }
                if kind == .action { #expect(read.button == t["button"]) }
                if kind == .text { #expect(read.maxChars == t["max_chars"]) }
                var refused = false
                do { try FlowAPILimits.knownFields(t, PromptFields.known(for: kind), "s:ask") } catch { refused = true }
                #expect(read.hasUnknown == refused, "\(kind) \(t)")
            }
        }
    }
}

/// ``TextMemo`` (a run's memo of verdicts) gives what computing gives, for
/// random texts, repeats and more texts than it holds.
@Suite("Text memo")
struct TextMemoTests {
    @Test("remembered results equal computed ones, across clears")
    func agreesWithComputing() {
        var memo = TextMemo<Int>()
        var computed = 0
        var x: UInt64 = 0x5851_F42D_4C95_7F2D
        for _ in 0..<20_000 {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            let text = String(repeating: "é", count: Int(x % 3)) + "answer \(x % 150)"
            let got = memo.value(for: text) { computed += 1; return $0.utf8.count * 31 + $0.unicodeScalars.count }
            #expect(got == text.utf8.count * 31 + text.unicodeScalars.count)
        }
        #expect(computed < 20_000) // repeats were remembered
    }
}

import ReflectCore

/// Reads facts from a flow file's Lua text without running it, in one
/// linear pass (no regular expression, no backtracking): untrusted source
/// of any shape costs time proportional to its length.
///
/// The lexer knows Lua's comments (`--`, `--[==[ ]==]`), strings (quoted,
/// with escapes, and long brackets), names, numbers and punctuation. On top
/// of the token stream:
/// - ``header`` is the literal part of the `flow { ... }` declaration (the
///   last `flow {` / `flow({` in the file): `id`, `version`, `title`,
///   `moods`, `total`, each only when written as a literal. The catalog lists
///   and finds flows from it, so listing never runs a flow file.
/// - ``promptSteps`` are the step ids written literally as `id = "..."`
///   directly inside a prompt call's table (`s:ask { id = "x", ... }`; not
///   `id = "x" .. i`), with
///   their lines (what `reflect check` compares with the steps it reached).
package struct FlowSourceScanner {
    package struct Header: Sendable, Equatable {
        package var id: String?
        package var version: Int?
        package var title: String?
        package var moods: [Mood]?
        package var total: Int?
        /// The line of the `flow` call.
        package var line: Int?
    }

    package enum Token: Equatable {
        case name(String)
        case string(String)
        case number(String)
        case symbol(UInt8)
        case other
    }

    package private(set) var tokens: [(token: Token, line: Int)] = []

    /// Longest string literal kept as text (longer ones become `.other`).
    package static let maxLiteralBytes = 4_096

    package init(_ text: String) {
        let b = Array(text.utf8)
        let n = b.count
        var i = 0, line = 1
        func isNameStart(_ c: UInt8) -> Bool { (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 95 }
        func isNameByte(_ c: UInt8) -> Bool { isNameStart(c) || (c >= 48 && c <= 57) }
        /// `[==[` at i: the level, or nil.
        func longOpen(_ at: Int) -> Int? {
            guard at < n, b[at] == 91 else { return nil }
            var k = at + 1, level = 0
            while k < n, b[k] == 61 { level += 1; k += 1 }
            return k < n && b[k] == 91 ? level : nil
        }
        /// Skips a long bracket body from `at` (just after the opening); returns the end and its text.
        func longBody(_ at: Int, level: Int) -> (end: Int, text: [UInt8]) {
            var k = at
            while k < n {
                if b[k] == 10 { line += 1 }
                if b[k] == 93 {
                    var m = k + 1, l = 0
                    while m < n, b[m] == 61 { l += 1; m += 1 }
                    if l == level, m < n, b[m] == 93 { return (m + 1, Array(b[at..<k])) }
                }
                k += 1
            }
            return (n, Array(b[at..<n]))
        }
        while i < n {
            let c = b[i]
            if c == 10 { line += 1; i += 1; continue }
            if c == 32 || c == 9 || c == 13 || c == 11 || c == 12 { i += 1; continue }
            if c == 45, i + 1 < n, b[i + 1] == 45 {  // comment
                if let level = longOpen(i + 2) {
                    i = longBody(i + 4 + level, level: level).end
                } else {
                    while i < n, b[i] != 10 { i += 1 }
                }
                continue
            }
            let at = line
            if isNameStart(c) {
                let s = i
                while i < n, isNameByte(b[i]) { i += 1 }
                tokens.append((.name(String(decoding: b[s..<i], as: UTF8.self)), at))
                continue
            }
            if c >= 48 && c <= 57 {
                let s = i
                while i < n, isNameByte(b[i]) || b[i] == 46 { i += 1 }
                tokens.append((.number(String(decoding: b[s..<i], as: UTF8.self)), at))
                continue
            }
            if c == 34 || c == 39 {  // quoted string
                var out: [UInt8] = [], k = i + 1, plain = true
                func hex(_ x: UInt8) -> UInt32? {
                    switch x {
                    case 48...57: UInt32(x - 48)
                    case 97...102: UInt32(x - 87)
                    case 65...70: UInt32(x - 55)
                    default: nil
                    }
                }
                while k < n, b[k] != c, b[k] != 10 {
                    guard b[k] == 92, k + 1 < n else { out.append(b[k]); k += 1; continue }
                    // Lua's escapes, so a literal reads as Lua would read it.
                    let e = b[k + 1]
                    k += 2
                    switch e {
                    case 97: out.append(7)
                    case 98: out.append(8)
                    case 102: out.append(12)
                    case 110: out.append(10)
                    case 114: out.append(13)
                    case 116: out.append(9)
                    case 118: out.append(11)
                    case 92, 34, 39: out.append(e)
                    case 10: out.append(10); line += 1
                    case 122: while k < n, [32, 9, 10, 13, 11, 12].contains(b[k]) { if b[k] == 10 { line += 1 }; k += 1 }
                    case 120:  // \xXX
                        if k + 1 < n, let h = hex(b[k]), let l = hex(b[k + 1]) { out.append(UInt8(h * 16 + l)); k += 2 } else { plain = false }
                    case 48...57:  // \ddd
                        var v = UInt32(e - 48), d = 1
                        while d < 3, k < n, b[k] >= 48, b[k] <= 57 { v = v * 10 + UInt32(b[k] - 48); k += 1; d += 1 }
                        if v <= 255 { out.append(UInt8(v)) } else { plain = false }
                    case 117:  // \u{XXX}
                        var v: UInt32 = 0, ok = k < n && b[k] == 123
                        if ok { k += 1 }
                        while ok, k < n, let h = hex(b[k]), v < 0x110000 { v = v * 16 + h; k += 1 }
                        ok = ok && k < n && b[k] == 125
                        if ok, let scalar = Unicode.Scalar(v) { out += Array(String(Character(scalar)).utf8); k += 1 } else { plain = false }
                    default: plain = false
                    }
                }
                i = min(k + 1, n)
                tokens.append((plain && out.count <= Self.maxLiteralBytes ? .string(String(decoding: out, as: UTF8.self)) : .other, at))
                continue
            }
            if let level = longOpen(i) {
                let body = longBody(i + 2 + level, level: level)
                i = body.end
                tokens.append((.other, at))
                continue
            }
            tokens.append((.symbol(c), at))
            i += 1
        }
    }

    /// The literal fields of the last `flow { ... }` / `flow({ ... })`.
    package var header: Header {
        var start: Int?
        for k in tokens.indices where tokens[k].token == .name("flow") {
            if k + 1 < tokens.count, tokens[k + 1].token == .symbol(123) { start = k + 1 }
            if k + 2 < tokens.count, tokens[k + 1].token == .symbol(40), tokens[k + 2].token == .symbol(123) { start = k + 2 }
        }
        guard let open = start else { return Header() }
        var h = Header(line: tokens[open].line)
        var depth = 0, k = open
        while k < tokens.count {
            let t = tokens[k].token
            if t == .symbol(123) || t == .symbol(40) || t == .symbol(91) { depth += 1 }
            if t == .symbol(125) || t == .symbol(41) || t == .symbol(93) {
                depth -= 1
                if depth == 0 { break }
            }
            // A field at depth 1: `name = literal` followed by `,` `;` or `}`.
            if depth == 1, case .name(let field) = t, k + 2 < tokens.count, tokens[k + 1].token == .symbol(61),
               k == open + 1 || [.symbol(44), .symbol(59)].contains(tokens[k - 1].token) {
                let value = tokens[k + 2].token
                let ends = k + 3 < tokens.count && [.symbol(44), .symbol(59), .symbol(125)].contains(tokens[k + 3].token)
                switch (field, value) {
                case ("id", .string(let s)) where ends: h.id = s
                case ("id", _): h.id = nil
                case ("title", .string(let s)) where ends: h.title = s
                case ("version", .number(let s)) where ends: h.version = Int(s)
                case ("total", .number(let s)) where ends: h.total = Int(s)
                case ("moods", .symbol(123)):
                    var moods: [Mood] = [], m = k + 3, literal = true
                    while m < tokens.count, tokens[m].token != .symbol(125) {
                        switch tokens[m].token {
                        case .string(let s): if let mood = Mood(rawValue: s) { moods.append(mood) } else { literal = false }
                        case .symbol(44), .symbol(59): break
                        default: literal = false
                        }
                        m += 1
                    }
                    h.moods = literal ? moods : nil
                default: break
                }
            }
            k += 1
        }
        return h
    }

    package static let promptNames: Set<String> = ["ask", "intensity", "number", "yesno", "choose", "choose_many", "checklist", "action", "message"]

    /// Step ids written literally in prompt calls, with their lines.
    package var promptSteps: [(StepID, Int)] { promptCalls.map { ($0.step, $0.line) } }

    /// Prompt calls whose step id is written literally: the id, the
    /// prompt function (`ask`, `intensity`, …) and the id's line.
    package var promptCalls: [(step: StepID, function: String, line: Int)] {
        var out: [(step: StepID, function: String, line: Int)] = []
        // Open brackets; for a prompt call's table, its function and whether its id was read.
        var stack: [(prompt: String?, found: Bool)] = []
        for k in tokens.indices {
            switch tokens[k].token {
            case .symbol(123), .symbol(40), .symbol(91):
                // `s:name {` or `s:name({`
                var prompt: String?
                if tokens[k].token == .symbol(123) {
                    var j = k - 1
                    if j >= 0, tokens[j].token == .symbol(40) { j -= 1 }
                    if j >= 2, case .name(let fn) = tokens[j].token, FlowSourceScanner.promptNames.contains(fn),
                       tokens[j - 1].token == .symbol(58), tokens[j - 2].token == .name("s") {
                        prompt = fn
                    }
                }
                stack.append((prompt, false))
            case .symbol(125), .symbol(41), .symbol(93):
                if !stack.isEmpty { stack.removeLast() }
            case .name("id"):
                guard let top = stack.last, let function = top.prompt, !top.found, k + 3 < tokens.count, tokens[k + 1].token == .symbol(61),
                      case .string(let raw) = tokens[k + 2].token,
                      [.symbol(44), .symbol(59), .symbol(125)].contains(tokens[k + 3].token) else { continue }
                stack[stack.count - 1].found = true
                if let step = StepID(raw) { out.append((step, function, tokens[k + 2].line)) }
            default:
                break
            }
        }
        return out
    }
}

import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

// Issue 20: the durable answer write's fast paths, each held to the general
// path it replaces over many random inputs: the stored JSON (JSONEncoder),
// the indexed form of ASCII text (compatibility mapping, pairing), a stored
// JSON string read directly (JSONDecoder), and the index rows the catch-up
// makes (the SQL function over the stored JSON, re-indexing in full).

/// Random text: ASCII with JSON's special characters and every control
/// character, Latin with accents (composed and not), full-width forms,
/// ligatures, Han, kana, Hangul (syllables and jamo), emoji.
private func randomText(_ rng: inout SeededRandom) -> String {
    let pools: [[Unicode.Scalar]] = [
        Array("abcdefghijklmnopqrstuvwxyz ABCXYZ 0123456789.,;:!?'-()[]{}<>@#$%^&*_+=~`|".unicodeScalars),
        Array("\"\\/".unicodeScalars) + (UInt8(1)..<0x20).map(Unicode.Scalar.init) + [Unicode.Scalar(UInt8(0x7F))],
        Array("éèêëàâäôöûüçñÉÀÖ\u{301}\u{308}".unicodeScalars),
        Array("ＡＢＣａｂｃ１２３！？ﬁﬂ①²™".unicodeScalars),
        Array("明日の会議が怖いです私は東京".unicodeScalars),
        Array("ひらがなカタカナｶﾀｶﾅ".unicodeScalars),
        Array("회의가를오늘정말힘들었다\u{1100}\u{1161}".unicodeScalars),
        Array("😀🙂👍🏽‍\u{2028}\u{2029}\u{FEFF}".unicodeScalars),
    ]
    var out = String.UnicodeScalarView()
    let asciiOnly = Bool.random(using: &rng)
    for _ in 0..<Int.random(in: 0...40, using: &rng) {
        let pool = asciiOnly ? pools[Int.random(in: 0...1, using: &rng)] : pools.randomElement(using: &rng)!
        out.append(pool.randomElement(using: &rng)!)
    }
    return String(out)
}

@Suite("The durable write's fast paths")
struct WriteFastPathTests {
    @Test("an answer's stored JSON is JSONEncoder's, byte for byte, for random values of every kind")
    func storedJSON() throws {
        var rng = SeededRandom(seed: 7)
        for i in 0..<20_000 {
            let value: AnswerValue = switch i % 8 {
            case 0, 1, 2: .text(randomText(&rng))
            case 3: .integer(Int.random(in: Int.min...Int.max, using: &rng) >> Int.random(in: 0...63, using: &rng))
            case 4: .boolean(Bool.random(using: &rng))
            case 5: .choice(randomText(&rng))
            case 6: .checklist([randomText(&rng) + "1": .done, randomText(&rng) + "2": .skip])
            default: [.acknowledged, .skipped, .number(7.25), .choices([randomText(&rng), "b"]), .text("a\u{0}b")].randomElement(using: &rng)!
            }
            let fast = try #require(value.storedJSON)
            #expect(fast == value.encodedJSON, "\(value)")
            // And it reads back as the same value.
            #expect(AnswerValue.fromDatabaseValue(fast.databaseValue) == value)
        }
    }

    /// The text answer's JSON is written sixteen and eight bytes at a time
    /// while no byte needs an escape: one byte that does, at every offset
    /// of every run length around those widths, is escaped as JSONEncoder
    /// escapes it, and its neighbours (bytes next to the escaped ranges)
    /// are not.
    @Test("one byte to escape at any offset of a long run is escaped as JSONEncoder escapes it; its neighbours are not")
    func escapeAtEveryOffset() throws {
        let special: [UInt8] = Array(0..<0x20) + [0x22, 0x5C, 0x2F, 0x20, 0x21, 0x23, 0x2E, 0x30, 0x5B, 0x5D, 0x7E, 0x7F]
        for length in 1...40 {
            for offset in 0..<length {
                for byte in special {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[offset] = byte
                    let text = String(decoding: bytes, as: UTF8.self)
                    let expected = try #require(AnswerValue.text(text).encodedJSON)
                    #expect(AnswerValue.jsonString(text) == expected, "byte \(byte) at \(offset) of \(length)")
                }
            }
        }
        // Multi-byte characters around a quote, across the sixteen-byte step.
        for offset in 0..<24 {
            let text = String(repeating: "é", count: offset) + "\"" + String(repeating: "会", count: 8)
            #expect(AnswerValue.jsonString(text) == AnswerValue.text(text).encodedJSON, "\(offset)")
        }
    }

    @Test("ASCII text is its own indexed form: the same as the full compatibility mapping and pairing")
    func indexedASCII() {
        var rng = SeededRandom(seed: 8)
        for _ in 0..<20_000 {
            let text = randomText(&rng)
            #expect(SearchText.indexed(text) == SearchText.indexedInFull(text), "\(text.debugDescription)")
        }
    }

    @Test("a stored JSON string is read directly as JSONDecoder reads it; anything else goes to JSONDecoder")
    func decodedJSONString() {
        var rng = SeededRandom(seed: 10)
        for i in 0..<20_000 {
            let text = randomText(&rng)
            // Stored answers (escaped as the store writes them), and text
            // that is not quite JSON: unescaped quotes, backslashes and
            // control characters, missing quotes, whitespace around.
            let json = switch i % 4 {
            case 0, 1: AnswerValue.jsonString(text)
            case 2: "\"" + text + "\""
            default: [text, "\"" + text, text + "\"", " \"" + text + "\" "].randomElement(using: &rng)!
            }
            #expect(SearchText.decodedJSONString(json) == SearchText.decodedJSONStringInFull(json), "\(json.debugDescription)")
        }
        #expect(SearchText.decodedJSONString(#""a \"quoted\" word""#) == #"a "quoted" word"#)
        #expect(SearchText.decodedJSONString("7") == nil)
    }

    @Test("the SQL function gives what the general path gives for the same stored value: text, JSON strings plain or escaped, blobs, numbers, NULL")
    func sqlFunction() throws {
        var rng = SeededRandom(seed: 11)
        let store = try temporaryStore()
        try store.writer.read { db in
            for i in 0..<20_000 {
                let text = randomText(&rng)
                let value: DatabaseValue = switch i % 8 {
                case 0, 1, 2: AnswerValue.jsonString(text).databaseValue
                case 3: ("\"" + text + "\"").databaseValue
                case 4: [text, "\"" + text, text + "\"", " \"" + text + "\" ", "\"\"", "\"a\u{0}b\""].randomElement(using: &rng)!.databaseValue
                case 5: Data(AnswerValue.jsonString(text).utf8).databaseValue
                case 6: [DatabaseValue.null, 7.databaseValue, 2.5.databaseValue].randomElement(using: &rng)!
                default: AnswerValue.jsonString(text + "a").databaseValue
                }
                let sql = try String.fetchOne(db, sql: "SELECT \(SearchText.sqlName)(?)", arguments: [value])
                #expect(sql == SearchText.indexedValue(String.fromDatabaseValue(value)), "\(value)")
            }
            #expect(try String.fetchOne(db, sql: "SELECT \(SearchText.sqlName)('\"The board, again\"')") == "The board, again")
            #expect(try String.fetchOne(db, sql: "SELECT \(SearchText.sqlName)('\"\"')") == nil)
        }
    }

    @Test("an answer's days are marked for its session's person and flow as GRDB reads them, for random people and flows")
    func owner() throws {
        var rng = SeededRandom(seed: 13)
        let store = try temporaryStore()
        for i in 0..<150 {
            let user = randomText(&rng), flow = "f" + randomText(&rng)
            try store.beginSession(SessionRecord(id: "s\(i)", flowID: flow, flowVersion: 1, locale: "en", personality: nil, user: user,
                                                 mood: nil, seed: 0, clock: "2026-11-24T09:00:00Z", startedAt: "2026-11-24T09:00:00Z"))
            try store.recordAnswer(AnswerRecord(sessionID: "s\(i)", step: "situation", position: 0, kind: .text, question: "What happened?",
                                                value: .text("The meeting"), answeredAt: "2026-11-24T09:01:00Z"),
                                   activityDay: CalendarDay(ordinal: 20_000 + i))
            try store.writer.read { db in
                let session = try #require(try Row.fetchOne(db, sql: "SELECT user, flow_id FROM session WHERE id = ?", arguments: ["s\(i)"]))
                let days = try Row.fetchAll(db, sql: "SELECT user, flow FROM \(stepDaysWithTexts) WHERE day = ?", arguments: [20_000 + i])
                #expect(days.count == 1)
                #expect(days.first?["user"] == session["user"] as String, "\(user.debugDescription)")
                #expect(days.first?["flow"] == session["flow_id"] as String, "\(flow.debugDescription)")
                #expect(try String.fetchAll(db, sql: "SELECT user FROM showed_up_day WHERE day = ?", arguments: [20_000 + i])
                    == [session["user"] as String])
            }
        }
    }

    @Test("the catch-up gives each answer the index row the SQL function makes from the stored answer")
    func indexRow() throws {
        var rng = SeededRandom(seed: 9)
        let store = try temporaryStore()
        try store.beginSession(session("s"))
        for i in 0..<600 {
            let kind: PromptKind = [.text, .text, .text, .singleChoice, .intensity].randomElement(using: &rng)!
            let value: AnswerValue = switch Int.random(in: 0..<6, using: &rng) {
            case 0: .skipped
            case 1: .integer(Int.random(in: 0...10, using: &rng))
            case 2: .choice("a")
            default: .text(randomText(&rng))
            }
            let step = "q\(Int.random(in: 0..<40, using: &rng))"
            let a = AnswerRecord(sessionID: "s", step: StepID(stringLiteral: step), position: i, kind: kind, question: "Q?", value: value,
                                 state: Int.random(in: 0..<6, using: &rng) == 0 ? .draft : .answer, answeredAt: "2026-11-22T20:00:00Z",
                                 safety: Int.random(in: 0..<8, using: &rng) == 0 ? .selfHarm : nil)
            try store.recordAnswer(a)
            try store.catchUpRelatedEntries()
            // The general path, over the row as stored.
            let (general, fast) = try store.writer.read { db in
                (try String.fetchOne(db, sql: """
                    SELECT \(SearchText.sqlName)(value) FROM answer
                    WHERE session_id = 's' AND step = ? AND state = 'answer' AND safety IS NULL AND kind = 'text'
                    """, arguments: [step]),
                 try String.fetchOne(db, sql: "SELECT body FROM entry_text WHERE session_id = 's' AND step = ?", arguments: [step]))
            }
            #expect(fast == general, "\(a)")
        }
        // The whole index is what re-indexing the session the general way gives.
        let before = try store.writer.read { db in try Row.fetchAll(db, sql: "SELECT step, body FROM entry_text ORDER BY step") }
        try store.write { db in try Store.indexAnswers(session: "s", in: db) }
        let after = try store.writer.read { db in try Row.fetchAll(db, sql: "SELECT step, body FROM entry_text ORDER BY step") }
        #expect(before == after)
        #expect(before.count > 5)
        // The full-text index agrees with its content table.
        try store.write { db in try db.execute(sql: "INSERT INTO entry_search (entry_search, rank) VALUES ('integrity-check', 1)") }
    }
}

import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// The durable answer write runs its own statements, binding its values
/// directly through SQLite's C API (AnswerWrite.swift: an INSERT, an UPDATE
/// when the step has a row): held to GRDB's statement arguments and one
/// upsert, the general path, over many random answers, edits and drafts.
@Suite("The answer write's direct binding")
struct DirectStatementTests {
    /// Random text: ASCII, JSON's specials, control characters (NUL too:
    /// both paths bind text up to its first NUL), accents, CJK, emoji.
    func randomText(_ rng: inout SeededRandom) -> String {
        let pool = Array("abc XYZ 019 \"\\/\u{0}\u{1}\n\té ü 会議 회의 😀🏽\u{301}".unicodeScalars)
        var out = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...30, using: &rng) { out.append(pool.randomElement(using: &rng)!) }
        return String(out)
    }

    func rows(_ store: Store) throws -> [[String]] {
        try store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM answer ORDER BY session_id, step").map { row in
                row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }
            }
        }
    }

    @Test("the same random answers upserted directly and through GRDB's arguments store the same rows")
    func sameRows() throws {
        var rng = SeededRandom(seed: 31)
        let direct = try temporaryStore(), general = try temporaryStore()
        for store in [direct, general] {
            try store.beginSession(session("a"))
            try store.beginSession(session("b"))
        }
        for i in 0..<2_000 {
            let kind: PromptKind = [.text, .intensity, .singleChoice, .checklist].randomElement(using: &rng)!
            let value: AnswerValue = switch Int.random(in: 0..<6, using: &rng) {
            case 0: .skipped
            case 1: .integer(Int.random(in: Int.min...Int.max, using: &rng))
            case 2: .choice(randomText(&rng))
            case 3: .checklist([randomText(&rng) + "x": .done])
            default: .text(randomText(&rng))
            }
            let options: [PromptOption]? = Bool.random(using: &rng) ? nil
                : [PromptOption(id: randomText(&rng), text: randomText(&rng)), PromptOption(id: "b", text: randomText(&rng))]
            let a = AnswerRecord(sessionID: Bool.random(using: &rng) ? "a" : "b", step: StepID(stringLiteral: "q\(Int.random(in: 0..<30, using: &rng))"),
                                 position: Int.random(in: -5...Int.max, using: &rng), kind: kind, question: randomText(&rng), value: value,
                                 state: Int.random(in: 0..<5, using: &rng) == 0 ? .draft : .answer, answeredAt: randomText(&rng),
                                 safety: [nil, nil, .selfHarm, .suicide].randomElement(using: &rng)!, options: options)
            try direct.recordAnswer(a)
            try general.write { db in try Store.upsertAnswerInFull(a, in: db) }
            if i % 200 == 199 {
                let (d, g) = (try rows(direct), try rows(general))
                #expect(d == g, "first difference: \(zip(d, g).first { $0 != $1 }.map { "\($0)\n vs \($1)" } ?? "row counts \(d.count) / \(g.count)")")
            }
        }
        #expect(try rows(direct) == rows(general))
        #expect(try rows(direct).count > 40)
    }

    @Test("a failing direct statement throws SQLite's error and leaves nothing half-written")
    func errors() throws {
        let store = try temporaryStore()
        // No such session: the foreign key refuses the answer.
        #expect(throws: StoreError.self) {
            try store.recordAnswer(answer("missing", "situation", 0, .text("x")))
        }
        do {
            try store.recordAnswer(answer("missing", "situation", 0, .text("x")))
        } catch {
            #expect("\(error)".contains("FOREIGN KEY"), "\(error)")
        }
        #expect(try rows(store).isEmpty)
        // The statement is usable again afterwards.
        try store.beginSession(session("s"))
        try store.recordAnswer(answer("s", "situation", 0, .text("x")))
        #expect(try rows(store).count == 1)
    }
}

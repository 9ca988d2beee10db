import Foundation
import GRDB
import Testing
import ReflectCore
@testable import ReflectStore

/// `beginSession` writes the session row with an explicit INSERT (a start's
/// cost): the row must be the one GRDB's record insert writes.
@Suite("beginSession's row")
struct BeginSessionTests {
    func text(_ g: inout some RandomNumberGenerator) -> String {
        let pieces = ["a", "é", "日本", "'", "\"", "\\", " ", "{\"k\":1}", "\n", "🙂", "x-1"]
        return (0..<Int.random(in: 0...6, using: &g)).map { _ in pieces.randomElement(using: &g) ?? "" }.joined()
    }

    func maybe<T>(_ value: T, _ g: inout some RandomNumberGenerator) -> T? { Bool.random(using: &g) ? value : nil }

    func record(_ i: Int, _ g: inout some RandomNumberGenerator) -> SessionRecord {
        SessionRecord(id: "s\(i)-" + text(&g), flowID: text(&g), flowVersion: Int.random(in: Int.min...Int.max, using: &g),
                      locale: text(&g), personality: maybe(text(&g), &g), user: text(&g), mood: maybe(Mood.allCases.randomElement(using: &g) ?? .good, &g),
                      seed: UInt64.random(in: 0...UInt64.max, using: &g), clock: text(&g), startedAt: text(&g),
                      completedAt: maybe(text(&g), &g), status: Bool.random(using: &g) ? .active : .completed,
                      pre: maybe(Int.random(in: -5...15, using: &g), &g), post: maybe(Int.random(in: -5...15, using: &g), &g),
                      facts: maybe(text(&g), &g), variants: maybe(text(&g), &g), setAsideAt: maybe(text(&g), &g),
                      recalled: maybe(text(&g), &g))
    }

    func rows(_ store: Store) throws -> [[DatabaseValue]] {
        try store.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM session ORDER BY id").map { row in row.databaseValues.map { $0 } }
        }
    }

    @Test("on 500 random sessions, the same row as GRDB's record insert, column for column, and the same record read back")
    func sameRow() throws {
        let explicit = try temporaryStore(), viaRecord = try temporaryStore()
        var g = SystemRandomNumberGenerator()
        var records: [SessionRecord] = []
        for i in 0..<500 {
            let r = record(i, &g)
            records.append(r)
            try explicit.beginSession(r)
            try viaRecord.write { db in try r.insert(db) }
        }
        #expect(try rows(explicit) == rows(viaRecord))
        let readBack = try explicit.read { db in try SessionRecord.fetchAll(db, sql: "SELECT * FROM session") }
        #expect(Set(readBack.map(\.id)) == Set(records.map(\.id)))
        for r in records {
            #expect(readBack.first { $0.id == r.id } == r)
        }
    }
}

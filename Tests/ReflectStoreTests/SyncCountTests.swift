import CSQLiteSyncCounter
import Foundation
import Testing
import ReflectCore
@testable import ReflectStore

/// Issue 12, item 1: an acknowledged answer is on disk. Counted with an
/// SQLite VFS that forwards to the default one and counts xSync per file.
@Suite("synced commits")
struct SyncCountTests {
    init() throws {
        try #require(reflect_sync_counter_install() == 0, "the counting VFS could not be registered")
    }

    func syncs(_ store: Store) -> (wal: Int, db: Int) {
        (reflect_sync_counter_syncs(store.path + "-wal"), reflect_sync_counter_syncs(store.path))
    }

    @Test("every recorded answer is one fsync of the write-ahead log before recordAnswer returns (either way of reading)",
          arguments: [Store.Reading.concurrent, .serialized])
    func oneSyncPerAnswer(reading: Store.Reading) throws {
        let store = try temporaryStore(reading: reading)
        try store.beginSession(session("s1"))
        for i in 0..<20 {
            let before = syncs(store)
            try store.recordAnswer(answer("s1", "q\(i)", i, .text("answer \(i)")),
                                   distortions: [DistortionRecord(sessionID: "s1", step: StepID(stringLiteral: "q\(i)"), type: .labeling, detectedAt: "2026-11-22T20:00:00Z")])
            let after = syncs(store)
            #expect(after.wal - before.wal == 1, "answer \(i): \(after.wal - before.wal) syncs of the WAL")
            #expect(after.db == before.db, "no checkpoint within 20 small answers")
        }
        // The other writes are synced the same way.
        for write in [{ try store.markDraft(session: "s1", step: "q3") },
                      { try store.completeSession("s1", pre: 5, post: 3, at: "2026-11-22T20:10:00Z", moodDay: "2026-11-22") },
                      { try store.logMood(MoodLogRequest(user: "u", day: "2026-11-22", mood: .good, note: nil, source: .log, at: "2026-11-22T20:11:00Z")) }] {
            let before = syncs(store).wal
            try write()
            #expect(syncs(store).wal - before == 1)
        }
        let level = try store.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(level == 2, "the writer connection runs synchronous = FULL (2)")
    }

    @Test("a read-only store syncs nothing and creates no file")
    func readOnlyWritesNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-ro-\(UUID().uuidString)")
        let path = dir.appendingPathComponent("reflect.sqlite").path
        let empty = try Store(path: path, access: .readOnly)
        #expect(try empty.recentSessions(user: "default").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.path), "a missing database reads as empty and is not created")
        let store = try Store(path: path)
        try store.beginSession(session("s1"))
        let before = syncs(store)
        let reader = try Store(path: path, access: .readOnly)
        #expect(try reader.detail("s1").session.id == "s1")
        #expect(syncs(store) == before)
        #expect(throws: StoreError.readOnly(path: path)) { try reader.beginSession(session("s2")) }
    }
}

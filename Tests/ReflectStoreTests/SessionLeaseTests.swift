import Foundation
import Synchronization
import Testing
@testable import ReflectStore

@Suite("session leases")
struct SessionLeaseTests {
    @Test("one holder per session: a second lease is refused with the holder named, until the first is released")
    func exclusive() throws {
        let store = try temporaryStore()
        let first = try store.lease(session: "s1")
        let error = #expect(throws: StoreError.self) { try store.lease(session: "s1") }
        guard case .sessionOpenElsewhere(let id, let holder)? = error else {
            Issue.record("wrong error \(String(describing: error))")
            return
        }
        #expect(id == "s1" && holder.contains("pid \(getpid())"))
        #expect(error?.code == "store.session_open_elsewhere")
        let other = try store.lease(session: "s2")  // other sessions are free
        first.release()
        first.release()  // idempotent
        let again = try store.lease(session: "s1")
        again.release()
        other.release()
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.path + "-leases").isEmpty, "released leases leave no file")
    }

    @Test("a session open elsewhere (its lease held) is not deleted, alone or with everything, until it is released")
    func deleteWaitsForOpenSessions() throws {
        let store = try temporaryStore()
        try store.beginSession(session("s1"))
        try store.beginSession(session("s2"))
        let open = try store.lease(session: "s1")
        let errors = [#expect(throws: StoreError.self) { try store.deleteSession("s1", user: "default") },
                      #expect(throws: StoreError.self) { try store.deleteAll() }]
        for error in errors {
            guard case .sessionOpenElsewhere(let id, let holder)? = error else {
                Issue.record("wrong error \(String(describing: error))")
                continue
            }
            #expect(id == "s1" && holder.contains("pid \(getpid())"), "\(id) \(holder)")
        }
        #expect(try store.recentSessions(user: "default").map(\.id).sorted() == ["s1", "s2"], "nothing was deleted")
        try store.deleteSession("s2", user: "default")  // a session nobody holds
        open.release()
        try store.deleteSession("s1", user: "default")
        try store.beginSession(session("s3"))
        try store.deleteAll()
        #expect(try store.recentSessions(user: "default").isEmpty)
        _ = try store.lease(session: "s4")  // sessions open again after delete-all
    }

    @Test("a lease directory that is a file is named as such")
    func leaseDirectoryIsAFile() throws {
        let store = try temporaryStore()
        #expect(FileManager.default.createFile(atPath: store.path + "-leases", contents: Data("x".utf8)))
        let error = #expect(throws: StoreError.self) { try store.lease(session: "s1") }
        #expect(error?.description.contains("\(store.path)-leases is not a directory") == true, "\(String(describing: error))")
    }

    @Test("a lease is dropped with its object")
    func droppedWithObject() throws {
        let store = try temporaryStore()
        do { _ = try store.lease(session: "s1") }
        _ = try store.lease(session: "s1")
    }

    @Test("the holder's start time is written as ISO8601DateFormatter writes it, on 20,000 random instants and the edges")
    func holderStamp() {
        let formatter = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        var instants: [Date] = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.5), Date(timeIntervalSince1970: 59.999),
                                Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 253_402_300_799),
                                Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 951_782_400)]
        for _ in 0..<10_000 {
            instants.append(Date(timeIntervalSince1970: Double.random(in: -2_000_000_000...4_000_000_000, using: &generator)))
            // Within a millisecond of the next second, where the formatter rounds up.
            let second = Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))
            instants.append(Date(timeIntervalSince1970: second + Double.random(in: 0.9994...0.9996, using: &generator)))
        }
        for date in instants {
            #expect(SessionLease.utcStamp(date) == formatter.string(from: date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test("any session id is one path component")
    func fileNames() {
        #expect(SessionLease.fileName(for: "2f1c-AB") == "2f1c-AB")
        #expect(SessionLease.fileName(for: "../x") == "_2e_2e_2fx")
        #expect(SessionLease.fileName(for: "") == "_")
    }
}

@Suite("concurrent first use, in one process")
struct ConcurrentOpenTests {
    @Test("eight connections creating and migrating one new database at once all succeed, and the schema is migrated once")
    func manyAtOnce() throws {
        for _ in 0..<30 {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-open-\(UUID().uuidString)/a/b.sqlite").path
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { i in
                do {
                    let store = try Store(path: path)
                    try store.logMood(MoodLogRequest(user: "u\(i)", day: "2026-11-22", mood: .good, note: nil, source: .log, at: "2026-11-22T08:00:00Z"))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let store = try Store(path: path, access: .readOnly)
            #expect(try (0..<8).allSatisfy { try store.moodEntries(user: "u\($0)").count == 1 })
            let applied = try store.writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
            #expect(applied.count == Migrations.identifiers.count)
        }
    }
}

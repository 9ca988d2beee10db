import Foundation
import GRDB
import ReflectStore
import Testing

/// A read-only command on a database an older Reflect wrote (schema v11)
/// reads it at the latest schema: the file is upgraded first, once, as any
/// writing command would, and every read-only command then shows what it
/// shows on the upgraded file (before, `export` and `profile` failed on a
/// table v11 does not have, and the others read it as it was). A file that
/// cannot be upgraded there is refused with an error naming it and what to
/// run, untouched.
@Suite("Read-only commands on an older schema", .hangGuard)
struct OlderSchemaReadCLITests {
    static let now = ["--now", "2026-11-22T10:00:00+01:00"]
    static let commands: [[String]] = [
        ["history"], ["export"], ["export", "--format", "csv"], ["progress"] + now, ["today"] + now, ["insights"] + now,
        ["report"] + now, ["moments"] + now, ["digest"] + now, ["letter"] + now, ["reminders"], ["profile"], ["coach"],
        ["settings"], ["prep"],
    ]

    /// The output without the export's own time.
    func stable(_ text: String) -> String {
        text.replacingOccurrences(of: #""exported_at" *: *"[^"]*""#, with: "", options: .regularExpression)
    }

    /// A database with a finished reflection and a mood entry, taken back to
    /// schema v11; returns it and the session's id.
    func v11Database() throws -> (String, String) {
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-v11-read-\(UUID().uuidString).sqlite").path
        let run = try CLIRunner.run(["run", "reflection", "--mood", "good", "--db", db, "--answers", "-", "--format", "jsonl",
                                     "--now", "2026-11-20T18:00:00+01:00"],
                                    stdin: ResumeAtEndCLITests.answers, in: repositoryRoot)
        #expect(run.status == 0, "\(run.stderr)")
        let id = try #require(run.events.first { $0["event"] as? String == "done" }?["session"] as? String)
        #expect(try CLIRunner.run(["log", "average", "--date", "2026-11-21", "--note", "long day", "--db", db]).status == 0)
        try DatabaseQueue(path: db).writeWithoutTransaction { db in try db.execute(sql: LegacyOptionLabelsCLITests.toV11) }
        return (db, id)
    }

    func copy(_ db: String) throws -> String {
        let to = db + "-\(UUID().uuidString.prefix(8)).sqlite"
        try FileManager.default.copyItem(atPath: db, toPath: to)
        return to
    }

    func version(_ db: String) throws -> Int? {
        try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
    }

    @Test("every read-only command upgrades a v11 file first and shows what it shows on the upgraded file")
    func upgradedThenRead() throws {
        let (v11, id) = try v11Database()
        #expect(try version(v11) == 11)
        // The reference: the same file upgraded by the store's writer.
        let upgraded = try copy(v11)
        _ = try Store(path: upgraded)
        let latest = try #require(try version(upgraded))
        #expect(latest > 11)
        for command in Self.commands + [["show", id]] {
            let file = try copy(v11)
            let out = try CLIRunner.run(command + ["--db", file], in: repositoryRoot)
            let expected = try CLIRunner.run(command + ["--db", upgraded], in: repositoryRoot)
            #expect(out.status == 0, "\(command): \(out.stderr)")
            #expect(expected.status == 0, "\(command): \(expected.stderr)")
            #expect(stable(out.stdout.replacingOccurrences(of: file, with: upgraded)) == stable(expected.stdout), "\(command)")
            #expect(try version(file) == latest, "\(command) upgraded the file")
        }
    }

    @Test("a v11 file the reader cannot write is refused, named, with what to run, and left as it was")
    func refusedWhenItCannotBeUpgraded() throws {
        let (v11, id) = try v11Database()
        let dir = (v11 as NSString).deletingLastPathComponent
        try FileManager.default.setAttributes([.posixPermissions: Unprivileged.needed ? 0o644 : 0o444], ofItemAtPath: v11)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir)
        let before = FileManager.default.contents(atPath: v11)
        for command in [["history"], ["show", id], ["export"]] {
            let out = try Unprivileged.run(command + ["--db", v11])
            #expect(out.status == 1, "\(command): \(out.stdout)")
            #expect(out.stderr.contains("[store.older_database]") && out.stderr.contains(v11) && out.stderr.contains("schema version 11")
                    && out.stderr.contains("reflect history --db"), "\(command): \(out.stderr)")
        }
        #expect(FileManager.default.contents(atPath: v11) == before)
        #expect(try version(v11) == 11)
    }

    @Test("a v11 file on a read-only mount is refused the same way", .enabled(if: ReadOnlyMount.available, "needs `unshare -m` and bind mounts"))
    func refusedOnReadOnlyMount() throws {
        let (v11, id) = try v11Database()
        let before = FileManager.default.contents(atPath: v11)
        for command in [["history"], ["show", id], ["profile"]] {
            let out = try ReadOnlyMount.run((v11 as NSString).deletingLastPathComponent, command + ["--db", v11])
            #expect(out.status == 1, "\(command): \(out.stdout)")
            #expect(out.stderr.contains("[store.older_database]") && out.stderr.contains(v11), "\(command): \(out.stderr)")
        }
        #expect(FileManager.default.contents(atPath: v11) == before)
    }
}

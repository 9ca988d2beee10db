import Foundation
import GRDB
import ReflectStore
import Testing

/// Issue 12, items 3, 4, 5, 7 and the permission message of item 9, through
/// the real binary and real files.
@Suite("storage: sessions, foreign files, read-only access", .hangGuard)
struct StorageSafetyTests {
    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    // MARK: item 4 — one writer per session

    @Test("a second resume of an open session is refused as open elsewhere; after the first is killed, resume works at once")
    func sessionLease() throws {
        let db = tempDB()
        let first = try LiveProcess(["run", "reflection", "--mood", "bad", "--db", db, "--answers", "-", "--format", "jsonl",
                                     "--now", "2026-11-22T21:00:00+01:00"], in: repositoryRoot)
        let prompt = try #require(first.waitFor { $0["event"] as? String == "prompt" })
        let session = try #require(prompt["session"] as? String)
        first.send("7")
        try #require(first.waitFor { $0["event"] as? String == "saved" } != nil)

        let second = try CLIRunner.run(["resume", session, "--db", db, "--answers", "-", "--format", "jsonl"],
                                       stdin: "\"The second writer's answer\"\n", in: repositoryRoot)
        #expect(second.status == 1)
        #expect(second.stderr.contains("this session is open elsewhere") && second.stderr.contains("[store.session_open_elsewhere]"),
                "\(second.stderr)")
        #expect(second.stderr.contains("pid \(first.process.processIdentifier)"), "the message names the holder: \(second.stderr)")
        #expect(!second.stdout.contains("saved"))

        // The first writer goes on undisturbed.
        first.send(#""The first writer's answer""#)
        try #require(first.waitFor { $0["event"] as? String == "saved" } != nil)
        first.kill()

        let resumed = try CLIRunner.run(["resume", session, "--db", db, "--answers", "-", "--format", "jsonl"],
                                        stdin: "\"I always mess everything up\"\n", in: repositoryRoot)
        #expect(resumed.status == 0, "the lease of a killed process is free at once: \(resumed.stderr)")
        #expect(resumed.events.contains { $0["event"] as? String == "saved" && $0["step"] as? String == "thought" })
        let detail = try Store(path: db, access: .readOnly).detail(session)
        #expect(detail.answers.map { String.fromDatabaseValue($0.value.databaseValue) } == ["7", "\"The first writer's answer\"", "\"I always mess everything up\""])
        // Released on a normal exit too.
        #expect(try CLIRunner.run(["resume", session, "--db", db, "--answers", "-", "--format", "jsonl"], in: repositoryRoot).status == 0)
    }

    // MARK: item 5 — foreign and newer databases are refused before anything is written

    @Test("another application's SQLite file is refused by every command and left byte for byte as it was")
    func foreignDatabase() throws {
        let db = tempDB()
        try FileManager.default.createDirectory(atPath: (db as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let queue = try DatabaseQueue(path: db)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine')")
            }
        }
        let other = tempDB()
        try FileManager.default.createDirectory(atPath: (other as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let queue = try DatabaseQueue(path: other)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA application_id = 1234; CREATE TABLE t (x)")
            }
        }
        let text = tempDB()
        try FileManager.default.createDirectory(atPath: (text as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(String(repeating: "my notes, not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        for path in [db, other, text] {
            let before = try #require(bytes(path))
            for command in [["history"], ["export"], ["log", "good"], ["show", "abc"], ["import", "/dev/null"],
                            ["run", "reflection", "--mood", "bad", "--answers", "-"], ["delete-all", "--yes"]] {
                let out = try CLIRunner.run(command + ["--db", path], stdin: "7\n", in: repositoryRoot)
                #expect(out.status != 0, "\(command)")
                if command != ["import", "/dev/null"] {
                    #expect(out.stderr.contains("is not a Reflect database") && out.stderr.contains("[store.foreign_database]"),
                            "\(command): \(out.stderr)")
                }
                #expect(bytes(path) == before, "\(command) changed the file")
                #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "\(command) turned WAL on")
            }
        }
    }

    @Test("a database from a newer Reflect (schema version, unknown migration) is refused and left unchanged")
    func newerDatabase() throws {
        for change in ["PRAGMA user_version = 999", "INSERT INTO grdb_migrations (identifier) VALUES ('v999: something new')"] {
            let db = tempDB()
            #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-20", "--db", db]).status == 0)
            do {
                let queue = try DatabaseQueue(path: db)
                try queue.writeWithoutTransaction { db in try db.execute(sql: change) }
            }
            let before = try #require(bytes(db))
            for command in [["log", "bad"], ["history"], ["export"]] {
                let out = try CLIRunner.run(command + ["--db", db])
                #expect(out.status == 1, "\(change): \(command)")
                #expect(out.stderr.contains("newer version of Reflect") && out.stderr.contains("[store.newer_database]"), "\(out.stderr)")
                #expect(bytes(db) == before, "\(change): \(command) changed the file")
            }
        }
    }

    @Test("a database written before application ids (migrations v1–v2 only) is recognised and upgraded")
    func legacyDatabaseUpgrades() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-20", "--db", db]).status == 0)
        do {
            // What the previous release left: no id, no version, nothing from v3 on.
            // (v21 and v22 change tables that v5 and v8 make again here: they run again too.)
            let queue = try DatabaseQueue(path: db)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: """
                    PRAGMA application_id = 0; PRAGMA user_version = 0;
                    DROP TRIGGER answer_theme_update;
                    DROP TABLE generated_text; ALTER TABLE session DROP COLUMN facts;
                    DROP TABLE setting; DROP TABLE prep_item; DROP TABLE prep_mark; DROP TABLE craving_note;
                    DROP TABLE experiment_assignment; DROP TABLE answer_theme; DROP INDEX experiment_exposure_report; ALTER TABLE session DROP COLUMN variants;
                    DROP TABLE chat_message;
                    DROP INDEX experiment_exposure_session; ALTER TABLE experiment_exposure DROP COLUMN completed;
                    ALTER TABLE experiment_exposure DROP COLUMN intensity_change; ALTER TABLE experiment_exposure DROP COLUMN returned;
                    DROP TABLE showed_up_day; DROP TABLE step_day; DROP TABLE day_set; DROP TABLE achievement_reset;
                    DELETE FROM grdb_migrations WHERE (identifier NOT LIKE 'v1%' AND identifier NOT LIKE 'v2%')
                        OR CAST(substr(identifier, 2, instr(identifier || ':', ':') - 2) AS INTEGER) >= 21
                    """)
            }
        }
        #expect(try CLIRunner.run(["history", "--db", db]).stdout.contains("2026-11-20  good"))
        #expect(try CLIRunner.run(["log", "bad", "--date", "2026-11-21", "--db", db]).status == 0)
        let id = try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "PRAGMA application_id") }
        #expect(id == 0x5266_6C74)
    }

    // MARK: item 3 — no schema surprise crashes the process

    @Test("a mood_entry table with another key (a newer schema) never crashes log, import, the end of a reflection or resume")
    func schemaSurprise() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-20", "--db", db]).status == 0)
        do {
            let queue = try DatabaseQueue(path: db)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: """
                    DROP TABLE mood_entry;
                    CREATE TABLE mood_entry (user TEXT NOT NULL, day TEXT NOT NULL, mood TEXT NOT NULL, note TEXT, source TEXT NOT NULL,
                        session_id TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (user, day, source));
                    """)
            }
        }
        let legacy = repositoryRoot.appendingPathComponent("Tests/Fixtures/legacy-negative-v1.json").path
        let runs: [([String], String)] = [
            (["log", "bad", "--date", "2026-11-21"], ""),
            (["log", "great", "--date", "2026-11-21"], ""),
            (["import", legacy], ""),
            (["run", "reflection", "--mood", "good", "--answers", "-", "--format", "jsonl", "--now", "2026-11-22T18:00:00+01:00"],
             "6\n\"A long walk by the river with my brother\"\n\"We both took the afternoon off\"\n\"Plan one more walk on Sunday\"\n8\n"),
            (["resume", "--answers", "-", "--format", "jsonl"], ""),
            (["history"], ""),
        ]
        for (command, stdin) in runs {
            let out = try CLIRunner.run(command + ["--db", db], stdin: stdin, in: repositoryRoot)
            // A crash (the landed code's SIGILL) exits with the signal's number, never 0 or 1.
            if command[0] == "resume" {
                #expect(out.status == 1 && out.stderr.contains("Nothing to resume"), "the reflection completed: \(out.status) \(out.stderr)")
            } else {
                #expect(out.status == 0, "\(command): status \(out.status) \(out.stderr)")
            }
            if command[0] == "run" { #expect(out.events.contains { $0["event"] as? String == "done" }) }
        }
        let history = try CLIRunner.run(["history", "--db", db])
        #expect(history.stdout.contains("2026-11-21  great"), "the edit went to the one entry of the day: \(history.stdout)")
    }

    // MARK: item 7 — reading never takes the write lock

    @Test("history, show and export work while another connection holds the write lock")
    func readDuringWrite() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-20", "--db", db]).status == 0)
        let run = try CLIRunner.run(["run", "reflection", "--mood", "bad", "--db", db, "--answers", "-", "--format", "jsonl"],
                                    stdin: "7\n", in: repositoryRoot)
        let session = try #require(run.events.first?["session"] as? String)
        var config = Configuration()
        config.allowsUnsafeTransactions = true  // the lock stays held between the two accesses
        let holder = try DatabaseQueue(path: db, configuration: config)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO mood_entry (user, day, mood, source, created_at, updated_at) VALUES ('x', '2026-11-21', 'bad', 'log', 'a', 'b')")
        }
        defer { try? holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") } }
        let start = Date()
        let history = try CLIRunner.run(["history", "--db", db])
        #expect(history.status == 0 && history.stdout.contains("2026-11-20  good"), "\(history.stderr)")
        let export = try CLIRunner.run(["export", "--format", "csv", "--db", db])
        #expect(export.status == 0 && export.stdout.contains("2026-11-20"), "\(export.stderr)")
        let show = try CLIRunner.run(["show", String(session.prefix(8)), "--db", db])
        #expect(show.status == 0 && show.stdout.contains("→ 7"), "\(show.stderr)")
        #expect(Date().timeIntervalSince(start) < 8, "they did not wait for the lock")
        // A writer, meanwhile, waits and then says it is busy (not run here: 10 s).
    }

    @Test("history and export work on a read-only database file (not writable by the reader)")
    func readOnlyFile() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-20", "--note", "kept", "--db", db]).status == 0)
        let dir = (db as NSString).deletingLastPathComponent
        let readOnlyFile = Unprivileged.needed ? 0o644 : 0o444
        try FileManager.default.setAttributes([.posixPermissions: readOnlyFile], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir)
        let before = try #require(bytes(db))
        for command in [["history"], ["export"], ["export", "--format", "csv"]] {
            let out = try Unprivileged.run(command + ["--db", db])
            #expect(out.status == 0, "\(command): \(out.stderr)")
            #expect(out.stdout.contains("2026-11-20"), "\(command)")
        }
        let write = try Unprivileged.run(["log", "bad", "--db", db])
        #expect(write.status == 1 && write.stderr.contains("[store.read_only]"), "\(write.stderr)")
        #expect(bytes(db) == before)
    }

    @Test("history and export work on a read-only mount", .enabled(if: ReadOnlyMount.available, "needs `unshare -m` and bind mounts (root or user namespaces)"))
    func readOnlyMount() throws {
        let db = tempDB()
        #expect(try CLIRunner.run(["log", "good", "--date", "2026-11-20", "--note", "on a read-only mount", "--db", db]).status == 0)
        let dir = (db as NSString).deletingLastPathComponent
        for command in [["history"], ["export"], ["show", "nothing"]] {
            let out = try ReadOnlyMount.run(dir, command + ["--db", db])
            if command[0] == "show" {
                #expect(out.stderr.contains("no session 'nothing'"), "\(out.stderr)")
            } else {
                #expect(out.status == 0, "\(command): \(out.stderr)")
                #expect(out.stdout.contains("on a read-only mount"), "\(command)")
            }
        }
        let write = try ReadOnlyMount.run(dir, ["log", "bad", "--db", db])
        #expect(write.status == 1 && write.stderr.contains("[store."), "\(write.stderr)")

        // A writer killed mid-session leaves its answers in the WAL: read through the -shm it left.
        let live = try LiveProcess(["run", "reflection", "--mood", "bad", "--db", db, "--answers", "-", "--format", "jsonl"], in: repositoryRoot)
        try #require(live.waitFor { $0["event"] as? String == "prompt" } != nil)
        live.send("7")
        try #require(live.waitFor { $0["event"] as? String == "saved" } != nil)
        live.kill()
        let afterKill = try ReadOnlyMount.run(dir, ["history", "--db", db])
        #expect(afterKill.stdout.contains("unfinished (answered: 1)"), "\(afterKill.stdout) \(afterKill.stderr)")
        // Without its -shm, the WAL cannot be read there: refused, not shown without the last answers.
        try FileManager.default.removeItem(atPath: db + "-shm")
        let noShm = try ReadOnlyMount.run(dir, ["history", "--db", db])
        #expect(noShm.status == 1 && noShm.stderr.contains("write-ahead log"), "\(noShm.stderr)")
    }

    // MARK: item 9 — a directory that cannot be written says why

    @Test("a database in a mode-000 directory: the error says permission denied and names the directory and its mode")
    func unwritableDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-000-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o000])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try Unprivileged.run(["log", "good", "--db", dir.appendingPathComponent("reflect.sqlite").path])
        #expect(out.status == 1)
        #expect(out.stderr.contains("permission denied"), "\(out.stderr)")
        #expect(out.stderr.contains("\(dir.path) has mode 0"), "\(out.stderr)")
    }

    @Test("a --db without a directory, in a current directory that cannot be written, names that directory")
    func unwritableCurrentDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-555-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o555])
        defer { try? FileManager.default.removeItem(at: dir) }
        let reflect = CLIRunner.executable.path
        let script = "cd \"$1\" && exec \"$2\" log good --db reflect.sqlite"
        let out = Unprivileged.needed
            ? try Spawn.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script, "sh", dir.path, reflect])
            : try Spawn.run("/bin/sh", ["-c", script, "sh", dir.path, reflect])
        #expect(out.status == 1)
        #expect(out.stderr.contains("cannot create the file in \(dir.path) (directory \(dir.path) has mode 555"), "\(out.stderr)")
    }

    // MARK: a database is a regular file

    @Test("--db naming a directory, a named pipe or a device is refused at once, by writing and reading commands, creating nothing beside it",
          arguments: ["directory", "named pipe", "device"])
    func notARegularFile(kind: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-kind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db: String
        switch kind {
        case "directory":
            db = dir.appendingPathComponent("store").path
            try FileManager.default.createDirectory(atPath: db, withIntermediateDirectories: false)
        case "named pipe":
            db = dir.appendingPathComponent("store").path
            #expect(mkfifo(db, 0o600) == 0)
        default:
            db = "/dev/null"
        }
        for arguments in [["log", "good", "--db", db], ["history", "--db", db], ["export", "--db", db]] {
            // Killed if it blocks: opening a named pipe used to wait for a writer for ever.
            let out = try Spawn.run("/usr/bin/timeout", ["-s", "KILL", "30", CLIRunner.executable.path] + arguments)
            #expect(out.status == 1, "\(arguments): \(out.status) \(out.stderr)")
            #expect(out.stderr.contains("cannot open the database at \(db): it is a \(kind), not a regular file"), "\(arguments): \(out.stderr)")
            #expect(out.stderr.contains("[store.cannot_open]"), "\(out.stderr)")
        }
        for suffix in ["-journal", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: db + suffix), "\(db + suffix) was created")
            if db.hasPrefix("/dev/") { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
    }

    @Test("a database whose pages are damaged is store.damaged, saying what to do, not a bare SQLite error")
    func damagedDatabase() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("reflect.sqlite").path
        #expect(try CLIRunner.run(["log", "good", "--db", db]).status == 0)
        // Every page but the first (the header and the schema) starts with a
        // leaf-table header claiming an impossible cell count.
        let handle = try #require(FileHandle(forUpdatingAtPath: db))
        let size = try handle.seekToEnd()
        var page: UInt64 = 4096
        while page < size {
            try handle.seek(toOffset: page)
            try handle.write(contentsOf: Data([0x0D, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
            page += 4096
        }
        try handle.close()
        for arguments in [["history", "--db", db], ["log", "bad", "--db", db]] {
            let out = try CLIRunner.run(arguments)
            #expect(out.status == 1, "\(arguments)")
            #expect(out.stderr.contains("the database at \(db) is damaged"), "\(arguments): \(out.stderr)")
            #expect(out.stderr.contains("[store.damaged]"), "\(out.stderr)")
        }
    }
}

/// Runs `reflect` as a user without root's override of file modes: as
/// `nobody` through setpriv when the tests run as root, else as is.
enum Unprivileged {
    static var needed: Bool { getuid() == 0 }

    static func run(_ arguments: [String]) throws -> CLIRunner.Output {
        guard needed else { return try CLIRunner.run(arguments) }
        return try Spawn.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.executable.path] + arguments)
    }
}

/// Runs `reflect` in a mount namespace where DIR is bind-mounted read-only.
enum ReadOnlyMount {
    static let available: Bool = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-ro-probe-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: dir) }
        let probe = try? Spawn.run("/usr/bin/unshare", unshareFlags + ["sh", "-c", script + " && ! touch \"$1/x\" 2>/dev/null", "sh", dir.path])
        return probe?.status == 0
    }()

    static var unshareFlags: [String] { getuid() == 0 ? ["-m"] : ["-r", "-m"] }
    static let script = "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\""

    static func run(_ dir: String, _ arguments: [String]) throws -> CLIRunner.Output {
        try Spawn.run("/usr/bin/unshare", unshareFlags + ["sh", "-c", script + " && shift && exec \"$@\"", "sh", dir,
                                                          CLIRunner.executable.path] + arguments)
    }
}

enum Spawn {
    static func run(_ executable: String, _ arguments: [String]) throws -> CLIRunner.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = CLIRunner.isolatedEnvironment()
        let out = Pipe(), err = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRunner.Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                stderr: String(decoding: stderr, as: UTF8.self))
    }
}

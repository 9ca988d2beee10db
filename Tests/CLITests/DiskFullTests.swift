import Foundation
import GRDB
import Testing

/// A disk that fills up, or a file size limit (`ulimit -f`), while a person
/// reflects: `reflect` says so and exits, never killed by SIGXFSZ; every
/// answer it acknowledged is stored and the rest of the database is intact;
/// what is stored can still be read and exported on the full disk.
@Suite("storage: a full disk and a file size limit", .hangGuard)
struct DiskFullTests {
    static let answers = "6\n\"I messed up the talk\"\n\"One slide is not the talk\"\n3\n"

    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-full-\(UUID().uuidString)/reflect.sqlite").path
    }

    @Test("under a file size limit, a run stops with store.disk_full naming the limit, not killed by SIGXFSZ, and loses no acknowledged answer")
    func fileSizeLimit() throws {
        let db = tempDB()
        let first = try CLIRunner.run(["run", "demo.check-in", "--db", db, "--answers", "-", "--format", "jsonl"],
                                      stdin: Self.answers, in: repositoryRoot)
        try #require(first.status == 0, "\(first.stderr)")
        // 16 KiB: the run's first write fails; 64 KiB: a later answer's.
        for kib in [16, 64] {
            let limited = try Self.runLimited(kib: kib, ["run", "demo.check-in", "--db", db, "--answers", "-", "--format", "jsonl"],
                                              stdin: Self.answers)
            #expect(limited.status == 1, "ulimit -f \(kib): exit \(limited.status), not a signal; \(limited.stderr)")
            #expect(limited.stdout.contains("file size limit") || limited.stderr.contains("file size limit"),
                    "ulimit -f \(kib): the message names the limit: \(limited.stdout) \(limited.stderr)")
            #expect(limited.stdout.contains("store.") || limited.stderr.contains("store."), "ulimit -f \(kib)")
            let saved = limited.events.filter { $0["event"] as? String == "saved" }
            for event in saved {
                let session = try #require(event["session"] as? String)
                let step = try #require(event["step"] as? String)
                let stored = try DatabaseQueue(path: db).read { db in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM answer WHERE session_id = ? AND step = ?", arguments: [session, step])
                }
                #expect(stored == 1, "acknowledged answer \(step) of \(session) is stored")
            }
        }
        let check = try DatabaseQueue(path: db).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
        // Without the limit, everything works again and the first session is whole.
        let after = try CLIRunner.run(["run", "demo.check-in", "--db", db, "--answers", "-", "--format", "jsonl"],
                                      stdin: Self.answers, in: repositoryRoot)
        #expect(after.status == 0, "\(after.stderr)")
        let firstSession = try #require(first.events.first { $0["event"] as? String == "saved" }?["session"] as? String)
        let show = try CLIRunner.run(["show", String(firstSession.prefix(8)), "--db", db])
        #expect(show.status == 0 && show.stdout.contains("One slide is not the talk"), "\(show.stdout) \(show.stderr)")
    }

    @Test("on a full disk, a write says store.disk_full and no space left, and history and export still read what is stored",
          .enabled(if: FullDisk.available, "needs `unshare -m` and a tmpfs mount (root)"))
    func fullDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-tmpfs-\(UUID().uuidString)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-tmpfs-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir); try? FileManager.default.removeItem(at: out) }
        let db = dir.appendingPathComponent("reflect.sqlite").path
        try Data(Self.answers.utf8).write(to: out.appendingPathComponent("answers"))
        // In a mount namespace of its own: a 2 MiB tmpfs, a first run, the
        // disk filled, then a second run, history and export.
        let script = """
            set -u
            mount -t tmpfs -o size=2m tmpfs "$DIR" || exit 90
            run() { name=$1; shift; "$REFLECT" "$@" --db "$DB" < "$OUT/answers" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo $? > "$OUT/$name.status"; }
            run first run demo.check-in --answers - --format jsonl
            dd if=/dev/zero of="$DIR/filler" bs=1k count=4096 2>/dev/null
            run full run demo.check-in --answers - --format jsonl
            run history history
            run export export
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "sh", "-c", script]
        process.currentDirectoryURL = repositoryRoot
        process.environment = CLIRunner.isolatedEnvironment(["DIR": dir.path, "DB": db, "OUT": out.path,
                                                             "REFLECT": CLIRunner.executable.path])
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "the tmpfs could not be mounted")
        func read(_ name: String) -> String {
            (try? String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        #expect(read("first.status").hasPrefix("0"), "\(read("first.err"))")
        #expect(read("full.status").hasPrefix("1"), "\(read("full.status")) \(read("full.err"))")
        let full = read("full.out") + read("full.err")
        #expect(full.contains("store.disk_full") && full.contains("no space left"), "\(full)")
        #expect(!full.contains("\"saved\""), "nothing acknowledged that was not written: \(full)")
        #expect(read("history.status").hasPrefix("0"), "history on a full disk: \(read("history.err"))")
        #expect(read("history.out").contains("demo.check-in"), "\(read("history.out"))")
        #expect(read("export.status").hasPrefix("0"), "export on a full disk: \(read("export.err"))")
        #expect(read("export.out").contains("One slide is not the talk"), "the stored answers are exported")
    }

    /// `reflect` under `ulimit -f KIB`, with SIGXFSZ at its default action
    /// and not blocked, as in a shell (perl resets both: this test process
    /// may ignore or block it, and a shell cannot undo that), answers on stdin.
    static func runLimited(kib: Int, _ arguments: [String], stdin: String) throws -> CLIRunner.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        process.arguments = ["-MPOSIX", "-e", "$SIG{XFSZ} = 'DEFAULT'; sigprocmask(SIG_UNBLOCK, POSIX::SigSet->new(SIGXFSZ)); exec @ARGV or die", "/bin/sh", "-c", "ulimit -f \(kib) && exec \"$0\" \"$@\"",
                             CLIRunner.executable.path] + arguments
        process.currentDirectoryURL = repositoryRoot
        process.environment = CLIRunner.isolatedEnvironment()
        var output = try CLIRunner.finish(process, stdin: stdin)
        if process.terminationReason == .uncaughtSignal { output.status += 128 }
        return output
    }
}

/// Whether this process may mount a tmpfs in a mount namespace of its own.
enum FullDisk {
    static let available: Bool = {
        guard getuid() == 0 else { return false }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-tmpfs-probe-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: dir) }
        let probe = try? Spawn.run("/usr/bin/unshare", ["-m", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs \"$1\"", "sh", dir.path])
        return probe?.status == 0
    }()
}

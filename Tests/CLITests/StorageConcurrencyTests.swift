import Foundation
import ReflectStore
import Testing

/// Issue 12, item 2: first use of a new database by two processes at once.
@Suite("storage: concurrent first use", .hangGuard)
struct StorageConcurrencyTests {
    struct Outcome {
        var status: Int32
        var signalled: Bool
        var stdout: String
        var stderr: String
    }

    /// Starts `reflect ARGS` without waiting for it.
    final class Started {
        let process = Process()
        let out = Pipe(), err = Pipe()

        init(_ arguments: [String]) throws {
            process.executableURL = CLIRunner.executable
            process.arguments = arguments
            process.environment = CLIRunner.isolatedEnvironment()
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = out
            process.standardError = err
            try process.run()
        }

        func wait() -> Outcome {
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                           stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
        }
    }

    @Test("300 rounds of two processes first-using one new database path: no lost acknowledged write, no crash, only retryable errors")
    func firstUse() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-first-use-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let start = Date()
        var acknowledged = 0, retryable = 0
        for round in 0..<300 {
            // A directory that does not exist yet: both create it, the file and the schema.
            let db = root.appendingPathComponent("round-\(round)/data/reflect.sqlite").path
            let writers = try ["a", "b"].map { user in
                try Started(["log", user == "a" ? "good" : "bad", "--note", "round \(round) \(user)", "--date", "2026-11-22",
                             "--user", user, "--db", db])
            }
            let outcomes = writers.map { $0.wait() }
            let store = try Store(path: db, access: .readOnly)
            for (user, outcome) in zip(["a", "b"], outcomes) {
                #expect(!outcome.signalled, "round \(round): \(user) crashed: \(outcome.stderr)")
                if outcome.status == 0 {
                    acknowledged += 1
                    #expect(outcome.stdout.hasPrefix("2026-11-22: "), "round \(round): \(outcome.stdout)")
                    let stored = try store.moodEntries(user: user)
                    #expect(stored.map(\.note) == ["round \(round) \(user)"], "round \(round): the acknowledged write of \(user) is lost")
                } else {
                    retryable += 1
                    #expect(outcome.stderr.contains("[store.busy]"), "round \(round): \(user) failed with \(outcome.stderr)")
                }
            }
        }
        let seconds = Date().timeIntervalSince(start)
        print("first use: 600 processes, \(acknowledged) acknowledged, \(retryable) retryable refusals, \(String(format: "%.1f", seconds)) s")
        #expect(acknowledged + retryable == 600)
    }
}

import Foundation
import Testing

/// Runs the built `reflect` executable as a person or a script would.
struct CLIRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stdout parsed as JSON lines.
        var events: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    static var executable: URL {
        // `REFLECT_TEST_EXECUTABLE`: another build of `reflect` (scripts/test
        // runs suites against the release build, linked differently).
        if let path = ProcessInfo.processInfo.environment["REFLECT_TEST_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // The test bundle and the executable are built side by side.
        var dir = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("reflect")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/reflect")
    }

    /// The environment for a spawned `reflect`: its own XDG_DATA_HOME, so a
    /// command without --db never touches the machine's real database and
    /// tests never see each other's sessions.
    static func isolatedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-xdg-\(UUID().uuidString)").path
        // Compiled locale chains go to a cache under the temporary directory,
        // never the person's ~/.cache (shared by the tests: keyed by content).
        if env["REFLECT_CACHE_DIR"] == nil {
            env["REFLECT_CACHE_DIR"] = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-tests-cache").path
        }
        for (k, v) in extra { env[k] = v }
        return env
    }

    static func run(_ arguments: [String], stdin: String = "", in directory: URL? = nil,
                    environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = CLIRunner.isolatedEnvironment(environment)
        return try finish(process, stdin: stdin)
    }

    /// Starts a configured `process`, writes `stdin` to it and closes it,
    /// and waits for its output and exit (the status as `Process` gives it).
    static func finish(_ process: Process, stdin: String) throws -> Output {
        let input = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// A throwaway content directory with the given files. Unless the files
/// include their own `locales/en.yaml`, the repository's is copied in:
/// the engine refuses to run without crisis lists.
struct ContentFixture {
    let root: URL

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-test-\(UUID().uuidString)")
        var files = files
        if files["locales/en.yaml"] == nil {
            files["locales/en.yaml"] = try String(contentsOf: repositoryRoot.appendingPathComponent("locales/en.yaml"), encoding: .utf8)
        }
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// The repository's own content (flows/ at the package root).
/// Reading it also points the compiled-locale cache of this process and the
/// commands it starts at the temporary directory (never ~/.cache).
let repositoryRoot: URL = {
    setenv("REFLECT_CACHE_DIR", FileManager.default.temporaryDirectory.appendingPathComponent("reflect-tests-cache").path, 0)
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}()

/// A `reflect` process fed one answer at a time, whose events are read as
/// they are printed, so a test can act at an exact point (kill it, say).
final class LiveProcess {
    let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private var buffer = Data()
    private(set) var events: [[String: Any]] = []

    init(_ arguments: [String], in directory: URL? = nil) throws {
        process.executableURL = CLIRunner.executable
        process.arguments = arguments
        process.environment = CLIRunner.isolatedEnvironment()
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Reads events until one satisfies `match` (or the output ends).
    @discardableResult
    func waitFor(_ match: ([String: Any]) -> Bool) -> [String: Any]? {
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                if let event = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] {
                    events.append(event)
                    if match(event) { return event }
                }
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

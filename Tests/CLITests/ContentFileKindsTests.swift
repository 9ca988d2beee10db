import Foundation
import Testing

/// A content directory holding something other than plain files where a
/// flow or a locale is expected — a named pipe nobody writes, a link to
/// `/dev/zero` — is refused naming the file and what it is; no command
/// hangs on it or reads it without end.
@Suite("content: pipes and devices among content files", .hangGuard)
struct ContentFileKindsTests {
    static let flow = """
        return flow { id = "x.ok", version = 1, title = "Fine", run = function(s)
          s:ask { id = "a", text = "What is on your mind?" }
        end }
        """

    /// `reflect` with these arguments, killed by `timeout` after 60 s (a
    /// process blocked opening a pipe does not end on SIGTERM).
    func run(_ arguments: [String], stdin: String = "") throws -> CLIRunner.Output {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-kinds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in")
        try Data(stdin.utf8).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "60", CLIRunner.executable.path] + arguments
        process.environment = CLIRunner.isolatedEnvironment()
        process.standardInput = try FileHandle(forReadingFrom: input)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRunner.Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("a named pipe and a link to /dev/zero in flows/: flows lists them as broken, naming what they are; run of another flow works")
    func flowFiles() throws {
        let fixture = try ContentFixture(["flows/x/ok.lua": Self.flow])
        defer { fixture.remove() }
        let pipe = fixture.root.appendingPathComponent("flows/x/pipe.lua").path
        try #require(mkfifo(pipe, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: fixture.root.appendingPathComponent("flows/x/zero.lua").path,
                                                   withDestinationPath: "/dev/zero")
        let flows = try run(["flows", "--content", fixture.root.path])
        #expect(flows.status != 137 && flows.status != 124, "reflect flows hung")
        let listed = flows.stdout + flows.stderr
        #expect(listed.contains("flows/x/pipe.lua") && listed.contains("named pipe"), "\(listed)")
        #expect(listed.contains("flows/x/zero.lua") && listed.contains("a device"), "\(listed)")
        #expect(listed.contains("x.ok"), "\(listed)")
        let db = fixture.root.appendingPathComponent("db").path
        let ran = try run(["run", "x.ok", "--content", fixture.root.path, "--db", db, "--answers", "-", "--format", "jsonl"],
                          stdin: "\"fine\"\n")
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.events.contains { $0["event"] as? String == "saved" })
        let direct = try run(["run", pipe, "--content", fixture.root.path, "--db", db, "--answers", "-"])
        #expect(direct.status == 1 && direct.stderr.contains("named pipe"), "\(direct.status) \(direct.stderr)")
    }

    @Test("a locale file that is a named pipe: the run is refused naming the file, never waits for a writer")
    func localeFile() throws {
        let fixture = try ContentFixture(["flows/x/ok.lua": Self.flow])
        defer { fixture.remove() }
        try #require(mkfifo(fixture.root.appendingPathComponent("locales/fr.yaml").path, 0o644) == 0)
        let db = fixture.root.appendingPathComponent("db").path
        // Twice: the second run finds English's chain in the compiled cache.
        for _ in 0..<2 {
            let ran = try run(["run", "x.ok", "--content", fixture.root.path, "--db", db, "--locale", "fr", "--answers", "-"],
                              stdin: "\"fine\"\n")
            #expect(ran.status == 1, "\(ran.status) \(ran.stderr)")
            #expect(ran.stderr.contains("locales/fr.yaml") && ran.stderr.contains("named pipe"), "\(ran.stderr)")
        }
    }
}

import Foundation

/// Runs `reflect` once and reports its own peak memory (VmHWM, KiB), read
/// from /proc/<pid>/status while it runs. VmHWM only grows, so the last
/// reading is a lower bound of the peak: a run can only be under-measured,
/// never over-measured (a bloat that lasts milliseconds could slip by; the
/// shapes tested bloat for seconds on code without the limits). Output goes
/// to files, so a large output never blocks the child.
struct MeasuredRun {
    var status: Int32
    var signaled: Bool
    var stdout: String
    var stderr: String
    var peakKiB: Int

    static func run(_ arguments: [String], stdin: String = "") throws -> MeasuredRun {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-measured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let inURL = tmp.appendingPathComponent("in"), outURL = tmp.appendingPathComponent("out"), errURL = tmp.appendingPathComponent("err")
        try Data(stdin.utf8).write(to: inURL)
        try Data().write(to: outURL)
        try Data().write(to: errURL)

        let process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = arguments
        process.environment = CLIRunner.isolatedEnvironment()
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        let status = "/proc/\(process.processIdentifier)/status"
        var peak = 0
        while process.isRunning {
            // Gone, or a zombie (exited, not yet reaped): nothing more to read.
            guard let text = try? String(contentsOfFile: status, encoding: .utf8), !text.contains("State:\tZ") else { break }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
                peak = max(peak, kib)
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        return MeasuredRun(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                           stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                           stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
                           peakKiB: peak)
    }

    var events: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

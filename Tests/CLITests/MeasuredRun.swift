import Foundation

/// Runs `reflect` once and reports its own peak memory: spawned with
/// posix_spawn and reaped with wait4, whose rusage is this child's alone
/// (ru_maxrss, KiB on Linux). Output goes to files, so a large output never
/// blocks the child.
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
        let inPath = tmp.appendingPathComponent("in").path, outPath = tmp.appendingPathComponent("out").path,
            errPath = tmp.appendingPathComponent("err").path
        try stdin.write(toFile: inPath, atomically: true, encoding: .utf8)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let env = CLIRunner.isolatedEnvironment().map { "\($0.key)=\($0.value)" }
        let argv = [CLIRunner.executable.path] + arguments
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, &cEnv)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        return MeasuredRun(status: exited ? (status >> 8) & 0xff : -1, signaled: !exited,
                           stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                           stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
                           peakKiB: Int(usage.ru_maxrss))
    }

    var events: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `reflect` run on a pseudo-terminal, as a person at a terminal runs it:
/// stdin, stdout and stderr are the terminal, so `reflect` uses its line
/// editor. Tests type bytes (keys, escape sequences, pastes) and read what
/// the screen received.
final class PseudoTerminal: @unchecked Sendable {
    let process = Process()
    private let master: Int32
    private let lock = NSLock()
    private var received = Data()
    private var reader: Thread?
    /// The terminal's settings before `reflect` started (``settings``).
    private(set) var initialSettings = ""

    /// - Parameter columns: the terminal's width (its height is 30 rows).
    init(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], columns: Int = 80) throws {
        // The POSIX pseudo-terminal calls, looked up in the C library (Swift's
        // Glibc module does not export them).
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        guard let libc = dlopen(nil, RTLD_NOW), let o = dlsym(libc, "posix_openpt"), let g = dlsym(libc, "grantpt"),
              let u = dlsym(libc, "unlockpt"), let n = dlsym(libc, "ptsname") else { throw POSIXError(.ENOSYS) }
        let openpt = unsafeBitCast(o, to: Open.self), grant = unsafeBitCast(g, to: Open.self)
        let unlock = unsafeBitCast(u, to: Open.self), ptsname = unsafeBitCast(n, to: Name.self)
        master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grant(master) == 0, unlock(master) == 0, let name = ptsname(master) else {
            throw POSIXError(.ENODEV)
        }
        let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENODEV) }
        var size = winsize(ws_row: 30, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        initialSettings = PseudoTerminal.settings(of: master)
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = CLIRunner.executable
        process.arguments = arguments
        var env = environment
        env["TERM"] = env["TERM"] ?? "xterm"
        process.environment = CLIRunner.isolatedEnvironment(env)
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        close(slave)
        let fd = master
        let thread = Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                guard n > 0 else { break }
                guard let self else { break }
                self.lock.withLock { self.received.append(contentsOf: buffer[0..<n]) }
            }
        }
        reader = thread
        thread.start()
    }

    /// A test that stops early (a failed `#require`) must not leave
    /// `reflect` running on a closed terminal.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        close(master)
    }

    /// Whether the terminal is in the kernel's line mode now (canonical:
    /// the kernel echoes keys and takes Ctrl-D as end of file) rather than
    /// handing each key to `reflect`'s line editor.
    var inLineMode: Bool {
        var settings = termios()
        guard tcgetattr(master, &settings) == 0 else { return false }
        return settings.c_lflag & tcflag_t(ICANON) != 0
    }

    /// The terminal's settings now, as `stty -g` prints them (input,
    /// output, control and local modes, then the control characters).
    var settings: String { PseudoTerminal.settings(of: master) }

    private static func settings(of fd: Int32) -> String {
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else { return "unreadable" }
        let cc = withUnsafeBytes(of: t.c_cc) { Array($0) }
        return ([t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag].map { String($0, radix: 16) } + cc.map { String($0, radix: 16) })
            .joined(separator: ":")
    }

    /// Sends `signal` to `reflect` (SIGTERM, SIGHUP: as a terminal closing or `kill` would).
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Everything the terminal showed so far, as text.
    var screen: String { lock.withLock { String(decoding: received, as: UTF8.self) } }

    /// Waits until the screen shows `text` after position `from`
    /// (characters); returns where it ends, or nil after `timeout` seconds.
    @discardableResult
    func waitFor(_ text: String, after from: String.Index? = nil, timeout: Double = 20) -> String.Index? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let s = screen
            let start = from.map { min($0, s.endIndex) } ?? s.startIndex
            if let r = s.range(of: text, range: start..<s.endIndex) { return r.upperBound }
            usleep(20_000)
        }
        return nil
    }

    /// Types bytes, as keys or a paste (written in pieces, as a terminal would).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].prefix(512).withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
            if n <= 0 { usleep(5_000); continue }
            offset += n
        }
    }

    /// Ctrl-C: the terminal driver sends SIGINT to the foreground process
    /// group of its session; here the terminal is not the process's
    /// controlling terminal, so the signal is sent as the driver would.
    func interrupt() { kill(process.processIdentifier, SIGINT) }

    /// Waits for the process to end (at most `timeout` seconds, then kills it).
    func finish(timeout: Double = 20) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

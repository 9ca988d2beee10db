import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The right to write one session: one holder at a time, across processes.
///
/// A lease is an exclusive `flock` on a small file next to the database,
/// `<database>-leases/<session id>`. The kernel holds the lock for the open
/// file, so:
/// - it is released when the lease is released or deinitialised, when the
///   process exits, and when it is killed (SIGKILL, a crash): nothing
///   stale is ever left to expire, and the next `resume` succeeds at once;
/// - a stopped (SIGSTOP) or slow holder keeps it: the session really is
///   still open there;
/// - no heartbeat, no clock, no write to the database.
/// The file holds the holder's pid, host and start time, for the message
/// a second writer gets (``StoreError/sessionOpenElsewhere(session:holder:)``).
/// Released leases remove their file; a file left by a killed holder is
/// simply locked again by the next one.
///
/// Every lease also holds a shared `flock` on the `<database>-leases`
/// directory itself: ``Store/deleteAll()`` takes it exclusively, so it
/// never deletes a session another process is writing (that process's next
/// answer failed with a foreign key error and was lost), and a session
/// cannot open while everything is being deleted.
public final class SessionLease: @unchecked Sendable {
    public let sessionID: String
    private let file: String
    private let lock = NSLock()
    private var fd: Int32
    /// The shared lock on the lease directory.
    private var openFD: Int32

    init(sessionID: String, file: String, fd: Int32, openFD: Int32) {
        self.sessionID = sessionID
        self.file = file
        self.fd = fd
        self.openFD = openFD
    }

    deinit { release() }

    /// Gives the session up (idempotent).
    public func release() {
        lock.lock()
        defer { lock.unlock() }
        guard fd >= 0 else { return }
        // Unlinked while still locked: a process that opened the old file
        // meanwhile notices (inode check in `acquire`) and retries.
        unlink(file)
        close(fd)
        fd = -1
        close(openFD)
        openFD = -1
    }

    /// How long taking a lease waits for a `delete-all` to finish, and
    /// `delete-all` for nothing: the store's busy timeout.
    static let waitForDeleteAll: Double = 10

    /// The lease directory of `databasePath`, created if needed.
    private static func directory(_ databasePath: String) throws(StoreError) -> String {
        let dir = databasePath + "-leases"
        if mkdir(dir, 0o700) != 0, errno != EEXIST {
            throw .cannotOpen(path: databasePath, reason: StoreFile.explain(errno, creating: "the directory \(dir)",
                                                                           in: (dir as NSString).deletingLastPathComponent))
        }
        var st = stat()
        if stat(dir, &st) == 0, st.st_mode & S_IFMT != S_IFDIR {
            throw .cannotOpen(path: databasePath, reason: "\(dir) is not a directory: Reflect keeps its session locks there; "
                              + "move that file away (it is not Reflect's)")
        }
        return dir
    }

    /// Opens the lease directory `dir` and locks it (`LOCK_SH`: a session
    /// is open; `LOCK_EX`: none is, nor can open); nil when another process
    /// holds a conflicting lock (after waiting up to `wait` seconds).
    private static func lockOpenSessions(_ dir: String, databasePath: String, operation: Int32,
                                         wait: Double) throws(StoreError) -> Int32? {
        let path = dir
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .cannotOpen(path: databasePath, reason: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(wait)
        while flock(fd, operation | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw .cannotOpen(path: databasePath, reason: "cannot lock \(path): \(String(cString: strerror(code)))")
            }
            guard Date() < deadline else {
                close(fd)
                return nil
            }
            usleep(20_000)
        }
        return fd
    }

    /// Takes the lease for `sessionID` on the database at `databasePath`.
    /// - Throws: ``StoreError/sessionOpenElsewhere(session:holder:)`` when
    ///   another holder has it; ``StoreError/cannotOpen(path:reason:)``
    ///   when the lease file cannot be created.
    static func acquire(sessionID: String, databasePath: String) throws(StoreError) -> SessionLease {
        let dir = try directory(databasePath)
        guard let openFD = try lockOpenSessions(dir, databasePath: databasePath, operation: LOCK_SH, wait: waitForDeleteAll) else {
            throw .busy("everything in \(databasePath) is being deleted (reflect delete-all)")
        }
        let file = dir + "/" + fileName(for: sessionID)
        while true {
            let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                close(openFD)
                throw .cannotOpen(path: databasePath, reason: StoreFile.explain(errno, creating: "the lease file", in: dir))
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                let holder = String(decoding: readAll(fd), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                close(fd)
                close(openFD)
                if code == EWOULDBLOCK {
                    throw .sessionOpenElsewhere(session: sessionID, holder: holder.isEmpty ? "another process" : holder)
                }
                throw .cannotOpen(path: databasePath, reason: "cannot lock \(file): \(String(cString: strerror(code)))")
            }
            // The holder we waited behind may have removed the file: only a
            // lock on the file that is at the path counts.
            var held = stat(), current = stat()
            guard fstat(fd, &held) == 0, stat(file, &current) == 0, held.st_ino == current.st_ino, held.st_dev == current.st_dev else {
                close(fd)
                continue
            }
            let me = "held by pid \(getpid()) on \(ProcessInfo.processInfo.hostName) since \(utcStamp(Date()))\n"
            _ = ftruncate(fd, 0)
            _ = me.withCString { pwrite(fd, $0, strlen($0), 0) }
            return SessionLease(sessionID: sessionID, file: file, fd: fd, openFD: openFD)
        }
    }

    /// Runs `body` while no session of the database at `databasePath` is
    /// open (no lease is held) and none can open (an exclusive lock on the
    /// lease directory). - Throws: ``StoreError/sessionOpenElsewhere(session:holder:)``
    /// naming a session open in another process.
    static func withNoSessionOpen<T>(databasePath: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let dir = try directory(databasePath)
        guard let fd = try lockOpenSessions(dir, databasePath: databasePath, operation: LOCK_EX, wait: 0) else {
            let (session, holder) = heldLease(dir) ?? ("?", "another process")
            throw .sessionOpenElsewhere(session: session, holder: holder)
        }
        defer { close(fd) }
        return try body()
    }

    /// A lease file in `dir` that another process holds: its session's file
    /// name and what its holder wrote.
    private static func heldLease(_ dir: String) -> (String, String)? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return nil }
        for name in names.sorted() {
            let fd = open(dir + "/" + name, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if flock(fd, LOCK_SH | LOCK_NB) != 0, errno == EWOULDBLOCK {
                let holder = String(decoding: readAll(fd), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return (name, holder.isEmpty ? "another process" : holder)
            }
        }
        return nil
    }

    /// `date` as `ISO8601DateFormatter()` writes it (UTC, whole seconds:
    /// `2026-11-24T11:20:13Z`), without creating that formatter, whose ICU
    /// set-up was most of the cost of taking a lease.
    static func utcStamp(_ date: Date) -> String {
        // Foundation's formatter takes the instant to the nearest
        // millisecond first (half a millisecond added, then floored), in
        // this arithmetic, and then drops the milliseconds.
        let milliseconds = (date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5
        let whole = (milliseconds / 1000).rounded(.down)
        guard whole.isFinite, abs(whole) < 1e12 else { return ISO8601DateFormatter().string(from: date) }
        var seconds = time_t(whole)
        var t = tm()
        guard gmtime_r(&seconds, &t) != nil else { return ISO8601DateFormatter().string(from: date) }
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : String(v) }
        let year = Int(t.tm_year) + 1900
        guard (1000...9999).contains(year) else { return ISO8601DateFormatter().string(from: date) }
        return "\(year)-\(two(t.tm_mon + 1))-\(two(t.tm_mday))T\(two(t.tm_hour)):\(two(t.tm_min)):\(two(t.tm_sec))Z"
    }

    /// Session ids are letters, digits and '-' (validated on import); any
    /// other character is hex-escaped so the name stays one path component.
    static func fileName(for id: String) -> String {
        var name = ""
        for byte in id.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || c == "-" { name.append(c) } else { name += String(format: "_%02x", byte) }
        }
        return name.isEmpty ? "_" : name
    }

    private static func readAll(_ fd: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = pread(fd, &buffer, buffer.count, 0)
        return n > 0 ? Array(buffer[..<n]) : []
    }
}

extension Store {
    /// Takes the right to write session `id` (see ``SessionLease``). Hold
    /// the lease while the session is open; release it (or let it go) when
    /// done.
    public func lease(session id: String) throws(StoreError) -> SessionLease {
        try SessionLease.acquire(sessionID: id, databasePath: path)
    }
}

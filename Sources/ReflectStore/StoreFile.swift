import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creating the database's directory and file: owner-only, and safe when
/// several processes do it at once.
///
/// The file is created in place with `open(O_CREAT)` (no `O_EXCL`, no
/// `O_TRUNC`, no temporary file renamed over it): two processes racing get
/// the same, still empty file, and a process that already opened the
/// database never has its file replaced under it. An empty file is a valid
/// empty SQLite database.
enum StoreFile {
    /// Refuses a path that names something other than a regular file (or
    /// a link to one): SQLite would block for ever opening a named pipe,
    /// read a device such as `/dev/zero` as an empty database (and take
    /// `/dev/zero-journal` beside it), and call a directory a "disk I/O
    /// error". A missing path is fine: it is created when written.
    static func checkKind(_ path: String) throws(StoreError) {
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        let kind: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a named pipe"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a device"
        }
        throw StoreError.cannotOpen(path: path, reason: "it is \(kind), not a regular file; give the path of a database file")
    }

    static func ensureExists(_ path: String) throws(StoreError) {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try ensureDirectory(dir, path: path) }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 {
            let code = errno
            // Opening read-write can fail on an existing read-only file: SQLite decides then.
            if code == EACCES || code == EROFS, FileManager.default.fileExists(atPath: path) { return }
            throw StoreError.cannotOpen(path: path, reason: explain(code, creating: "the file", in: dir))
        }
        close(fd)
    }

    /// `mkdir -p`, 0700 for the directories it creates; a directory that
    /// appears meanwhile (another process) is fine.
    private static func ensureDirectory(_ dir: String, path: String) throws(StoreError) {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
            guard isDir.boolValue else { throw StoreError.cannotOpen(path: path, reason: "\(dir) is not a directory") }
            return
        }
        let parent = (dir as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != dir { try ensureDirectory(parent, path: path) }
        if mkdir(dir, 0o700) != 0, errno != EEXIST {
            throw StoreError.cannotOpen(path: path, reason: explain(errno, creating: "the directory \(dir)", in: parent))
        }
    }

    /// A file size limit (`ulimit -f`, `RLIMIT_FSIZE`) makes the kernel send
    /// SIGXFSZ to a process writing past it, and its default action ends
    /// the process at once, with nothing said (a killed `reflect` in the
    /// middle of a session). Ignored, the write fails with `EFBIG` and
    /// SQLite reports an error the store maps to
    /// ``StoreError/diskFull(path:reason:)``. Only the default action is
    /// replaced: an application that handles the signal keeps its handler.
    static func ignoreFileSizeSignal() {
        _ = ignoreFileSizeSignalOnce
    }

    private static let ignoreFileSizeSignalOnce: Void = {
        var current = sigaction()
        guard sigaction(SIGXFSZ, nil, &current) == 0 else { return }
        #if canImport(Glibc)
        let isDefault = current.__sigaction_handler.sa_handler == nil
        #else
        let isDefault = current.__sigaction_u.__sa_handler == nil
        #endif
        guard isDefault else { return }
        signal(SIGXFSZ, SIG_IGN)
    }()

    /// Why writing `path` (or its `-wal` / `-shm`) can fail for lack of
    /// room, when it can: the file system holding it has (almost) no space
    /// left, or the process's file size limit is at or below what the
    /// database's files need. `nil` when neither holds (another I/O error).
    static func spaceShortage(_ path: String) -> String? {
        let dir = (path as NSString).deletingLastPathComponent
        var fs = statvfs()
        if statvfs(dir.isEmpty ? "." : dir, &fs) == 0 {
            let free = UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
            if free < 1 << 20 {
                return "no space left on the file system holding \(dir.isEmpty ? "." : dir) (\(free / 1024) KiB free)"
            }
        }
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
        let resource = RLIMIT_FSIZE
        #endif
        if getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max {
            let largest = [path, path + "-wal", path + "-shm"].map { file -> UInt64 in
                var st = stat()
                return stat(file, &st) == 0 ? UInt64(max(st.st_size, 0)) : 0
            }.max() ?? 0
            // SQLite writes a page (and a WAL frame) past the current end.
            if largest + (1 << 16) >= UInt64(limit.rlim_cur) {
                return "the file size limit of this process (ulimit -f: \(UInt64(limit.rlim_cur) / 1024) KiB) was reached"
            }
        }
        return nil
    }

    /// "permission denied: cannot create the file in /x (directory /x has mode 0, owner uid 0)";
    /// a path without a directory names the current one.
    static func explain(_ code: Int32, creating what: String, in dir: String) -> String {
        let reason = String(cString: strerror(code)).lowercased()
        let place = dir.isEmpty ? FileManager.default.currentDirectoryPath : dir
        var detail = ""
        if code == EACCES || code == EPERM || code == EROFS {
            var st = stat()
            if stat(place, &st) == 0 {
                detail = " (directory \(place) has mode \(String(st.st_mode & 0o777, radix: 8)), owner uid \(st.st_uid)"
                    + (code == EROFS ? ", on a read-only file system)" : ")")
            }
        }
        return "\(reason): cannot create \(what)\(what.hasPrefix("the file") ? " in \(place)" : "")\(detail)"
    }
}

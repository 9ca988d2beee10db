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

    /// "permission denied: cannot create the file in /x (directory mode 000, owner uid 0)".
    static func explain(_ code: Int32, creating what: String, in dir: String) -> String {
        let reason = String(cString: strerror(code)).lowercased()
        var detail = ""
        if code == EACCES || code == EPERM || code == EROFS {
            var st = stat()
            if stat(dir.isEmpty ? "." : dir, &st) == 0 {
                detail = " (directory \(dir) has mode \(String(st.st_mode & 0o777, radix: 8)), owner uid \(st.st_uid)"
                    + (code == EROFS ? ", on a read-only file system)" : ")")
            }
        }
        return "\(reason): cannot create \(what)\(what.hasPrefix("the file") ? " in \(dir)" : "")\(detail)"
    }
}

import GRDB

/// Why the store could not do what was asked.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file cannot be opened or created (path, reason).
    case cannotOpen(path: String, reason: String)
    /// The file is not a Reflect database (another application's SQLite
    /// file, or not SQLite at all). Nothing was written to it.
    case foreignDatabase(path: String, reason: String)
    /// The database was written by a newer Reflect (a schema version or
    /// migrations this one does not know). Nothing was written to it.
    case newerDatabase(path: String, reason: String)
    /// The database is at an older schema, which a read-only command reads
    /// only once it is upgraded, and it cannot be upgraded here (a file or
    /// mount this process cannot write). Nothing was written to it.
    case olderDatabase(path: String, version: Int, reason: String)
    /// Another process holds the database (or is upgrading it) for longer
    /// than the busy timeout. Retrying later is safe: nothing was written.
    case busy(String)
    /// The database cannot be written here (read-only file or mount).
    case readOnly(path: String)
    /// The database's files cannot grow: the disk is full, or a file size
    /// limit was reached (`reason` says which). The transaction was rolled
    /// back: nothing of it was written, and what was stored before is intact.
    case diskFull(path: String, reason: String)
    /// SQLite failed (after retries for a busy database).
    /// SQLite found the file's pages inconsistent (`SQLITE_CORRUPT`): a
    /// disk fault, or a file changed by something other than SQLite.
    case damaged(path: String, reason: String)
    case database(String)
    /// A search through a read-only store while the related-entries index
    /// has answers to catch up with, which only a writer can add: refused
    /// rather than searched without them.
    case searchNotCaughtUp(path: String)
    /// No session with this id (or id prefix).
    case sessionNotFound(String)
    /// An id prefix matches more than one session.
    case ambiguousSession(String, matches: Int)
    /// Another process has this session open (see ``SessionLease``).
    case sessionOpenElsewhere(session: String, holder: String)
    /// A stored setting cannot be read (a value this version refuses).
    case invalidSetting(key: String, value: String, reason: String)
    /// An import file is invalid: which record and field, and why. Nothing
    /// was written.
    case invalidImport(record: String, field: String, reason: String)
    /// A record a person asked to write (`reflect log`) is invalid: which
    /// record and field, and why. Nothing was written.
    case invalidEntry(record: String, field: String, reason: String)

    public var code: String {
        switch self {
        case .cannotOpen: "store.cannot_open"
        case .foreignDatabase: "store.foreign_database"
        case .newerDatabase: "store.newer_database"
        case .olderDatabase: "store.older_database"
        case .busy: "store.busy"
        case .readOnly: "store.read_only"
        case .diskFull: "store.disk_full"
        case .damaged: "store.damaged"
        case .database: "store.database"
        case .searchNotCaughtUp: "store.search_not_caught_up"
        case .sessionNotFound: "store.session_not_found"
        case .ambiguousSession: "store.ambiguous_session"
        case .sessionOpenElsewhere: "store.session_open_elsewhere"
        case .invalidSetting: "store.invalid_setting"
        case .invalidImport: "import.invalid"
        case .invalidEntry: "store.invalid_entry"
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open the database at \(path): \(reason)"
        case .foreignDatabase(let path, let reason):
            "\(path) is not a Reflect database (\(reason)); it was left untouched. Give another file with --db."
        case .newerDatabase(let path, let reason):
            "\(path) was written by a newer version of Reflect (\(reason)); it was left untouched. Update Reflect to use it."
        case .olderDatabase(let path, let version, let reason):
            "\(path) was written by an older version of Reflect (schema version \(version)) and must be upgraded before it is read, "
                + "but \(reason); it was left untouched. Run any reflect command on it once where it can be written "
                + "(e.g. `reflect history --db \(path)`), then try again."
        case .busy(let m): "the database is busy (\(m)); nothing was written, try again"
        case .readOnly(let path): "the database at \(path) is read-only here; nothing was written"
        case .diskFull(let path, let reason):
            "cannot write the database at \(path): \(reason); nothing was written. Free some space (or raise the limit) and try again"
        case .damaged(let path, let reason):
            "the database at \(path) is damaged (\(reason)); nothing was written. Copy the file somewhere safe before anything else, "
                + "then restore it from a backup if you have one"
        case .database(let m): "database error: \(m)"
        case .searchNotCaughtUp(let path):
            "the related-entries index of \(path) has answers to add, which read-only access cannot write; "
                + "open it once where it can be written (any `reflect run` does), then search again"
        case .sessionNotFound(let id): "no session '\(id)'"
        case .ambiguousSession(let id, let n): "'\(id)' matches \(n) sessions; give more of the id"
        case .sessionOpenElsewhere(let id, let holder):
            "this session is open elsewhere (\(id.prefix(8)), \(holder)); finish or quit it there first"
        case .invalidSetting(let key, let value, _):
            "the stored setting \(key) = '\(value.prefix(64))' cannot be used; set it again with `reflect settings set \(key) VALUE`"
        case .invalidImport(let record, let field, let reason):
            field.isEmpty ? "invalid import: \(record): \(reason)" : "invalid import: \(record).\(field): \(reason)"
        case .invalidEntry(let record, let field, let reason):
            "cannot record this \(record): \(field): \(reason); nothing was written"
        }
    }

    /// Maps an error thrown by GRDB/SQLite: store errors pass through; a
    /// busy or locked database becomes the retryable ``busy(_:)``; a
    /// read-only one ``readOnly(path:)``; a full disk (`SQLITE_FULL`, or an
    /// I/O error while the file system or the file size limit leaves no
    /// room: SQLite reports `EFBIG` and a `-shm` it cannot size as plain
    /// I/O errors) ``diskFull(path:reason:)``; inconsistent pages
    /// ``damaged(path:reason:)``.
    static func mapping(_ error: any Error, path: String) -> StoreError {
        if let e = error as? StoreError { return e }
        if let e = error as? DatabaseError {
            if e.resultCode == .SQLITE_FULL || e.resultCode == .SQLITE_IOERR, let shortage = StoreFile.spaceShortage(path) {
                return .diskFull(path: path, reason: shortage)
            }
            if e.resultCode == .SQLITE_FULL {
                return .diskFull(path: path, reason: "the disk is full (\(e.message ?? "database or disk is full"))")
            }
            switch e.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .busy("another process holds it: \(e.message ?? "database is locked")")
            case .SQLITE_READONLY:
                return .readOnly(path: path)
            case .SQLITE_NOTADB:
                return .foreignDatabase(path: path, reason: "it is not an SQLite database")
            case .SQLITE_CORRUPT:
                return .damaged(path: path, reason: e.message ?? "database disk image is malformed")
            default:
                return .database(e.message.map { "\($0) (SQLite code \(e.extendedResultCode.rawValue))" } ?? "\(e)")
            }
        }
        return .database(Store.reason(error))
    }
}

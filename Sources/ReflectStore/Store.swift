import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The embedded SQLite store (GRDB): sessions and their answer logs, mood
/// entries, and the tables later features fill.
///
/// Guarantees (docs/storage.md lists the tests that hold each):
/// - every write is one transaction; a method that returns has committed,
///   and the commit is synced to disk (WAL, `synchronous = FULL`: one
///   fsync of the write-ahead log per commit), so it survives a killed
///   process and a power loss;
/// - a file that is not a Reflect database, or is from a newer Reflect, is
///   refused before anything is written to it (``DatabaseIdentity``);
/// - several processes may open, create and migrate one database at once
///   (``StoreFile``, ``Migrations``); a busy database is waited for (10 s),
///   then reported as the retryable ``StoreError/busy(_:)``;
/// - ``Access/readOnly`` writes nothing, works on a read-only file or
///   mount, and does not wait for another process's write lock — except
///   to upgrade a file at an older schema first, once (a file that cannot
///   be upgraded there is refused, ``StoreError/olderDatabase(path:version:reason:)``);
/// - the file and its directory are created owner-only (0600 / 0700).
public final class Store: Sendable {
    public enum Access: Sendable {
        /// Creates and migrates the database if needed.
        case readWrite
        /// Never creates: a missing file reads as empty. Writes nothing,
        /// except upgrading a file at an older schema, once, before reading it.
        case readOnly
    }

    /// How reads reach the database (``Access/readWrite`` only; a
    /// read-only store has one connection).
    public enum Reading: Sendable {
        /// On reader connections beside the writer (a GRDB pool): a read
        /// runs while another thread of this process writes.
        case concurrent
        /// On the one connection that also writes (a GRDB queue, WAL as
        /// well): no second connection is opened — its set-up and schema
        /// read are most of what the store costs a short process — and a
        /// read waits for a write of this process in progress. Each read
        /// is still one read-only transaction on a committed snapshot, and
        /// other processes read and write beside it as before.
        case serialized
    }

    public let path: String
    public let access: Access
    let writer: any DatabaseWriter
    /// The answer write's statements on the writer connection (AnswerWrite.swift).
    let answerWrites = AnswerWriteCache()

    /// `$XDG_DATA_HOME/reflect/reflect.sqlite`, or
    /// `~/.local/share/reflect/reflect.sqlite` when XDG_DATA_HOME is unset.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/reflect/reflect.sqlite"
    }

    /// Opens the database at `path`: with `.readWrite`, creating and
    /// migrating it if needed; with `.readOnly`, as it is.
    public init(path: String, access: Access = .readWrite, reading: Reading = .concurrent) throws(StoreError) {
        self.path = path
        self.access = access
        StoreFile.ignoreFileSizeSignal()
        try StoreFile.checkKind(path)
        do {
            switch access {
            case .readWrite: writer = try Store.openForWriting(path, reading: reading)
            case .readOnly: writer = try Store.openForReading(path)
            }
        } catch {
            throw Store.openError(error, path: path)
        }
    }

    private static func configuration(path: String, readonly: Bool, grdbTurnsOnWAL: Bool = true) -> Configuration {
        var config = Configuration()
        config.readonly = readonly
        config.busyMode = .timeout(10)
        config.foreignKeysEnabled = true
        config.journalMode = grdbTurnsOnWAL ? .wal : .default
        config.prepareDatabase { db in
            // Reads only, before GRDB turns on WAL and before migrations.
            try DatabaseIdentity.check(db, path: path)
            // The related-entries index's triggers call it (SearchText).
            try SearchText.register(db)
        }
        return config
    }

    private static func openForWriting(_ path: String, reading: Reading) throws -> any DatabaseWriter {
        try StoreFile.ensureExists(path)
        let pool: any DatabaseWriter = try open(path, reading: reading)
        // GRDB turns WAL on and sets `synchronous = NORMAL` on the writer
        // *after* prepareDatabase, so FULL is set here, on the one writer
        // connection, where it stays. FULL syncs the WAL at every
        // commit: an answer a person typed is worth a millisecond of fsync
        // (NORMAL would lose the last answers to a power loss or OS crash).
        let version = try pool.writeWithoutTransaction { db -> Int in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            return try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        }
        // Every migration sets `user_version` to its number in its own
        // transaction, in order: a database at ``Migrations/schemaVersion``
        // has them all, and opening it does not build or run the migrator
        // (a start's cost). Any other version goes through the migrator,
        // which applies what is missing, safely against other processes.
        if version != Migrations.schemaVersion { try Migrations.migrate(pool) }
        return pool
    }

    /// The pool (or queue), with GRDB turning WAL on. SQLite does not call the busy
    /// handler for the exclusive lock that `PRAGMA journal_mode = WAL`
    /// takes, so when several processes first-use a new file at once, all
    /// but one can get SQLITE_BUSY there at once. Opening writes nothing
    /// else that could be half done, so it is retried, within the same
    /// 10 s as any busy database.
    private static func open(_ path: String, reading: Reading) throws -> any DatabaseWriter {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                switch reading {
                case .concurrent: return try DatabasePool(path: path, configuration: configuration(path: path, readonly: false))
                case .serialized:
                    let queue = try DatabaseQueue(path: path, configuration: configuration(path: path, readonly: false, grdbTurnsOnWAL: false))
                    try queue.writeWithoutTransaction { db in try turnOnWAL(db, path: path) }
                    return queue
                }
            } catch let e as DatabaseError where e.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(UInt32.random(in: 2_000...20_000))
            }
        }
    }

    /// What GRDB's `journalMode = .wal` does when it opens a connection,
    /// for the one connection of ``Reading/serialized``: WAL on, and a
    /// write-ahead log that is not empty (GRDB issues 102 and 1383: a
    /// connection opened later reads through it), its size read with one
    /// `stat` instead of Foundation's URL resource values (most of what
    /// opening cost there). StoreTests compares the files both leave.
    static func turnOnWAL(_ db: Database, path: String) throws {
        guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
            throw DatabaseError(message: "could not activate WAL Mode at path: \(path)")
        }
        try db.execute(sql: "PRAGMA synchronous = NORMAL")  // as GRDB does; FULL is set right after
        var st = stat()
        if stat(path + "-wal", &st) != 0 || st.st_size == 0 {
            try db.inSavepoint {
                try db.execute(sql: "CREATE TABLE grdb_issue_102 (id INTEGER PRIMARY KEY); DROP TABLE grdb_issue_102;")
                return .commit
            }
        }
    }

    /// Nothing stored yet: an empty schema in memory, nothing on disk.
    private static func emptyForReading() throws -> any DatabaseWriter {
        var config = Configuration()
        config.prepareDatabase { db in try SearchText.register(db) }
        let empty = try DatabaseQueue(configuration: config)
        try Migrations.migrate(empty)
        return empty
    }

    /// The database at `path`, read-only, at the schema this version reads.
    /// A file at an older schema is upgraded first, once, through a
    /// writer (``openForWriting(_:reading:)``: its migrations, under the
    /// write lock, safe against other processes), then opened read-only:
    /// every read names columns and tables of the latest schema, and an
    /// old file read as it is would fail on them or show less than it
    /// holds. A file that cannot be upgraded here (a read-only file or
    /// mount) is refused (``StoreError/olderDatabase(path:version:reason:)``),
    /// untouched. An existing empty file reads as empty, as a missing one.
    private static func openForReading(_ path: String) throws -> any DatabaseWriter {
        guard FileManager.default.fileExists(atPath: path) else { return try emptyForReading() }
        let reader = try openReadOnly(path)
        let (version, empty) = try reader.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0)
        }
        if version == Migrations.schemaVersion { return reader }
        if empty { return try emptyForReading() }
        // Older (a newer one was refused when it was opened): upgraded, then read.
        try reader.close()
        do {
            let writer = try openForWriting(path, reading: .serialized)
            try writer.close()
        } catch {
            // A read-only file says SQLITE_READONLY; a WAL file on a
            // read-only mount, SQLITE_CANTOPEN (its -shm cannot be made).
            let mapped = StoreError.mapping(error, path: path)
            let noWriteAccess = switch mapped {
            case .readOnly, .cannotOpen: true
            default: (error as? DatabaseError)?.resultCode == .SQLITE_CANTOPEN
            }
            guard noWriteAccess else { throw mapped }
            throw StoreError.olderDatabase(path: path, version: version, reason: "it cannot be upgraded here (no write access)")
        }
        return try openReadOnly(path)
    }

    private static func openReadOnly(_ path: String) throws -> DatabaseQueue {
        do {
            return try DatabaseQueue(path: path, configuration: configuration(path: path, readonly: true))
        } catch let e as DatabaseError where FileManager.default.isReadableFile(atPath: path)
                    && (e.resultCode == .SQLITE_CANTOPEN
                        || ((e.resultCode == .SQLITE_IOERR || e.resultCode == .SQLITE_FULL) && StoreFile.spaceShortage(path) != nil)) {
            // A WAL database on a read-only mount: its -shm cannot be
            // created. On a full disk (or past the file size limit) it
            // cannot be sized. Nothing can write the database then (no
            // room for a log frame), so it is immutable, and a person can
            // still read and export what they wrote; unless a write-ahead
            // log is left over, which could then not be read: better
            // refused than shown without its last answers.
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
            guard wal == 0 else {
                throw StoreError.cannotOpen(path: path, reason: "its write-ahead log (\(path)-wal) holds changes that cannot be read "
                                            + "without write access to the directory and room on its disk; open it once where it can be written")
            }
            var allowed = CharacterSet.urlPathAllowed
            allowed.remove(charactersIn: "?#%")
            let uri = "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?immutable=1"
            return try DatabaseQueue(path: uri, configuration: configuration(path: path, readonly: true))
        }
    }

    private static func openError(_ error: any Error, path: String) -> StoreError {
        switch StoreError.mapping(error, path: path) {
        case .database(let m): .cannotOpen(path: path, reason: m)
        case let other: other
        }
    }

    /// Runs a write transaction (`BEGIN IMMEDIATE`, as GRDB's own write),
    /// mapping SQLite errors. BEGIN and COMMIT are prepared once per
    /// connection, not parsed again for every answer; on any error the
    /// transaction is rolled back and nothing of `body` is kept.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writer.writeWithoutTransaction { db in
                try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
                do {
                    let result = try body(db)
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    return result
                } catch {
                    if db.isInsideTransaction { try? db.rollback() }
                    throw error
                }
            }
        } catch { throw StoreError.mapping(error, path: path) }
    }

    /// ``write(_:)`` for an answer: the same transaction (`BEGIN IMMEDIATE`,
    /// rolled back on any error), begun and committed on the writer
    /// connection's own statements, with them at hand for the answer's row
    /// (AnswerWrite.swift).
    func writeAnswer(_ body: (Database, AnswerStatements) throws -> Void) throws(StoreError) {
        do {
            try writer.writeWithoutTransaction { db in
                let statements = try answerWrites.statements(db)
                try statements.beginTransaction(db)
                // Every day the transaction writes keeps the connection's
                // known last rows (DayHeads.swift).
                statements.days.activate()
                defer { statements.days.deactivate() }
                do {
                    try body(db, statements)
                    try statements.commitTransaction(db)
                } catch {
                    statements.forget()
                    if db.isInsideTransaction { try? db.rollback() }
                    throw error
                }
            }
        } catch { throw StoreError.mapping(error, path: path) }
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try writer.read(body) } catch { throw StoreError.mapping(error, path: path) }
    }
}

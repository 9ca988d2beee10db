import Foundation
import GRDB

/// The embedded SQLite store (GRDB): sessions and their answer logs, mood
/// entries, and the tables later features fill.
///
/// Guarantees:
/// - every write is one transaction; a method that returns has committed;
/// - the database is in WAL mode with `synchronous = FULL` (see ``open``);
/// - the file and its directory are created owner-only (0600 / 0700);
/// - several processes may write at once: a busy database is waited for
///   (10 s) instead of failing.
public final class Store: Sendable {
    public let path: String
    let pool: DatabasePool

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

    /// Opens (creating if needed) the database at `path` and migrates it.
    public init(path: String) throws(StoreError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let fm = FileManager.default
        do {
            let dir = url.deletingLastPathComponent()
            if !fm.fileExists(atPath: dir.path) {
                try fm.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            if !fm.fileExists(atPath: path) {
                // Created before SQLite touches it, so it is never world-readable;
                // SQLite gives the -wal and -shm files the same permissions.
                guard fm.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw StoreError.cannotOpen(path: path, reason: "cannot create the file")
                }
            }
        } catch let e as StoreError {
            throw e
        } catch {
            throw .cannotOpen(path: path, reason: error.localizedDescription)
        }
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            // WAL (set by DatabasePool) with synchronous = FULL: each commit
            // syncs the WAL, so an answer that was acknowledged survives a
            // killed process *and* a power loss or OS crash. NORMAL would
            // only survive the former; an fsync per answer costs a few
            // milliseconds, invisible at human typing speed.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            try Migrations.migrator.migrate(pool)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Runs a write transaction, mapping SQLite errors.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.write(body) } catch let e as StoreError { throw e } catch { throw .database("\(error)") }
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.read(body) } catch let e as StoreError { throw e } catch { throw .database("\(error)") }
    }
}

import GRDB

/// Whose database a file is, decided from reads only, before anything is
/// written to it (it runs in `Configuration.prepareDatabase`, before GRDB
/// turns on WAL and before any migration).
///
/// A Reflect database carries `PRAGMA application_id` = ``applicationID``
/// and `PRAGMA user_version` = the number of migrations applied (from
/// migration `v3` on). Accepted:
/// - an empty file (a new database);
/// - ours, at a schema version and with migrations this build knows;
/// - a database from before `v3` (application id 0): `grdb_migrations`
///   lists only known migrations and Reflect's tables are there.
///
/// Refused, as ``StoreError/foreignDatabase(path:reason:)``: another
/// application id, or tables that Reflect did not make. Refused as
/// ``StoreError/newerDatabase(path:reason:)``: a higher schema version or
/// an unknown migration.
enum DatabaseIdentity {
    /// 'Rflt'.
    static let applicationID: Int32 = 0x5266_6C74

    static func check(_ db: Database, path: String) throws {
        // One read transaction: a consistent snapshot even while another
        // process is migrating the file.
        try db.inTransaction(.deferred) {
            try check(snapshot: db, path: path)
            return .commit
        }
    }

    private static func check(snapshot db: Database, path: String) throws {
        let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"))
        let known = Migrations.identifiers
        let applied = tables.contains("grdb_migrations")
            ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
        let unknown = applied.filter { !known.contains($0) }.sorted()

        if appID == applicationID {
            if version > Migrations.schemaVersion {
                throw StoreError.newerDatabase(path: path, reason: "schema version \(version); this version knows up to \(Migrations.schemaVersion)")
            }
            if !unknown.isEmpty {
                throw StoreError.newerDatabase(path: path, reason: "unknown migrations: \(unknown.joined(separator: ", "))")
            }
            return
        }
        if appID != 0 {
            throw StoreError.foreignDatabase(path: path, reason: "it belongs to another application: application_id 0x\(String(UInt32(bitPattern: appID), radix: 16))")
        }
        // Application id 0: new, from before v3, or someone else's.
        let ours = tables.subtracting(["grdb_migrations"]).subtracting(Migrations.shadowTables)
        if ours.isEmpty && applied.isEmpty && version == 0 { return }  // new (or a first use interrupted before v1 committed)
        if !unknown.isEmpty {
            throw StoreError.newerDatabase(path: path, reason: "unknown migrations: \(unknown.joined(separator: ", ")); "
                                           + "written by a newer Reflect or by another application")
        }
        let foreignTables = ours.subtracting(Migrations.tables).sorted()
        if !foreignTables.isEmpty || applied.isEmpty || version != 0 {
            let shown = (foreignTables.isEmpty ? ours.sorted() : foreignTables).prefix(5).joined(separator: ", ")
            throw StoreError.foreignDatabase(path: path, reason: version != 0
                                             ? "user_version \(version) without Reflect's application id"
                                             : "it has tables Reflect did not make: \(shown)")
        }
    }
}

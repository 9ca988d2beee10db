import GRDB
import ReflectCore

extension Store {
    /// A person's settings: the defaults, overlaid with what they set.
    /// A stored key this version does not know (written by a newer Reflect)
    /// is ignored; a known key whose stored value is not legal is an error
    /// naming it (set it again to repair it).
    /// Keys in `repairing` (about to be set again) are left at their
    /// defaults when their stored value cannot be read.
    public func settings(user: String, repairing: Set<SettingKey> = []) throws(StoreError) -> Settings {
        // The SQL GRDB's query interface writes for `filter(user)`, without
        // its schema look-ups (a start reads this first).
        let rows = try read { db in
            try SettingRecord.fetchAll(db.cachedStatement(sql: #"SELECT * FROM "setting" WHERE "user" = ?"#), arguments: [user])
        }
        return try Store.settings(from: rows, repairing: repairing)
    }

    static func settings(from rows: [SettingRecord], repairing: Set<SettingKey> = []) throws(StoreError) -> Settings {
        var s = Settings()
        for row in rows {
            guard let key = SettingKey(rawValue: row.key), !repairing.contains(key) else { continue }
            do { try s.setting(key, to: row.value) } catch {
                throw .invalidSetting(key: row.key, value: row.value, reason: error.description)
            }
        }
        return s
    }

    /// Stores `keys` of `settings` for `user`, in one transaction. The
    /// values are already legal (a `Settings` holds nothing else).
    public func saveSettings(_ settings: Settings, keys: [SettingKey], user: String, at: String) throws(StoreError) {
        try write { db in
            for key in keys {
                try SettingRecord(user: user, key: key.rawValue, value: settings.text(of: key), updatedAt: at).save(db)
            }
        }
    }

    /// Every stored setting row (for export), by person and key.
    public func settingRows() throws(StoreError) -> [SettingRecord] {
        try read { db in try SettingRecord.order(Column("user"), Column("key")).fetchAll(db) }
    }
}

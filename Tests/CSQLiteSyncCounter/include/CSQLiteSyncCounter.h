// Test support: an SQLite VFS that forwards everything to the default VFS
// and counts xSync calls per file, so tests can assert how many times a
// commit reached the disk (docs/storage.md, "synced answers").
#ifndef C_SQLITE_SYNC_COUNTER_H
#define C_SQLITE_SYNC_COUNTER_H

/// Registers the counting VFS as the process's default (idempotent).
/// Returns 0 (SQLITE_OK) on success. Call before opening the databases to count.
int reflect_sync_counter_install(void);

/// xSync calls so far on the file at exactly `path` (the database, or its
/// "-wal" / "-journal"), since the file was first opened in this process.
long reflect_sync_counter_syncs(const char *path);

#endif

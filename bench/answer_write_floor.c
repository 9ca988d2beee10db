/* answer_write_floor.c - the durable answer write's SQL through SQLite's C
 * API, on the store's own schema: what the Swift write (`reflect-bench
 * write`) could approach if everything around SQLite cost nothing, and what
 * each part of that SQL costs (BENCHMARKS.md, the durable write).
 *
 * Build: gcc -O2 -o answer_write_floor answer_write_floor.c -lsqlite3
 * Usage: ./answer_write_floor TEMPLATE DBPATH N MODE
 *   TEMPLATE: a store made by `reflect-bench write 0 TEMPLATE` (its schema
 *   and its session `bench`, no answer); it is copied to DBPATH, then N
 *   answers are written as `reflect-bench write N` writes them (the same
 *   row: step names s0, s1, ..., the same question and JSON value), WAL,
 *   synchronous FULL, one commit and one sync each, values bound without
 *   copying (SQLITE_STATIC, as the store binds them).
 *   MODE:
 *     exact      what the store does: BEGIN IMMEDIATE, the INSERT, the
 *                pending marker (the session's first answer only: later
 *                ones know it is there), COMMIT; foreign keys on
 *   and, each dropping one thing the store's write has (to measure it; none
 *   of them is a write the store may do):
 *     autocommit the INSERT alone, no BEGIN/COMMIT (and no marker)
 *     no-fk      exact, foreign keys off
 *     in-order   exact, step names that sort in the order they are written
 *                (s0000, s0001, ...)
 *     append     the anchor's shape with this row: the INSERT alone into a
 *                rowid table without a key or a foreign key
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ck(sqlite3 *db, int rc, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
  }
}
static void exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "%s: %s\n", sql, err);
    exit(1);
  }
}
static void copy_file(const char *from, const char *to) {
  char b[1024];
  snprintf(b, sizeof b, "%s-wal", to); remove(b);
  snprintf(b, sizeof b, "%s-shm", to); remove(b);
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  if (!in || !out) { fprintf(stderr, "cannot copy %s to %s\n", from, to); exit(1); }
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
  fclose(in);
  fclose(out);
}

int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: answer_write_floor TEMPLATE DBPATH N exact|autocommit|no-fk|in-order|append\n"); return 2; }
  const char *mode = argv[4];
  long n = atol(argv[3]);
  int exact = !strcmp(mode, "exact"), autocommit = !strcmp(mode, "autocommit"), nofk = !strcmp(mode, "no-fk");
  int inorder = !strcmp(mode, "in-order"), append = !strcmp(mode, "append");
  if (!(exact || autocommit || nofk || inorder || append)) { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
  int transaction = !(autocommit || append);
  copy_file(argv[1], argv[2]);
  sqlite3 *db;
  if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) { fprintf(stderr, "open\n"); return 1; }
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "PRAGMA synchronous=FULL");
  exec(db, nofk || append ? "PRAGMA foreign_keys=OFF" : "PRAGMA foreign_keys=ON");
  if (append) {
    exec(db, "DROP TABLE answer");
    exec(db, "CREATE TABLE answer (session_id TEXT NOT NULL, step TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL,"
             " question TEXT NOT NULL, value TEXT NOT NULL, state TEXT NOT NULL, answered_at TEXT NOT NULL, safety TEXT, options TEXT)");
  }
  /* The store's statements (Sources/ReflectStore/Records/AnswerWrite.swift). */
  sqlite3_stmt *begin, *insert, *marker, *commit;
  ck(db, sqlite3_prepare_v2(db, "BEGIN IMMEDIATE TRANSACTION", -1, &begin, NULL), "prepare");
  ck(db, sqlite3_prepare_v2(db, "INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety, options)"
                                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &insert, NULL), "prepare");
  ck(db, sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO entry_pending (session_id) VALUES (?1)", -1, &marker, NULL), "prepare");
  ck(db, sqlite3_prepare_v2(db, "COMMIT TRANSACTION", -1, &commit, NULL), "prepare");
  const char *sentence = "My manager criticised my report in front of the team. ";
  char value[400];
  int value_len = snprintf(value, sizeof value, "\"%s%s%s%s\"", sentence, sentence, sentence, sentence);
  char (*steps)[16] = malloc((size_t)(n > 0 ? n : 1) * sizeof *steps);
  for (long i = 0; i < n; i++) snprintf(steps[i], sizeof steps[i], inorder ? "s%04ld" : "s%ld", i);
  for (long i = 0; i < n; i++) {
    if (transaction) { ck(db, sqlite3_step(begin), "begin"); sqlite3_reset(begin); }
    sqlite3_bind_text(insert, 1, "bench", 5, SQLITE_STATIC);
    sqlite3_bind_text(insert, 2, steps[i], -1, SQLITE_STATIC);
    sqlite3_bind_int64(insert, 3, i);
    sqlite3_bind_text(insert, 4, "text", 4, SQLITE_STATIC);
    sqlite3_bind_text(insert, 5, "What happened today that affected your mood?", -1, SQLITE_STATIC);
    sqlite3_bind_text(insert, 6, value, value_len, SQLITE_STATIC);
    sqlite3_bind_text(insert, 7, "answer", 6, SQLITE_STATIC);
    sqlite3_bind_text(insert, 8, "2026-11-22T08:00:00Z", -1, SQLITE_STATIC);
    sqlite3_bind_null(insert, 9);
    sqlite3_bind_null(insert, 10);
    ck(db, sqlite3_step(insert), "insert");
    sqlite3_reset(insert);
    if (transaction && i == 0) {
      sqlite3_bind_text(marker, 1, "bench", 5, SQLITE_STATIC);
      ck(db, sqlite3_step(marker), "marker");
      sqlite3_reset(marker);
    }
    if (transaction) { ck(db, sqlite3_step(commit), "commit"); sqlite3_reset(commit); }
  }
  sqlite3_finalize(begin);
  sqlite3_finalize(insert);
  sqlite3_finalize(marker);
  sqlite3_finalize(commit);
  free(steps);
  sqlite3_close(db);
  printf("answer_write_floor mode=%s answers=%ld\n", mode, n);
  return 0;
}

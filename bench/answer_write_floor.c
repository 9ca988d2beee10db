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
 *   and answer-table layouts that keep the store's guarantees (issue 20,
 *   helper write6: a rowid table, so that appends split cheaply and interior
 *   pages hold only integers; same columns, checks and foreign key; in the
 *   same transaction with the same marker as `exact`):
 *     rowid-hash     INTEGER PRIMARY KEY = the session's rowid << 32 | a
 *                    32-bit hash of the step (the next free key on a
 *                    collision): an answer is found again by its key (a
 *                    re-answered step is updated in place)
 *     rowid-ordinal  INTEGER PRIMARY KEY = the session's rowid << 20 | the
 *                    answer's ordinal in its session; a step answered before
 *                    is found by scanning the session's key range
 *     rowid-append   as rowid-ordinal without the scan (the ordinal taken as
 *                    known): not a write the store may do (nothing would
 *                    find a re-answered step), only what the shape costs
 *   Environment: SESSION_ANSWERS=K writes K answers per session (400
 *   sessions made at set-up, in every run, so they cancel out in
 *   Ir(N) - Ir(0); step names s0..s(K-1) in each); PAGE_SIZE=P vacuums the
 *   copy to pages of P bytes first.
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
  if (argc < 5) { fprintf(stderr, "usage: answer_write_floor TEMPLATE DBPATH N exact|autocommit|no-fk|in-order|append|rowid-hash|rowid-ordinal|rowid-append\n"); return 2; }
  const char *mode = argv[4];
  long n = atol(argv[3]);
  int exact = !strcmp(mode, "exact"), autocommit = !strcmp(mode, "autocommit"), nofk = !strcmp(mode, "no-fk");
  int inorder = !strcmp(mode, "in-order"), append = !strcmp(mode, "append");
  int rord = !strcmp(mode, "rowid-ordinal"), rhash = !strcmp(mode, "rowid-hash"), rappend = !strcmp(mode, "rowid-append");
  int rowidmode = rord || rhash || rappend;
  if (!(exact || autocommit || nofk || inorder || append || rowidmode)) { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
  int transaction = !(autocommit || append);
  copy_file(argv[1], argv[2]);
  sqlite3 *db;
  if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) { fprintf(stderr, "open\n"); return 1; }
  const char *ps = getenv("PAGE_SIZE");
  if (ps) { char sql[100]; exec(db, "PRAGMA journal_mode=DELETE"); snprintf(sql, sizeof sql, "PRAGMA page_size=%s", ps); exec(db, sql); exec(db, "VACUUM"); }
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "PRAGMA synchronous=FULL");
  exec(db, nofk || append ? "PRAGMA foreign_keys=OFF" : "PRAGMA foreign_keys=ON");
  if (append) {
    exec(db, "DROP TABLE answer");
    exec(db, "CREATE TABLE answer (session_id TEXT NOT NULL, step TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL,"
             " question TEXT NOT NULL, value TEXT NOT NULL, state TEXT NOT NULL, answered_at TEXT NOT NULL, safety TEXT, options TEXT)");
  }
  if (rowidmode) {
    exec(db, "DROP TABLE answer");
    exec(db, "CREATE TABLE answer (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE, step TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL,"
             " question TEXT NOT NULL, value TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('answer', 'draft')), answered_at TEXT NOT NULL, safety TEXT, options TEXT)");
  }
  const char *ks = getenv("SESSION_ANSWERS"); long K = ks ? atol(ks) : 0;
  char (*sids)[16] = malloc(400 * sizeof *sids);
  sqlite3_int64 *srow = malloc(400 * sizeof *srow);
  if (K > 0) {
    exec(db, "CREATE TEMP TABLE t AS SELECT * FROM session WHERE id = 'bench'");
    for (int j = 0; j < 400; j++) {
      char sql[200]; snprintf(sql, sizeof sql, "UPDATE t SET id = 'b%d'; INSERT INTO session SELECT * FROM t", j); exec(db, sql);
      snprintf(sids[j], 16, "b%d", j);
      srow[j] = sqlite3_last_insert_rowid(db);
    }
  }
  sqlite3_int64 sess = 0;
  if (rowidmode) {
    sqlite3_stmt *q; ck(db, sqlite3_prepare_v2(db, "SELECT rowid FROM session WHERE id = 'bench'", -1, &q, NULL), "prepare");
    ck(db, sqlite3_step(q), "sess"); sess = sqlite3_column_int64(q, 0); sqlite3_finalize(q);
  }
  sqlite3_stmt *rinsert = NULL, *rupdate = NULL, *rscan = NULL, *rget = NULL;
  if (rowidmode) {
    ck(db, sqlite3_prepare_v2(db, "INSERT INTO answer (id, session_id, step, position, kind, question, value, state, answered_at, safety, options)"
                                  " VALUES (?11, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &rinsert, NULL), "prepare");
    ck(db, sqlite3_prepare_v2(db, "UPDATE answer SET position = ?3, kind = ?4, question = ?5, value = ?6, state = ?7, answered_at = ?8, safety = ?9, options = ?10"
                                  " WHERE id = ?11", -1, &rupdate, NULL), "prepare");
    ck(db, sqlite3_prepare_v2(db, "SELECT max(id), max(CASE WHEN step = ?3 THEN id END) FROM answer WHERE id BETWEEN ?1 AND ?2", -1, &rscan, NULL), "prepare");
    ck(db, sqlite3_prepare_v2(db, "SELECT step FROM answer WHERE id = ?1", -1, &rget, NULL), "prepare");
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
  for (long i = 0; i < n; i++) snprintf(steps[i], sizeof steps[i], inorder ? "s%04ld" : "s%ld", K > 0 ? i % K : i);
  for (long i = 0; i < n; i++) {
    const char *sid = K > 0 ? sids[i / K] : "bench";
    if (K > 0) sess = srow[i / K];
    if (transaction) { ck(db, sqlite3_step(begin), "begin"); sqlite3_reset(begin); }
    if (rowidmode) {
      sqlite3_stmt *st = rinsert;
      sqlite3_int64 id = 0;
      if (rord) {
        sqlite3_bind_int64(rscan, 1, sess << 20); sqlite3_bind_int64(rscan, 2, (sess << 20) | 0xFFFFF);
        sqlite3_bind_text(rscan, 3, steps[i], -1, SQLITE_STATIC);
        ck(db, sqlite3_step(rscan), "scan");
        if (sqlite3_column_type(rscan, 1) != SQLITE_NULL) { id = sqlite3_column_int64(rscan, 1); st = rupdate; }
        else if (sqlite3_column_type(rscan, 0) != SQLITE_NULL) id = sqlite3_column_int64(rscan, 0) + 1;
        else id = sess << 20;
        sqlite3_reset(rscan);
      } else if (rappend) {
        id = (sess << 20) + (K > 0 ? i % K : i);  /* what an ordinal known without looking costs */
      } else {
        unsigned h = 2166136261u; for (const char *c = steps[i]; *c; c++) { h ^= (unsigned char)*c; h *= 16777619u; }
        id = (sess << 32) | h;
      }
      for (;;) {
        sqlite3_bind_int64(st, 11, id);
        sqlite3_bind_text(st, 1, sid, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, steps[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, i);
        sqlite3_bind_text(st, 4, "text", 4, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, "What happened today that affected your mood?", -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 6, value, value_len, SQLITE_STATIC);
        sqlite3_bind_text(st, 7, "answer", 6, SQLITE_STATIC);
        sqlite3_bind_text(st, 8, "2026-11-22T08:00:00Z", -1, SQLITE_STATIC);
        sqlite3_bind_null(st, 9);
        sqlite3_bind_null(st, 10);
        int rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc == SQLITE_DONE) break;
        if (st == rinsert && sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_PRIMARYKEY) {
          sqlite3_bind_int64(rget, 1, id); ck(db, sqlite3_step(rget), "get");
          int same = !strcmp((const char *)sqlite3_column_text(rget, 0), steps[i]); sqlite3_reset(rget);
          if (same) st = rupdate; else id++;
          continue;
        }
        ck(db, rc, "rowid write");
      }
    } else {
    sqlite3_bind_text(insert, 1, sid, -1, SQLITE_STATIC);
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
    }
    if (transaction && (K > 0 ? i % K == 0 : i == 0)) {
      sqlite3_bind_text(marker, 1, sid, -1, SQLITE_STATIC);
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

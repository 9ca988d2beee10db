/* answer_log_floor.c - append-only answer layouts for the durable answer
 * write (issue 20, helper write8): each save of a step's answer is a new row,
 * the latest row of a (session, step) is the answer, and the write is one
 * autocommit INSERT (atomic by itself: no BEGIN/COMMIT), with no pending
 * marker (a rowid watermark would tell the related-entries index what it has
 * not read yet). What such a write's SQL costs through SQLite's C API, next
 * to bench/answer_write_floor.c's figures for the store's keyed upsert.
 *
 * Build: gcc -O2 -o answer_log_floor answer_log_floor.c -lsqlite3
 * Usage: ./answer_log_floor TEMPLATE DBPATH N MODE
 *   TEMPLATE: a store made by `reflect-bench write 0 TEMPLATE` (its schema
 *   and its session `bench`, no answer), copied to DBPATH; the answer table
 *   is made again in MODE's layout (same columns and checks), then N answers
 *   are written as `reflect-bench write N` writes them (step names s0, s1,
 *   ..., the same question and JSON value), WAL, synchronous FULL, one
 *   commit and one sync each, values bound SQLITE_STATIC, a connection
 *   opened NOMUTEX as GRDB opens it, foreign keys on.
 *   MODE:
 *     log          a rowid table; session_id REFERENCES session(id) ON DELETE
 *                  CASCADE; an index on session_id (what readers by session,
 *                  the cascade and a session's delete need)
 *     log-step     log with the index on (session_id, step, rowid order):
 *                  a step's latest answer found by one probe
 *     log-noindex  log without its index: what the index costs (not a
 *                  layout the store may use: a session's delete and every
 *                  reader by session would scan the table)
 *     keyed        INTEGER PRIMARY KEY = the session's number << 20 | the
 *                  next ordinal in the session, found inside the INSERT (the
 *                  session's last key: one seek); no second b-tree. The
 *                  session's number is a new column of `session` with a
 *                  UNIQUE index (VACUUM keeps it). No foreign key: a BEFORE
 *                  INSERT trigger refuses a row whose session does not exist
 *                  (or whose key is not its session's), an AFTER DELETE
 *                  trigger on session removes its key range (a foreign key's
 *                  cascade would scan the table without an index)
 *     keyed-fk     keyed, with session_id's foreign key instead of the
 *                  triggers (without an index on session_id, the foreign
 *                  key's cascade scans the whole table at a session's
 *                  delete)
 *     keyed-max    keyed-fk with the session's last key as max(id)
 *     keyed-checked keyed-fk, the next key taken as known (the last one
 *                  this connection wrote + 1) while a C function in the
 *                  INSERT's WHERE, evaluated under the write lock, finds
 *                  the file's data version where this connection's last
 *                  commit left it (nothing else written since, by any
 *                  connection); otherwise nothing is inserted and the
 *                  keyed-fk INSERT writes it. A first answer in a session
 *                  takes that path. The data version is read after each
 *                  commit.
 *     keyed-known  keyed-fk with the next key taken as known without any
 *                  check: not a write the store may do (another writer
 *                  since would go unseen), only what the shape costs
 *   Environment: SESSION_ANSWERS=K writes K answers per session (400
 *   sessions made at set-up, in every run, so they cancel out in
 *   Ir(N) - Ir(0); step names s0..s(K-1) in each).
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
/* keyed-checked: the file's data version after this connection's last
 * commit; the INSERT writes its known key only while the file is still at
 * that version (read inside the statement, under the write lock). */
static unsigned known_version;
static int version_known;
static sqlite3 *the_db;
static unsigned data_version(void) {
  unsigned v = 0;
  sqlite3_file_control(the_db, "main", SQLITE_FCNTL_DATA_VERSION, &v);
  return v;
}
static void unchanged(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc; (void)argv;
  sqlite3_result_int(ctx, version_known && data_version() == known_version);
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

#define COLUMNS \
  " step TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL, question TEXT NOT NULL, value TEXT NOT NULL," \
  " state TEXT NOT NULL CHECK (state = 'answer' OR state = 'draft'), answered_at TEXT NOT NULL, safety TEXT, options TEXT"

int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: answer_log_floor TEMPLATE DBPATH N log|log-step|log-noindex|keyed|keyed-fk|keyed-max|keyed-checked|keyed-known\n"); return 2; }
  const char *mode = argv[4];
  long n = atol(argv[3]);
  int log = !strcmp(mode, "log"), logstep = !strcmp(mode, "log-step"), lognoindex = !strcmp(mode, "log-noindex");
  int keyed = !strcmp(mode, "keyed"), keyedfk = !strcmp(mode, "keyed-fk");
  int keyedknown = !strcmp(mode, "keyed-known"), keyedmax = !strcmp(mode, "keyed-max"), keyedchecked = !strcmp(mode, "keyed-checked");
  if (keyedknown || keyedmax || keyedchecked) keyedfk = 1;
  if (!(log || logstep || lognoindex || keyed || keyedfk)) { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
  copy_file(argv[1], argv[2]);
  sqlite3 *db;
  if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) { fprintf(stderr, "open\n"); return 1; }
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "PRAGMA synchronous=FULL");
  exec(db, "PRAGMA foreign_keys=ON");
  exec(db, "DROP TABLE answer");
  if (log || logstep || lognoindex) {
    exec(db, "CREATE TABLE answer (session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE," COLUMNS ")");
    if (log) exec(db, "CREATE INDEX answer_session ON answer(session_id)");
    if (logstep) exec(db, "CREATE INDEX answer_session ON answer(session_id, step)");
  } else {
    exec(db, "ALTER TABLE session ADD COLUMN number INTEGER");
    exec(db, "CREATE UNIQUE INDEX session_number ON session(number)");
    if (keyedfk) {
      exec(db, "CREATE TABLE answer (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE," COLUMNS ")");
    } else {
      exec(db, "CREATE TABLE answer (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL," COLUMNS ")");
      exec(db, "CREATE TRIGGER answer_session_insert BEFORE INSERT ON answer"
               " WHEN NOT EXISTS (SELECT 1 FROM session WHERE id = new.session_id AND number = new.id >> 20)"
               " BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed'); END");
      exec(db, "CREATE TRIGGER answer_session_delete AFTER DELETE ON session"
               " BEGIN DELETE FROM answer WHERE id BETWEEN old.number << 20 AND (old.number << 20) | 1048575; END");
    }
  }
  const char *ks = getenv("SESSION_ANSWERS"); long K = ks ? atol(ks) : 0;
  char (*sids)[16] = malloc(400 * sizeof *sids);
  if (K > 0) {
    exec(db, "CREATE TEMP TABLE t AS SELECT * FROM session WHERE id = 'bench'");
    for (int j = 0; j < 400; j++) {
      char sql[200]; snprintf(sql, sizeof sql, "UPDATE t SET id = 'b%d'; INSERT INTO session SELECT * FROM t", j); exec(db, sql);
      snprintf(sids[j], 16, "b%d", j);
    }
  }
  if (keyed || keyedfk) exec(db, "UPDATE session SET number = rowid");
  /* The session's number, as the writer would know it from the session it
   * runs (read once per session, outside the answer's write). */
  sqlite3_stmt *num = NULL;
  if (keyed || keyedfk) ck(db, sqlite3_prepare_v2(db, "SELECT number FROM session WHERE id = ?1", -1, &num, NULL), "prepare");
  sqlite3_stmt *insert;
  if (keyedchecked) {
    the_db = db;
    ck(db, sqlite3_create_function(db, "answer_key_known", 0, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL, unchanged, NULL, NULL), "function");
  }
  sqlite3_stmt *fallback = NULL;
  if (keyedchecked) {
    ck(db, sqlite3_prepare_v2(db, "INSERT INTO answer (id, session_id, step, position, kind, question, value, state, answered_at, safety, options)"
                                  " SELECT ?12, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 WHERE answer_key_known()", -1, &insert, NULL), "prepare");
    ck(db, sqlite3_prepare_v2(db, "INSERT INTO answer (id, session_id, step, position, kind, question, value, state, answered_at, safety, options)"
                                  " VALUES (coalesce((SELECT id FROM answer WHERE id BETWEEN ?11 AND ?11 | 1048575 ORDER BY id DESC LIMIT 1), ?11 - 1) + 1,"
                                  " ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &fallback, NULL), "prepare");
  } else if (keyedknown)
    ck(db, sqlite3_prepare_v2(db, "INSERT INTO answer (id, session_id, step, position, kind, question, value, state, answered_at, safety, options)"
                                  " VALUES (?12, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &insert, NULL), "prepare");
  else if (keyedmax)
    ck(db, sqlite3_prepare_v2(db, "INSERT INTO answer (id, session_id, step, position, kind, question, value, state, answered_at, safety, options)"
                                  " VALUES (coalesce((SELECT max(id) FROM answer WHERE id BETWEEN ?11 AND ?11 | 1048575), ?11 - 1) + 1,"
                                  " ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &insert, NULL), "prepare");
  else if (keyed || keyedfk)
    ck(db, sqlite3_prepare_v2(db, "INSERT INTO answer (id, session_id, step, position, kind, question, value, state, answered_at, safety, options)"
                                  " VALUES (coalesce((SELECT id FROM answer WHERE id BETWEEN ?11 AND ?11 | 1048575 ORDER BY id DESC LIMIT 1), ?11 - 1) + 1,"
                                  " ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &insert, NULL), "prepare");
  else
    ck(db, sqlite3_prepare_v2(db, "INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety, options)"
                                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &insert, NULL), "prepare");
  const char *sentence = "My manager criticised my report in front of the team. ";
  char value[400];
  int value_len = snprintf(value, sizeof value, "\"%s%s%s%s\"", sentence, sentence, sentence, sentence);
  char (*steps)[16] = malloc((size_t)(n > 0 ? n : 1) * sizeof *steps);
  for (long i = 0; i < n; i++) snprintf(steps[i], sizeof steps[i], "s%ld", (K > 0 ? i % K : i) % 100000000L);
  sqlite3_int64 base = 0, next = 0;
  for (long i = 0; i < n; i++) {
    const char *sid = K > 0 ? sids[i / K] : "bench";
    if (num && (K > 0 ? i % K == 0 : i == 0)) {
      sqlite3_bind_text(num, 1, sid, -1, SQLITE_STATIC);
      ck(db, sqlite3_step(num), "number");
      base = sqlite3_column_int64(num, 0) << 20;
      sqlite3_reset(num);
      version_known = 0;  /* a new session: its key not known yet */
    }
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
    if (num && !keyedknown && !keyedchecked) sqlite3_bind_int64(insert, 11, base);
    if (keyedknown) sqlite3_bind_int64(insert, 12, base + (K > 0 ? i % K : i));
    if (keyedchecked) sqlite3_bind_int64(insert, 12, next);
    ck(db, sqlite3_step(insert), "insert");
    sqlite3_reset(insert);
    if (keyedchecked) {
      if (sqlite3_changes(db) == 0) {
        /* Not known (the first answer since the process started, or the
         * file changed since this connection's last commit): the key is
         * found inside the INSERT. Then it is known again. */
        sqlite3_bind_text(fallback, 1, sid, -1, SQLITE_STATIC);
        sqlite3_bind_text(fallback, 2, steps[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(fallback, 3, i);
        sqlite3_bind_text(fallback, 4, "text", 4, SQLITE_STATIC);
        sqlite3_bind_text(fallback, 5, "What happened today that affected your mood?", -1, SQLITE_STATIC);
        sqlite3_bind_text(fallback, 6, value, value_len, SQLITE_STATIC);
        sqlite3_bind_text(fallback, 7, "answer", 6, SQLITE_STATIC);
        sqlite3_bind_text(fallback, 8, "2026-11-22T08:00:00Z", -1, SQLITE_STATIC);
        sqlite3_bind_null(fallback, 9);
        sqlite3_bind_null(fallback, 10);
        sqlite3_bind_int64(fallback, 11, base);
        ck(db, sqlite3_step(fallback), "fallback insert");
        sqlite3_reset(fallback);
      }
      next = sqlite3_last_insert_rowid(db) + 1;
      known_version = data_version();
      version_known = 1;
    }
  }
  sqlite3_finalize(insert);
  if (num) sqlite3_finalize(num);
  if (fallback) sqlite3_finalize(fallback);
  free(steps);
  free(sids);
  sqlite3_close(db);
  printf("answer_log_floor mode=%s answers=%ld\n", mode, n);
  return 0;
}

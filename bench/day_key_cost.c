// What a day's row costs in a table of ten years' days, against an empty
// one, with the set keyed as `step_day` keys it (user, flow, step, kind:
// four texts) and keyed by an integer set id instead: per answer, the new
// set's last-row read and its day's insert (the journalled answer's
// day-table work when the writer does not know the set; Store+DayRuns.swift).
// Not run by bench/compare (BENCHMARKS.md, the ten-year journalled answer):
//
//   gcc -O2 -o day_key_cost bench/day_key_cost.c -lsqlite3
//   ./day_key_cost hist.db - 0 3650; ./day_key_cost empty.db - 0 0   # 8 sets × days
//   for each db and text|int: callgrind Ir of `./day_key_cost COPY text|int 200`
//   minus that of `… 0` (each on a fresh copy), over 200.
//
// Measured on 2026-11-24 (SQLite 3.40.1): text 13,182 → 21,199 Ir per
// answer (+8.0k), integer 7,726 → 9,663 Ir (+1.9k).
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  sqlite3 *db; sqlite3_open(argv[1], &db);
  int isint = strcmp(argv[2], "int") == 0; int n = atoi(argv[3]);
  if (argc > 4) { // prefill: 8 sets x days
    int days = atoi(argv[4]);
    sqlite3_exec(db, "CREATE TABLE t (user TEXT NOT NULL, flow TEXT NOT NULL, step TEXT NOT NULL, kind TEXT NOT NULL, day INTEGER NOT NULL, nth INTEGER NOT NULL, run INTEGER NOT NULL, best INTEGER NOT NULL, PRIMARY KEY (user, flow, step, kind, day)) WITHOUT ROWID;"
      "CREATE TABLE s (id INTEGER NOT NULL, day INTEGER NOT NULL, nth INTEGER NOT NULL, run INTEGER NOT NULL, best INTEGER NOT NULL, PRIMARY KEY (id, day)) WITHOUT ROWID; BEGIN", 0, 0, 0);
    sqlite3_stmt *a, *b;
    sqlite3_prepare_v2(db, "INSERT INTO t VALUES ('bench', 'reflection.negative', ?1, 'saved', ?2, ?2, ?2, ?2)", -1, &a, 0);
    sqlite3_prepare_v2(db, "INSERT INTO s VALUES (?1, ?2, ?2, ?2, ?2)", -1, &b, 0);
    for (int k = 0; k < 8; k++) for (int d = 0; d < days; d++) {
      char step[16]; snprintf(step, sizeof step, "q%d", k);
      sqlite3_bind_text(a, 1, step, -1, SQLITE_TRANSIENT); sqlite3_bind_int(a, 2, 20000 + d); sqlite3_step(a); sqlite3_reset(a);
      sqlite3_bind_int(b, 1, k + 1); sqlite3_bind_int(b, 2, 20000 + d); sqlite3_step(b); sqlite3_reset(b);
    }
    sqlite3_exec(db, "COMMIT", 0, 0, 0); return 0;
  }
  sqlite3_stmt *r, *w;
  if (isint) {
    sqlite3_prepare_v2(db, "SELECT day, nth, run, best FROM s WHERE id = ?1 ORDER BY day DESC LIMIT 1", -1, &r, 0);
    sqlite3_prepare_v2(db, "INSERT INTO s VALUES (?1, ?2, 1, 1, 1)", -1, &w, 0);
  } else {
    sqlite3_prepare_v2(db, "SELECT day, nth, run, best FROM t WHERE user = 'bench' AND flow = 'reflection.negative' AND step = ?1 AND kind = 'saved' ORDER BY day DESC LIMIT 1", -1, &r, 0);
    sqlite3_prepare_v2(db, "INSERT INTO t VALUES ('bench', 'reflection.negative', ?1, 'saved', ?2, 1, 1, 1)", -1, &w, 0);
  }
  sqlite3_exec(db, "BEGIN", 0, 0, 0);
  for (int i = 0; i < n; i++) {
    char step[16]; snprintf(step, sizeof step, "s%d", i);
    if (isint) sqlite3_bind_int(r, 1, 100 + i); else sqlite3_bind_text(r, 1, step, -1, SQLITE_STATIC);
    sqlite3_step(r); sqlite3_reset(r);
    if (isint) sqlite3_bind_int(w, 1, 100 + i); else sqlite3_bind_text(w, 1, step, -1, SQLITE_STATIC);
    sqlite3_bind_int(w, 2, 30000); if (sqlite3_step(w) != SQLITE_DONE) { fprintf(stderr, "insert failed\n"); return 1; } sqlite3_reset(w);
  }
  sqlite3_exec(db, "ROLLBACK", 0, 0, 0);
  return 0;
}

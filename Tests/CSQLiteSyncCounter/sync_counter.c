#include "CSQLiteSyncCounter.h"
#include <sqlite3.h>
#include <pthread.h>
#include <string.h>

// One counter per file name. Tests use a few hundred files at most.
#define MAX_FILES 4096
static struct { char name[512]; long syncs; } counters[MAX_FILES];
static int counterCount = 0;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static int counterIndex(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < counterCount; i++) if (strcmp(counters[i].name, name) == 0) return i;
    if (counterCount == MAX_FILES || strlen(name) >= sizeof(counters[0].name)) return -1;
    strcpy(counters[counterCount].name, name);
    counters[counterCount].syncs = 0;
    return counterCount++;
}

typedef struct {
    sqlite3_file base;   // our methods
    int counter;         // index in counters, or -1
    sqlite3_file *real;  // the default VFS's file, allocated right after this struct
} CountingFile;

static sqlite3_vfs *defaultVFS;
static sqlite3_vfs countingVFS;
static sqlite3_io_methods countingMethods;

#define REAL(f) (((CountingFile *)(f))->real)

static int cClose(sqlite3_file *f) {
    int rc = REAL(f)->pMethods ? REAL(f)->pMethods->xClose(REAL(f)) : SQLITE_OK;
    f->pMethods = 0;
    return rc;
}
static int cRead(sqlite3_file *f, void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xRead(REAL(f), b, n, o); }
static int cWrite(sqlite3_file *f, const void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xWrite(REAL(f), b, n, o); }
static int cTruncate(sqlite3_file *f, sqlite3_int64 s) { return REAL(f)->pMethods->xTruncate(REAL(f), s); }
static int cSync(sqlite3_file *f, int flags) {
    CountingFile *c = (CountingFile *)f;
    if (c->counter >= 0) {
        pthread_mutex_lock(&mutex);
        counters[c->counter].syncs++;
        pthread_mutex_unlock(&mutex);
    }
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}
static int cFileSize(sqlite3_file *f, sqlite3_int64 *s) { return REAL(f)->pMethods->xFileSize(REAL(f), s); }
static int cLock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int cUnlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int cCheckReservedLock(sqlite3_file *f, int *r) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), r); }
static int cFileControl(sqlite3_file *f, int op, void *a) { return REAL(f)->pMethods->xFileControl(REAL(f), op, a); }
static int cSectorSize(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int cDeviceCharacteristics(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int cShmMap(sqlite3_file *f, int p, int s, int e, void volatile **pp) { return REAL(f)->pMethods->xShmMap(REAL(f), p, s, e, pp); }
static int cShmLock(sqlite3_file *f, int o, int n, int fl) { return REAL(f)->pMethods->xShmLock(REAL(f), o, n, fl); }
static void cShmBarrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int cShmUnmap(sqlite3_file *f, int d) { return REAL(f)->pMethods->xShmUnmap(REAL(f), d); }
static int cFetch(sqlite3_file *f, sqlite3_int64 o, int n, void **pp) { return REAL(f)->pMethods->xFetch(REAL(f), o, n, pp); }
static int cUnfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return REAL(f)->pMethods->xUnfetch(REAL(f), o, p); }

static int cOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *outFlags) {
    (void)vfs;
    CountingFile *c = (CountingFile *)f;
    c->real = (sqlite3_file *)(c + 1);
    c->real->pMethods = 0;
    pthread_mutex_lock(&mutex);
    c->counter = counterIndex(name);
    pthread_mutex_unlock(&mutex);
    int rc = defaultVFS->xOpen(defaultVFS, name, c->real, flags, outFlags);
    // SQLite calls xClose whenever pMethods is set, even after a failed open.
    f->pMethods = c->real->pMethods ? &countingMethods : 0;
    return rc;
}

static int cDelete(sqlite3_vfs *v, const char *n, int d) { (void)v; return defaultVFS->xDelete(defaultVFS, n, d); }
static int cAccess(sqlite3_vfs *v, const char *n, int fl, int *r) { (void)v; return defaultVFS->xAccess(defaultVFS, n, fl, r); }
static int cFullPathname(sqlite3_vfs *v, const char *n, int sz, char *out) { (void)v; return defaultVFS->xFullPathname(defaultVFS, n, sz, out); }
static void *cDlOpen(sqlite3_vfs *v, const char *n) { (void)v; return defaultVFS->xDlOpen(defaultVFS, n); }
static void cDlError(sqlite3_vfs *v, int n, char *m) { (void)v; defaultVFS->xDlError(defaultVFS, n, m); }
static void (*cDlSym(sqlite3_vfs *v, void *h, const char *s))(void) { (void)v; return defaultVFS->xDlSym(defaultVFS, h, s); }
static void cDlClose(sqlite3_vfs *v, void *h) { (void)v; defaultVFS->xDlClose(defaultVFS, h); }
static int cRandomness(sqlite3_vfs *v, int n, char *o) { (void)v; return defaultVFS->xRandomness(defaultVFS, n, o); }
static int cSleep(sqlite3_vfs *v, int us) { (void)v; return defaultVFS->xSleep(defaultVFS, us); }
static int cCurrentTime(sqlite3_vfs *v, double *t) { (void)v; return defaultVFS->xCurrentTime(defaultVFS, t); }
static int cGetLastError(sqlite3_vfs *v, int n, char *m) { (void)v; return defaultVFS->xGetLastError ? defaultVFS->xGetLastError(defaultVFS, n, m) : 0; }
static int cCurrentTimeInt64(sqlite3_vfs *v, sqlite3_int64 *t) { (void)v; return defaultVFS->xCurrentTimeInt64(defaultVFS, t); }

int reflect_sync_counter_install(void) {
    pthread_mutex_lock(&mutex);
    if (defaultVFS) { pthread_mutex_unlock(&mutex); return SQLITE_OK; }
    sqlite3_vfs *base = sqlite3_vfs_find(0);
    if (!base || base->iVersion < 2) { pthread_mutex_unlock(&mutex); return SQLITE_ERROR; }
    defaultVFS = base;
    countingMethods = (sqlite3_io_methods){
        3, cClose, cRead, cWrite, cTruncate, cSync, cFileSize, cLock, cUnlock, cCheckReservedLock, cFileControl,
        cSectorSize, cDeviceCharacteristics, cShmMap, cShmLock, cShmBarrier, cShmUnmap, cFetch, cUnfetch,
    };
    countingVFS = *base;
    countingVFS.iVersion = 2;
    countingVFS.szOsFile = (int)sizeof(CountingFile) + base->szOsFile;
    countingVFS.zName = "reflect-sync-counter";
    countingVFS.pNext = 0;
    countingVFS.xOpen = cOpen;
    countingVFS.xDelete = cDelete;
    countingVFS.xAccess = cAccess;
    countingVFS.xFullPathname = cFullPathname;
    countingVFS.xDlOpen = cDlOpen;
    countingVFS.xDlError = cDlError;
    countingVFS.xDlSym = cDlSym;
    countingVFS.xDlClose = cDlClose;
    countingVFS.xRandomness = cRandomness;
    countingVFS.xSleep = cSleep;
    countingVFS.xCurrentTime = cCurrentTime;
    countingVFS.xGetLastError = cGetLastError;
    countingVFS.xCurrentTimeInt64 = cCurrentTimeInt64;
    int rc = sqlite3_vfs_register(&countingVFS, 1);
    pthread_mutex_unlock(&mutex);
    return rc;
}

long reflect_sync_counter_syncs(const char *path) {
    pthread_mutex_lock(&mutex);
    long n = 0;
    for (int i = 0; i < counterCount; i++) if (strcmp(counters[i].name, path) == 0) n = counters[i].syncs;
    pthread_mutex_unlock(&mutex);
    return n;
}

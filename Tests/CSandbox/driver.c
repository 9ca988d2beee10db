/* driver.c — runs the hostile cases in Tests/CSandbox/cases/ through the
 * real C sandbox API (harness.c), built with AddressSanitizer and
 * UndefinedBehaviorSanitizer, Lua included (Tests/CSandbox/build).
 *
 * Each case runs in a child process, so that a crash or a hang is reported
 * as that case's failure and the others still run. A case passes when:
 *   - the child exits normally: no signal, no sanitizer report, no leak;
 *   - no single rlua_* entry runs longer than the slow bound (default 2 s,
 *     four times the 0.5 s budget: the hook stops Lua code within
 *     milliseconds of the deadline, so a longer call is a C loop the hook
 *     cannot see);
 *   - the whole case finishes before the hang bound (default 6 s; no new
 *     call starts after 3 s);
 *   - the state still runs a trivial chunk afterwards, closing it returns
 *     every byte to the allocator, and every value it handed back is a
 *     well-formed encoding;
 *   - the outcome is one the case allows (`-- expect:`), and for
 *     `-- deterministic` cases, two runs in two states give the same
 *     outputs, prints and errors.
 *
 * Directives, in the leading comment lines of a case:
 *   -- expect: instructions deadline      allowed outcomes: a status name
 *                                          (runtime, memory, syntax, ...),
 *                                          "finished" (the flow returned) or
 *                                          "steps" (still asking at the step limit)
 *   -- limits: memory=8388608 instructions=1000000 seconds=0.2
 *   -- steps: 10
 *   -- deterministic
 *
 * The expected-failures file lists cases known not to be contained yet
 * (one name per line, `#` comments). They are run and reported as XFAIL
 * (or XPASS once fixed) without failing the run; any other failure fails it.
 *
 * Usage: csandbox-driver [--expected FILE] [--logs DIR] CASE.lua|DIR ...
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define MAX_CASES 512

typedef struct directives {
    char expect[256];
    rlua_limits limits;
    int steps;
    int deterministic;
    char message[256];     /* the error message must contain this */
    char not_message[256]; /* ... and must not contain this */
} directives;

static double env_double(const char *name, double dflt) {
    const char *v = getenv(name);
    return v && *v ? atof(v) : dflt;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static void parse_directives(const char *src, size_t len, directives *d) {
    memset(d, 0, sizeof *d);
    const char *p = src, *end = src + len;
    while (p < end && end - p > 2 && p[0] == '-' && p[1] == '-') {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (eol == NULL)
            eol = end;
        char line[512];
        size_t n = (size_t)(eol - p) < sizeof line - 1 ? (size_t)(eol - p) : sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        char *v;
        if ((v = strstr(line, "expect:")) != NULL) {
            snprintf(d->expect, sizeof d->expect, " %s ", v + 7);
        } else if ((v = strstr(line, "limits:")) != NULL) {
            char *tok = strtok(v + 7, " \t");
            for (; tok; tok = strtok(NULL, " \t")) {
                if (strncmp(tok, "memory=", 7) == 0) d->limits.memory_bytes = (size_t)atof(tok + 7);
                else if (strncmp(tok, "instructions=", 13) == 0) d->limits.instructions = (uint64_t)atof(tok + 13);
                else if (strncmp(tok, "seconds=", 8) == 0) d->limits.seconds = atof(tok + 8);
            }
        } else if ((v = strstr(line, "not-message:")) != NULL) {
            snprintf(d->not_message, sizeof d->not_message, "%s", v + 13);
        } else if ((v = strstr(line, "message:")) != NULL) {
            snprintf(d->message, sizeof d->message, "%s", v + 9);
        } else if ((v = strstr(line, "steps:")) != NULL) {
            d->steps = atoi(v + 6);
        } else if (strstr(line, "deterministic") != NULL && strncmp(line, "-- deterministic", 16) == 0) {
            d->deterministic = 1;
        }
        p = eol + 1;
    }
}

static const char *outcome(const cs_result *r) {
    if (r->finished)
        return "finished";
    if (r->status == RLUA_YIELDED)
        return "steps";
    return cs_status_name(r->status);
}

/* In the child: runs the case, writes one verdict line to fd, exits. */
static void run_child(const char *name, const char *src, size_t len, int fd) {
    directives d;
    parse_directives(src, len, &d);
    double slow = env_double("CSANDBOX_SLOW_SECONDS", 2.0);
    cs_options o = { 0 };
    o.limits = d.limits;
    o.seed = 42;
    o.max_steps = d.steps;
    o.chunk = "flows/case.lua";
    o.digest = d.deterministic;
    /* No new top-level call after 3 s: an honest case ends well within
     * the hang bound even when every step spends its whole budget. */
    o.total_seconds = 3.0;
    cs_result r;
    char verdict[1024];
    int contained = cs_run_flow(src, len, &o, &r) == 0;
    const char *out = outcome(&r);
    char where[160];
    snprintf(where, sizeof where, "%s at %s, %d step(s), slowest %s %.2fs", out, r.stage, r.steps,
             r.slowest_what, r.slowest_call);
    if (!contained) {
        snprintf(verdict, sizeof verdict, "FAIL not contained (%s%s%s): %s", !r.probe_ok ? "state unusable afterwards " : "",
                 r.memory_after_close ? "memory not returned on close " : "",
                 r.malformed_output ? "malformed value encoding " : "", where);
    } else if (r.slowest_call > slow) {
        snprintf(verdict, sizeof verdict, "FAIL one call ran %.2fs (bound %.1fs; the hook did not stop it): %s",
                 r.slowest_call, slow, where);
    } else {
        verdict[0] = '\0';
    }
    if (verdict[0] == '\0' && d.expect[0]) {
        char needle[40];
        snprintf(needle, sizeof needle, " %s ", out);
        if (strstr(d.expect, needle) == NULL)
            snprintf(verdict, sizeof verdict, "FAIL outcome %s, expected one of:%s(%s) %.300s", out, d.expect, where,
                     r.message);
    }
    if (verdict[0] == '\0' && d.message[0] && strstr(r.message, d.message) == NULL)
        snprintf(verdict, sizeof verdict, "FAIL message does not contain '%s': %.300s", d.message, r.message);
    if (verdict[0] == '\0' && d.not_message[0] && strstr(r.message, d.not_message) != NULL)
        snprintf(verdict, sizeof verdict, "FAIL message contains '%s': %.300s", d.not_message, r.message);
    /* What the host receives in one crossing is host memory the flow
     * causes, outside the state's cap: at most the cap plus 1 MiB. */
    size_t cap = d.limits.memory_bytes ? d.limits.memory_bytes : (size_t)16 << 20;
    if (verdict[0] == '\0' && r.largest_crossing > cap + ((size_t)1 << 20))
        snprintf(verdict, sizeof verdict, "FAIL the host received %zu bytes in one crossing (cap %zu + 1 MiB): %s",
                 r.largest_crossing, cap, where);
    if (verdict[0] == '\0' && d.deterministic) {
        /* A second state at other addresses: hold some memory first, so
         * that nothing about the allocator repeats. */
        void *hold[64];
        for (int i = 0; i < 64; i++)
            hold[i] = malloc(1024 + (size_t)i * 64);
        cs_result r2;
        o.seed = 42;
        cs_run_flow(src, len, &o, &r2);
        for (int i = 0; i < 64; i++)
            free(hold[i]);
        if (r2.digest != r.digest || r2.steps != r.steps || strcmp(outcome(&r2), out) != 0)
            snprintf(verdict, sizeof verdict, "FAIL not deterministic: two states gave different outputs (%s / %s)", where,
                     outcome(&r2));
    }
    if (verdict[0] == '\0')
        snprintf(verdict, sizeof verdict, "PASS %s", where);
    /* Newlines would break the one-line protocol. */
    for (char *c = verdict; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    dprintf(fd, "%s\n", verdict);
    close(fd);
    (void)name;
    exit(0); /* LeakSanitizer runs here */
}

static int load_expected(const char *path, char names[][128], int max) {
    FILE *f = path ? fopen(path, "r") : NULL;
    int n = 0;
    char line[512];
    if (f == NULL)
        return 0;
    while (n < max && fgets(line, sizeof line, f)) {
        char *h = strchr(line, '#');
        if (h)
            *h = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        size_t l = strcspn(s, " \t\r\n");
        if (l == 0 || l >= 128)
            continue;
        memcpy(names[n], s, l);
        names[n][l] = '\0';
        n++;
    }
    fclose(f);
    return n;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int collect(const char *arg, char **paths, int n) {
    struct stat st;
    if (stat(arg, &st) != 0) {
        fprintf(stderr, "csandbox: %s: %s\n", arg, strerror(errno));
        return n;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (n < MAX_CASES)
            paths[n++] = strdup(arg);
        return n;
    }
    DIR *dir = opendir(arg);
    struct dirent *e;
    int first = n;
    while (dir && (e = readdir(dir)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".lua") == 0 && n < MAX_CASES) {
            char *p = malloc(strlen(arg) + l + 2);
            sprintf(p, "%s/%s", arg, e->d_name);
            paths[n++] = p;
        }
    }
    if (dir)
        closedir(dir);
    qsort(paths + first, (size_t)(n - first), sizeof *paths, cmp_str);
    return n;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The sanitizer's headline, if the log has one. */
static void sanitizer_summary(const char *log, char *out, size_t size) {
    out[0] = '\0';
    FILE *f = fopen(log, "r");
    char line[1024];
    while (f && fgets(line, sizeof line, f)) {
        if (strstr(line, "ERROR: AddressSanitizer") || strstr(line, "ERROR: LeakSanitizer") ||
            strstr(line, "runtime error:") || strstr(line, "SUMMARY:") || strstr(line, "unprotected Lua error") ||
            strstr(line, "malloc(): ") || strstr(line, "free(): ") || strstr(line, "double free")) {
            line[strcspn(line, "\n")] = '\0';
            size_t used = strlen(out);
            snprintf(out + used, size - used, "%s%s", used ? " | " : "", line);
        }
    }
    if (f)
        fclose(f);
}

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int main(int argc, char **argv) {
    static char expected[MAX_CASES][128];
    int n_expected = 0;
    const char *logs = ".build-csandbox/logs";
    char *paths[MAX_CASES];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--expected") == 0 && i + 1 < argc)
            n_expected = load_expected(argv[++i], expected, MAX_CASES);
        else if (strcmp(argv[i], "--logs") == 0 && i + 1 < argc)
            logs = argv[++i];
        else
            n = collect(argv[i], paths, n);
    }
    if (n == 0) {
        fprintf(stderr, "usage: csandbox-driver [--expected FILE] [--logs DIR] CASE.lua|DIR ...\n");
        return 2;
    }
    mkdir(logs, 0755);
    double hang = env_double("CSANDBOX_HANG_SECONDS", 6.0);
    int passed = 0, failed = 0, xfail = 0, xpass = 0;
    char xpass_names[4096] = "", fail_names[8192] = "";
    double t_all = now_seconds();

    for (int i = 0; i < n; i++) {
        const char *name = base_name(paths[i]);
        char stem[128];
        snprintf(stem, sizeof stem, "%.*s", (int)(strlen(name) - 4), name);
        int is_expected = 0;
        for (int k = 0; k < n_expected; k++)
            if (strcmp(expected[k], stem) == 0)
                is_expected = 1;
        size_t len = 0;
        char *src = read_file(paths[i], &len);
        if (src == NULL) {
            fprintf(stderr, "csandbox: cannot read %s\n", paths[i]);
            failed++;
            continue;
        }
        char log[512];
        snprintf(log, sizeof log, "%s/%s.log", logs, stem);
        int fds[2];
        if (pipe(fds) != 0) {
            perror("pipe");
            return 2;
        }
        fflush(stdout);
        fflush(stderr);
        double t0 = now_seconds();
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            int lf = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (lf >= 0) {
                dup2(lf, 2);
                close(lf);
            }
            run_child(stem, src, len, fds[1]);
        }
        close(fds[1]);
        int status = 0, killed = 0;
        for (;;) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid)
                break;
            if (now_seconds() - t0 > hang) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                killed = 1;
                break;
            }
            usleep(5000);
        }
        double took = now_seconds() - t0;
        char verdict[1200] = "";
        ssize_t got = read(fds[0], verdict, sizeof verdict - 1);
        close(fds[0]);
        verdict[got > 0 ? got : 0] = '\0';
        verdict[strcspn(verdict, "\n")] = '\0';
        char san[1500];
        sanitizer_summary(log, san, sizeof san);
        char line[3000];
        int ok;
        if (killed) {
            snprintf(line, sizeof line, "HANG: still running after %.0fs, killed", hang);
            ok = 0;
        } else if (WIFSIGNALED(status)) {
            snprintf(line, sizeof line, "CRASH: signal %d (%s) %s", WTERMSIG(status), strsignal(WTERMSIG(status)), san);
            ok = 0;
        } else if (WEXITSTATUS(status) != 0 || verdict[0] == '\0') {
            snprintf(line, sizeof line, "CRASH: exit %d %s%s%s", WEXITSTATUS(status), san,
                     verdict[0] ? " after: " : "", verdict);
            ok = 0;
        } else {
            ok = strncmp(verdict, "PASS", 4) == 0;
            snprintf(line, sizeof line, "%s", verdict);
        }
        const char *tag;
        if (ok && !is_expected) {
            tag = "PASS ";
            passed++;
        } else if (ok) {
            tag = "XPASS";
            xpass++;
            snprintf(xpass_names + strlen(xpass_names), sizeof xpass_names - strlen(xpass_names), " %s", stem);
        } else if (is_expected) {
            tag = "XFAIL";
            xfail++;
        } else {
            tag = "FAIL ";
            failed++;
            snprintf(fail_names + strlen(fail_names), sizeof fail_names - strlen(fail_names), " %s", stem);
        }
        const char *shown = strncmp(line, "PASS ", 5) == 0 ? line + 5 : line;
        printf("%s %-44s %5.2fs  %s\n", tag, stem, took, shown);
        fflush(stdout);
        free(src);
    }
    printf("\nC sandbox under ASan+UBSan: %d cases in %.1fs: %d contained, %d not contained,"
           " %d expected failures still failing, %d expected failures now contained\n",
           n, now_seconds() - t_all, passed + xpass, failed + xfail, xfail, xpass);
    if (xpass)
        printf("Now contained, remove from the expected-failures list:%s\n", xpass_names);
    if (failed)
        printf("Not contained (regressions or new cases):%s\nLogs: %s/NAME.log\n", fail_names, logs);
    printf("csandbox: %d passed, %d failed\n", passed + xpass, failed);
    for (int i = 0; i < n; i++)
        free(paths[i]);
    return failed ? 1 : 0;
}

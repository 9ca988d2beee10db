/* harness.c — see harness.h. Host side of the sandbox for the C tests:
 * a dispatch function standing in for the Swift host, a reader and writer
 * of the value encoding (rlua_codec.c's format), and the run sequence. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { T_NIL = 0, T_FALSE, T_TRUE, T_INT, T_DOUBLE, T_STRING, T_TABLE, T_HANDLE };
#define CS_DEPTH_MAX 300

/* ---- buffers ---- */

void cs_buf_put(cs_buf *b, const void *p, size_t n) {
    if (n == 0)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *nb = realloc(b->p, cap);
        if (nb == NULL) {
            fprintf(stderr, "csandbox: out of memory\n");
            abort();
        }
        b->p = nb;
        b->cap = cap;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

void cs_buf_free(cs_buf *b) {
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

static void put_tag(cs_buf *b, uint8_t t) { cs_buf_put(b, &t, 1); }
static void put_int(cs_buf *b, int64_t v) { put_tag(b, T_INT); cs_buf_put(b, &v, 8); }
static void put_handle(cs_buf *b, int64_t v) { put_tag(b, T_HANDLE); cs_buf_put(b, &v, 8); }
static void put_str(cs_buf *b, const char *s, size_t n) {
    uint32_t l = (uint32_t)n;
    put_tag(b, T_STRING);
    cs_buf_put(b, &l, 4);
    cs_buf_put(b, s, n);
}
static void put_cstr(cs_buf *b, const char *s) { put_str(b, s, strlen(s)); }
static void put_table(cs_buf *b, uint32_t narr, uint32_t nrec) {
    put_tag(b, T_TABLE);
    cs_buf_put(b, &narr, 4);
    cs_buf_put(b, &nrec, 4);
}

/* ---- reading ---- */

static const uint8_t *skip_at(const uint8_t *p, const uint8_t *end, int depth) {
    if (p == NULL || p >= end || depth > CS_DEPTH_MAX)
        return NULL;
    uint8_t tag = *p++;
    switch (tag) {
    case T_NIL: case T_FALSE: case T_TRUE:
        return p;
    case T_INT: case T_DOUBLE: case T_HANDLE:
        return (size_t)(end - p) >= 8 ? p + 8 : NULL;
    case T_STRING: {
        uint32_t len;
        if ((size_t)(end - p) < 4)
            return NULL;
        memcpy(&len, p, 4);
        p += 4;
        return (size_t)(end - p) >= len ? p + len : NULL;
    }
    case T_TABLE: {
        uint32_t narr, nrec;
        if ((size_t)(end - p) < 8)
            return NULL;
        memcpy(&narr, p, 4);
        memcpy(&nrec, p + 4, 4);
        p += 8;
        /* Each value takes at least one byte: no loop outlives the input. */
        for (uint32_t i = 0; i < narr && p != NULL; i++)
            p = skip_at(p, end, depth + 1);
        for (uint32_t i = 0; i < nrec && p != NULL; i++) {
            p = skip_at(p, end, depth + 1);
            p = skip_at(p, end, depth + 1);
        }
        return p;
    }
    default:
        return NULL;
    }
}

const uint8_t *cs_value_skip(const uint8_t *p, const uint8_t *end) { return skip_at(p, end, 0); }

int cs_values_valid(const uint8_t *p, const uint8_t *end, int *count) {
    int n = 0;
    while (p != NULL && p < end) {
        p = cs_value_skip(p, end);
        n++;
    }
    if (count)
        *count = n;
    return p == end || (p != NULL && n == 0);
}

/* The value at `index` (0-based) of a sequence, or NULL. */
static const uint8_t *value_at(const uint8_t *p, const uint8_t *end, int index) {
    for (int i = 0; i < index && p != NULL && p < end; i++)
        p = cs_value_skip(p, end);
    return p != NULL && p < end ? p : NULL;
}

static int is_string(const uint8_t *v, const uint8_t *end, const char *s) {
    size_t n = strlen(s);
    uint32_t len;
    if (v == NULL || end - v < 5 || *v != T_STRING)
        return 0;
    memcpy(&len, v + 1, 4);
    return len == n && (size_t)(end - v - 5) >= n && memcmp(v + 5, s, n) == 0;
}

static int is_int(const uint8_t *v, const uint8_t *end, int64_t i) {
    int64_t x;
    if (v == NULL || end - v < 9 || *v != T_INT)
        return 0;
    memcpy(&x, v + 1, 8);
    return x == i;
}

/* The value stored under a string key (or integer key when key == NULL) in
 * the table at t, or NULL. */
static const uint8_t *table_get(const uint8_t *t, const uint8_t *end, const char *key, int64_t ikey) {
    uint32_t narr, nrec;
    if (t == NULL || end - t < 9 || *t != T_TABLE)
        return NULL;
    memcpy(&narr, t + 1, 4);
    memcpy(&nrec, t + 5, 4);
    const uint8_t *p = t + 9;
    for (uint32_t i = 1; i <= narr && p != NULL && p < end; i++) {
        if (key == NULL && ikey == (int64_t)i)
            return p;
        p = cs_value_skip(p, end);
    }
    for (uint32_t i = 0; i < nrec && p != NULL && p < end; i++) {
        int hit = key ? is_string(p, end, key) : is_int(p, end, ikey);
        p = cs_value_skip(p, end);
        if (hit)
            return p;
        p = cs_value_skip(p, end);
    }
    return NULL;
}

/* ---- canonical form ---- */

typedef struct pair {
    cs_buf k, v;
} pair;

static int cmp_pair(const void *a, const void *b) {
    const cs_buf *x = &((const pair *)a)->k, *y = &((const pair *)b)->k;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->p, y->p, n);
    if (c != 0)
        return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

static int canon_at(const uint8_t *p, const uint8_t *end, cs_buf *out, const uint8_t **next, int depth) {
    const uint8_t *e = skip_at(p, end, depth);
    if (e == NULL)
        return -1;
    if (*p != T_TABLE) {
        cs_buf_put(out, p, (size_t)(e - p));
        *next = e;
        return 0;
    }
    uint32_t narr, nrec;
    memcpy(&narr, p + 1, 4);
    memcpy(&nrec, p + 5, 4);
    const uint8_t *q = p + 9;
    size_t n = (size_t)narr + nrec;
    pair *pairs = calloc(n ? n : 1, sizeof *pairs);
    if (pairs == NULL)
        abort();
    size_t k = 0;
    int rc = 0;
    for (uint32_t i = 1; i <= narr && rc == 0; i++, k++) {
        put_int(&pairs[k].k, i);
        rc = canon_at(q, end, &pairs[k].v, &q, depth + 1);
    }
    for (uint32_t i = 0; i < nrec && rc == 0; i++, k++) {
        rc = canon_at(q, end, &pairs[k].k, &q, depth + 1);
        if (rc == 0)
            rc = canon_at(q, end, &pairs[k].v, &q, depth + 1);
    }
    if (rc == 0) {
        qsort(pairs, n, sizeof *pairs, cmp_pair);
        uint32_t count = (uint32_t)n, zero = 0;
        put_tag(out, T_TABLE);
        cs_buf_put(out, &zero, 4);
        cs_buf_put(out, &count, 4);
        for (size_t i = 0; i < n; i++) {
            cs_buf_put(out, pairs[i].k.p, pairs[i].k.len);
            cs_buf_put(out, pairs[i].v.p, pairs[i].v.len);
        }
        *next = e;
    }
    for (size_t i = 0; i < n; i++) {
        cs_buf_free(&pairs[i].k);
        cs_buf_free(&pairs[i].v);
    }
    free(pairs);
    return rc;
}

int cs_canonical(const uint8_t *p, const uint8_t *end, cs_buf *out, const uint8_t **next) {
    const uint8_t *dummy;
    return canon_at(p, end, out, next ? next : &dummy, 0);
}

/* ---- the host ---- */

enum host_fn {
    H_FLOW = 1, H_ECHO, H_YIELD, H_FAIL, H_CALL,
    H_ASK, H_INTENSITY, H_YESNO, H_CHOOSE, H_CHOOSE_MANY, H_CHECKLIST, H_ACTION, H_MESSAGE,
    H_QUOTE, H_TEXT, H_DISTORTION, H_MOOD, H_LOCALE, H_NOW, H_RANDOM,
};

typedef struct cs_host {
    rlua_control *c;
    int digesting;
    cs_buf out, args;
    int prompt; /* enum host_fn of the last prompt, 0 when none */
    char option[64];
    uint64_t digest;
    int malformed;
    size_t largest;
} cs_host;

static void digest(cs_host *h, const void *p, size_t n) {
    const uint8_t *b = p;
    uint64_t d = h->digest ? h->digest : 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        d ^= b[i];
        d *= 1099511628211ull;
    }
    h->digest = d;
}

/* Digests an output in canonical form (the order of lua_next is not
 * something a person can observe; what a flow computes from it is). */
static void digest_values(cs_host *h, const uint8_t *p, size_t len) {
    const uint8_t *end = p + len;
    if (!h->digesting)
        return;
    while (p != NULL && p < end) {
        cs_buf b = { 0 };
        if (cs_canonical(p, end, &b, &p) != 0) {
            h->malformed++;
            cs_buf_free(&b);
            return;
        }
        digest(h, b.p, b.len);
        cs_buf_free(&b);
    }
}

static void remember_option(cs_host *h, const uint8_t *spec, const uint8_t *end) {
    strcpy(h->option, "a");
    const uint8_t *list = table_get(spec, end, "options", 0);
    if (list == NULL)
        list = table_get(spec, end, "items", 0);
    const uint8_t *first = table_get(list, end, NULL, 1);
    const uint8_t *id = table_get(first, end, "id", 0);
    uint32_t len;
    if (id != NULL && end - id >= 5 && *id == T_STRING) {
        memcpy(&len, id + 1, 4);
        if (len < sizeof h->option && (size_t)(end - id - 5) >= len) {
            memcpy(h->option, id + 5, len);
            h->option[len] = '\0';
        }
    }
}

static int32_t dispatch(void *ctx, lua_State *L, int64_t id, const uint8_t *args, size_t args_len,
                        const uint8_t **out, size_t *out_len) {
    cs_host *h = ctx;
    h->out.len = 0;
    h->args.len = 0;
    /* The arguments live in the control block's buffer, which a nested call
     * overwrites: keep a copy. */
    cs_buf_put(&h->args, args, args_len);
    if (args_len > h->largest)
        h->largest = args_len;
    const uint8_t *a = h->args.p, *end = h->args.p + h->args.len;
    int32_t kind = RLUA_HOST_RETURN;
    if (!cs_values_valid(a, end, NULL)) {
        h->malformed++;
        cs_buf_put(&h->out, "malformed arguments from the sandbox", 36);
        kind = RLUA_HOST_ERROR;
        goto done;
    }
    digest_values(h, a, h->args.len);
    switch (id) {
    case H_FLOW:
    case H_ECHO:
        cs_buf_put(&h->out, a, h->args.len);
        break;
    case H_YIELD:
        cs_buf_put(&h->out, a, h->args.len);
        kind = RLUA_HOST_YIELD;
        break;
    case H_FAIL:
        cs_buf_put(&h->out, "host failure", 12);
        kind = RLUA_HOST_ERROR;
        break;
    case H_CALL: {
        int64_t fn;
        if (a == NULL || a >= end || *a != T_HANDLE) {
            cs_buf_put(&h->out, "host.call: a function expected", 30);
            kind = RLUA_HOST_ERROR;
            break;
        }
        memcpy(&fn, a + 1, 8);
        const uint8_t *rest = a + 9;
        int32_t st = rlua_call(L, fn, rest, (size_t)(end - rest));
        if (st == RLUA_OK) {
            size_t n;
            const uint8_t *o = rlua_output(h->c, &n);
            cs_buf_put(&h->out, o, n);
        } else {
            const char *m = rlua_last_error(h->c)->message;
            cs_buf_put(&h->out, m, strlen(m));
            kind = RLUA_HOST_ERROR;
        }
        break;
    }
    case H_ASK: case H_INTENSITY: case H_YESNO: case H_CHOOSE: case H_CHOOSE_MANY:
    case H_CHECKLIST: case H_ACTION: case H_MESSAGE: {
        const uint8_t *spec = value_at(a, end, 1);
        if (spec == NULL || *spec != T_TABLE) {
            const char *m = "prompt: a table { id = ..., text = ... } expected";
            cs_buf_put(&h->out, m, strlen(m));
            kind = RLUA_HOST_ERROR;
            break;
        }
        h->prompt = (int)id;
        remember_option(h, spec, end);
        kind = RLUA_HOST_YIELD;
        break;
    }
    case H_QUOTE:
    case H_TEXT: {
        const uint8_t *v = value_at(a, end, 1);
        if (v != NULL && *v == T_STRING)
            cs_buf_put(&h->out, v, (size_t)(cs_value_skip(v, end) - v));
        else
            put_cstr(&h->out, "");
        break;
    }
    case H_DISTORTION: put_cstr(&h->out, "unknown"); break;
    case H_MOOD: put_tag(&h->out, T_NIL); break;
    case H_LOCALE: put_cstr(&h->out, "en"); break;
    case H_NOW:
        put_table(&h->out, 0, 7);
        put_cstr(&h->out, "year"); put_int(&h->out, 2026);
        put_cstr(&h->out, "month"); put_int(&h->out, 11);
        put_cstr(&h->out, "day"); put_int(&h->out, 23);
        put_cstr(&h->out, "hour"); put_int(&h->out, 9);
        put_cstr(&h->out, "minute"); put_int(&h->out, 30);
        put_cstr(&h->out, "weekday"); put_int(&h->out, 2);
        put_cstr(&h->out, "iso"); put_cstr(&h->out, "2026-11-23T09:30:00Z");
        break;
    case H_RANDOM: {
        const uint8_t *m = value_at(a, end, 1);
        int64_t v = 0;
        if (m != NULL && *m == T_INT)
            memcpy(&v, m + 1, 8);
        put_int(&h->out, v);
        break;
    }
    default:
        cs_buf_put(&h->out, "unknown host function", 21);
        kind = RLUA_HOST_ERROR;
        break;
    }
done:
    *out = h->out.p;
    *out_len = h->out.len;
    return kind;
}

static void print_fn(void *ctx, const char *text, size_t len) {
    cs_host *h = ctx;
    digest(h, text, len);
    if (getenv("CSANDBOX_PRINT"))
        fprintf(stderr, "print: %.*s\n", (int)(len > 200 ? 200 : len), text);
}

/* ---- the run ---- */

const char *cs_status_name(int32_t s) {
    switch (s) {
    case RLUA_OK: return "ok";
    case RLUA_YIELDED: return "yielded";
    case RLUA_E_SYNTAX: return "syntax";
    case RLUA_E_RUNTIME: return "runtime";
    case RLUA_E_MEMORY: return "memory";
    case RLUA_E_INSTRUCTIONS: return "instructions";
    case RLUA_E_DEADLINE: return "deadline";
    case RLUA_E_CANCELLED: return "cancelled";
    case RLUA_E_VALUE: return "value";
    case RLUA_E_MISUSE: return "misuse";
    default: return "unknown-status";
    }
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct timer {
    cs_result *r;
    double t0;
} timer;

static timer start(cs_result *r) { return (timer){ r, now_seconds() }; }
static void stop(timer t, const char *what) {
    double d = now_seconds() - t.t0;
    if (d > t.r->slowest_call) {
        t.r->slowest_call = d;
        t.r->slowest_what = what;
    }
}

static const char boot_src[] =
    "local def = ...\n"
    "local run = def\n"
    "if type(def) == 'table' then run = rawget(def, 'run') end\n"
    "if type(run) ~= 'function' then return nil end\n"
    "return function() return run(require('reflect.session')) end\n";

static int64_t make_fn(lua_State *L, int64_t id, const char *name) {
    int64_t h = 0;
    if (rlua_host_function(L, id, name, &h) != RLUA_OK)
        return 0;
    return h;
}

static int define_table(lua_State *L, const char *name, const char *const *names, const int64_t *ids, int n,
                        int32_t flags) {
    cs_buf b = { 0 };
    put_table(&b, 0, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        int64_t h = make_fn(L, ids[i], names[i]);
        if (h == 0) {
            cs_buf_free(&b);
            return -1;
        }
        put_cstr(&b, names[i]);
        put_handle(&b, h);
    }
    int32_t st = rlua_define(L, name, b.p, b.len, flags);
    cs_buf_free(&b);
    return st == RLUA_OK ? 0 : -1;
}

static void record_error(cs_result *r, rlua_control *c) {
    const rlua_error *e = rlua_last_error(c);
    if (e->chunk[0])
        snprintf(r->message, sizeof r->message, "%s:%d: %s", e->chunk, (int)e->line, e->message);
    else
        snprintf(r->message, sizeof r->message, "%s", e->message);
}

/* Copies the last output (valid only until the next call into the state),
 * checks that it is well formed and digests it. */
static void take_output(cs_host *h, cs_result *r, cs_buf *into) {
    size_t n = 0;
    const uint8_t *o = rlua_output(h->c, &n);
    into->len = 0;
    cs_buf_put(into, o, n);
    if (n > h->largest)
        h->largest = n;
    if (!cs_values_valid(into->p, into->p + into->len, NULL)) {
        h->malformed++;
        return;
    }
    digest_values(h, into->p, into->len);
    (void)r;
}

/* rlua_resume_one with the encoded values in `in`: one string, integer,
 * boolean or nil as itself, nothing as nothing, anything else encoded. */
static int32_t resume_one(lua_State *L, int64_t co, const cs_buf *in, rlua_one *out) {
    rlua_one a = { 0 };
    uint32_t n32 = 0;
    if (in->len == 0) {
        a.type = RLUA_ONE_NONE;
    } else if (in->len == 1 && in->p[0] <= T_TRUE) {
        a.type = in->p[0] == T_NIL ? RLUA_ONE_NIL : RLUA_ONE_BOOLEAN;
        a.integer = in->p[0] == T_TRUE;
    } else if (in->len == 9 && in->p[0] == T_INT) {
        a.type = RLUA_ONE_INTEGER;
        memcpy(&a.integer, in->p + 1, 8);
    } else if (in->len >= 5 && in->p[0] == T_STRING && (memcpy(&n32, in->p + 1, 4), in->len == 5 + (size_t)n32)) {
        a.type = RLUA_ONE_STRING;
        a.bytes = in->p + 5;
        a.len = n32;
    } else {
        a.type = RLUA_ONE_ENCODED;
        a.bytes = in->p;
        a.len = in->len;
    }
    return rlua_resume_one(L, co, &a, out);
}

/* take_output for a one-value result: the same encoding into `into`. */
static void take_one(cs_host *h, cs_result *r, const rlua_one *one, cs_buf *into) {
    if (one->type == RLUA_ONE_STRING || one->type == RLUA_ONE_ENCODED) {
        if (one->type == RLUA_ONE_STRING && one->bytes[one->len] != 0)
            h->malformed++; /* promised: a NUL after the bytes */
        take_output(h, r, into);
        return;
    }
    into->len = 0;
    switch (one->type) {
    case RLUA_ONE_NONE: break;
    case RLUA_ONE_NIL: put_tag(into, T_NIL); break;
    case RLUA_ONE_BOOLEAN: put_tag(into, one->integer ? T_TRUE : T_FALSE); break;
    case RLUA_ONE_INTEGER: put_int(into, one->integer); break;
    case RLUA_ONE_NUMBER: put_tag(into, T_DOUBLE); cs_buf_put(into, &one->number, 8); break;
    default: h->malformed++; return;
    }
    digest_values(h, into->p, into->len);
}

static void answer(cs_host *h, cs_buf *b) {
    b->len = 0;
    switch (h->prompt) {
    case H_ASK: put_cstr(b, "I always mess things up, every single time"); break;
    case H_INTENSITY: put_int(b, 6); break;
    case H_YESNO: put_tag(b, T_TRUE); break;
    case H_CHOOSE: put_cstr(b, h->option); break;
    case H_CHOOSE_MANY:
    case H_CHECKLIST:
        put_table(b, 1, 0);
        put_cstr(b, h->option);
        break;
    case H_ACTION: put_tag(b, T_TRUE); break;
    default: break;
    }
    h->prompt = 0;
}

int cs_run_flow(const char *src, size_t len, const cs_options *o, cs_result *r) {
    memset(r, 0, sizeof *r);
    r->stage = "open";
    r->slowest_what = "";
    cs_host h = { 0 };
    cs_buf io = { 0 };
    int contained = 1;
    double t_begin = now_seconds();
    int max_steps = o->max_steps > 0 ? o->max_steps : 64;

    h.digesting = o->digest;
    h.c = rlua_control_new(&o->limits);
    if (h.c == NULL)
        return 1;
    timer t = start(r);
    lua_State *L = rlua_open(h.c, o->seed, &h, dispatch, print_fn);
    stop(t, "open");
    if (L == NULL) {
        record_error(r, h.c);
        rlua_control_free(h.c);
        return 1;
    }

    /* Declarations the flow sees at load time. */
    int64_t flow_fn = make_fn(L, H_FLOW, "flow");
    cs_buf b = { 0 };
    put_handle(&b, flow_fn);
    int ok = flow_fn != 0 && rlua_define(L, "flow", b.p, b.len, RLUA_DEFINE_GLOBAL) == RLUA_OK;
    cs_buf_free(&b);
    static const char *const host_names[] = { "echo", "yield", "fail", "call" };
    static const int64_t host_ids[] = { H_ECHO, H_YIELD, H_FAIL, H_CALL };
    ok = ok && define_table(L, "host", host_names, host_ids, 4, RLUA_DEFINE_GLOBAL | RLUA_DEFINE_READONLY) == 0;
    if (!ok) {
        record_error(r, h.c);
        contained = 0;
        goto close;
    }

    int64_t chunk = 0, boot = 0, body = 0, co = 0;
    r->stage = "load";
    t = start(r);
    r->status = rlua_load(L, src, len, o->chunk ? o->chunk : "flows/case.lua", &chunk);
    stop(t, "load");
    if (r->status != RLUA_OK)
        goto failed;

    r->stage = "call";
    t = start(r);
    r->status = rlua_call(L, chunk, NULL, 0);
    stop(t, "call");
    if (r->status != RLUA_OK)
        goto failed;
    take_output(&h, r, &io);

    r->stage = "boot";
    r->status = rlua_load(L, boot_src, sizeof boot_src - 1, "reflect:session", &boot);
    if (r->status == RLUA_OK) {
        t = start(r);
        r->status = rlua_call(L, boot, io.p, io.len);
        stop(t, "boot");
    }
    if (r->status != RLUA_OK)
        goto failed;
    take_output(&h, r, &io);
    if (io.len != 9 || io.p[0] != T_HANDLE) { /* no run function: the top level was all */
        r->finished = 1;
        r->stage = "done";
        goto probe;
    }
    memcpy(&body, io.p + 1, 8);

    r->stage = "session";
    static const char *const s_names[] = {
        "ask", "intensity", "yesno", "choose", "choose_many", "checklist", "action", "message",
        "quote", "text", "distortion", "mood", "locale", "now", "random",
    };
    static const int64_t s_ids[] = {
        H_ASK, H_INTENSITY, H_YESNO, H_CHOOSE, H_CHOOSE_MANY, H_CHECKLIST, H_ACTION, H_MESSAGE,
        H_QUOTE, H_TEXT, H_DISTORTION, H_MOOD, H_LOCALE, H_NOW, H_RANDOM,
    };
    if (define_table(L, "reflect.session", s_names, s_ids, 15, RLUA_DEFINE_MODULE | RLUA_DEFINE_READONLY) != 0) {
        record_error(r, h.c);
        contained = 0;
        goto close;
    }

    r->stage = "coroutine";
    r->status = rlua_coroutine(L, body, &co);
    if (r->status != RLUA_OK)
        goto failed;

    r->stage = "resume";
    io.len = 0;
    for (;;) {
        /* Every other step through the one-value crossing (the engine's
         * and reflect-bench's), the others through the general one: both
         * run every case under the sanitizers, and give the same values. */
        rlua_one one;
        int by_one = r->steps % 2 == 1;
        t = start(r);
        r->status = by_one ? resume_one(L, co, &io, &one) : rlua_resume(L, co, io.p, io.len);
        stop(t, "resume");
        r->steps++;
        if (r->status == RLUA_OK || r->status == RLUA_YIELDED) {
            if (by_one)
                take_one(&h, r, &one, &io);
            else
                take_output(&h, r, &io);
        }
        if (r->status == RLUA_OK) {
            r->finished = 1;
            r->stage = "done";
            break;
        }
        if (r->status != RLUA_YIELDED)
            goto failed;
        if (r->steps > max_steps)
            break;
        if (o->total_seconds > 0 && now_seconds() - t_begin > o->total_seconds)
            break;
        answer(&h, &io);
    }
    goto probe;

failed:
    record_error(r, h.c);
    digest(&h, cs_status_name(r->status), strlen(cs_status_name(r->status)));
    digest(&h, r->message, strlen(r->message));

probe:
    /* The state must still be usable after whatever the flow did. */
    {
        int64_t p = 0;
        static const char probe_src[] = "return 1 + 1, ('x'):rep(3)";
        static const uint8_t want[] = { T_INT, 2, 0, 0, 0, 0, 0, 0, 0, T_STRING, 3, 0, 0, 0, 'x', 'x', 'x' };
        if (rlua_load(L, probe_src, sizeof probe_src - 1, "flows/probe.lua", &p) == RLUA_OK &&
            rlua_call(L, p, NULL, 0) == RLUA_OK) {
            size_t n;
            const uint8_t *out = rlua_output(h.c, &n);
            r->probe_ok = n == sizeof want && memcmp(out, want, n) == 0;
        }
        if (!r->probe_ok)
            contained = 0;
        rlua_release(L, p);
    }
    rlua_release(L, chunk);
    rlua_release(L, boot);
    rlua_release(L, body);
    rlua_release(L, co);

close:
    r->memory_peak = rlua_memory_peak(h.c);
    t = start(r);
    rlua_close(L);
    stop(t, "close");
    r->memory_after_close = rlua_memory_in_use(h.c);
    if (r->memory_after_close != 0)
        contained = 0;
    r->malformed_output = h.malformed;
    r->largest_crossing = h.largest;
    if (h.malformed)
        contained = 0;
    r->digest = h.digest;
    rlua_control_free(h.c);
    cs_buf_free(&h.out);
    cs_buf_free(&h.args);
    cs_buf_free(&io);
    return contained ? 0 : 1;
}

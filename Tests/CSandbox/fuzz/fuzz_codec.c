/* fuzz_codec.c — libFuzzer target for the value codec (rlua_codec.c).
 *
 * The first byte picks a mode, the rest is the payload:
 *   0  payload = encoded values from the host: rlua_call of a chunk that
 *      returns its arguments (decode, then encode), then the output once
 *      more; both outputs must be well formed and equal up to table order.
 *   1  payload = encoded value for rlua_define (flags from the second byte:
 *      global, module, read-only), then a chunk walks it with pairs, #, and
 *      writes (read-only proxies must refuse them without breaking).
 *   2  payload = a Lua expression list: `return <payload>`; its results are
 *      encoded (whatever a flow can build: cycles, depth, functions,
 *      coroutines, metatables), then round-tripped as in mode 0.
 *   3  payload = encoded values resumed into a coroutine that yields them
 *      back, twice (the resume path of the codec).
 * Handles 1..6 exist (host functions and chunks), so T_HANDLE values can
 * name live functions as well as unknown ones.
 *
 * Limits: 8 MiB, 10^6 instructions, 0.2 s per call. A finding is a sanitizer
 * report, a signal, a leak, a hang, an output that is not a well-formed
 * encoding, a round trip that changes a value, a payload accepted by the
 * sandbox that is not a well-formed sequence of values, a state that no
 * longer runs afterwards, or memory not returned on close. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

static int32_t dispatch(void *ctx, lua_State *L, int64_t id, const uint8_t *args, size_t len, const uint8_t **out,
                        size_t *out_len) {
    static uint8_t copy[1 << 16];
    size_t n = len < sizeof copy ? len : 0;
    memcpy(copy, args, n);
    *out = copy;
    *out_len = n;
    return RLUA_HOST_RETURN;
}

#define FAIL(...) do { fprintf(stderr, "fuzz-codec: " __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

static void take(rlua_control *c, cs_buf *b) {
    size_t n;
    const uint8_t *o = rlua_output(c, &n);
    b->len = 0;
    cs_buf_put(b, o, n);
    int count;
    if (!cs_values_valid(b->p, b->p + b->len, &count))
        FAIL("the sandbox produced a malformed encoding (%zu bytes)", n);
}

static void canon_all(const cs_buf *in, cs_buf *out) {
    const uint8_t *p = in->p, *end = in->p + in->len;
    out->len = 0;
    while (p < end)
        if (cs_canonical(p, end, out, &p) != 0)
            FAIL("canonical form failed on a valid encoding");
}

/* Calls `fn` with y1 and checks the result equals y1 up to table order. */
static void round_trip(lua_State *L, rlua_control *c, int64_t fn, const cs_buf *y1, int coroutine) {
    cs_buf y2 = { 0 }, a = { 0 }, b = { 0 };
    int32_t st = coroutine ? rlua_resume(L, fn, y1->p, y1->len) : rlua_call(L, fn, y1->p, y1->len);
    if (st == RLUA_OK || st == RLUA_YIELDED) {
        take(c, &y2);
        canon_all(y1, &a);
        canon_all(&y2, &b);
        if (a.len != b.len || (a.len > 0 && memcmp(a.p, b.p, a.len) != 0))
            FAIL("round trip changed a value (%zu bytes in, %zu bytes out)", y1->len, y2.len);
    } else if (st != RLUA_E_MEMORY && st != RLUA_E_VALUE && st != RLUA_E_DEADLINE && st != RLUA_E_INSTRUCTIONS) {
        /* A value the sandbox itself encoded must decode again. */
        FAIL("re-sending the sandbox's own output failed: %s: %s", cs_status_name(st), rlua_last_error(c)->message);
    }
    cs_buf_free(&y2);
    cs_buf_free(&a);
    cs_buf_free(&b);
}

static const char identity_src[] = "return ...";
static const char walk_src[] =
    "local ok, v = pcall(function() return V end)\n"
    "if not ok then ok, v = pcall(require, 'v') end\n"
    "local seen, n = {}, 0\n"
    "local function walk(x, d)\n"
    "  if type(x) ~= 'table' or d > 40 or seen[x] then return end\n"
    "  seen[x] = true\n"
    "  n = n + #x\n"
    "  for k, y in pairs(x) do n = n + 1; walk(k, d + 1); walk(y, d + 1) end\n"
    "  pcall(function() x.new = 1 end)\n"
    "  pcall(rawset, x, 'new', 1)\n"
    "  pcall(setmetatable, x, nil)\n"
    "end\n"
    "walk(v, 0)\n"
    "return n, v\n";
static const char echo_co_src[] =
    "return function(...)\n"
    "  local a = table.pack(...)\n"
    "  while true do a = table.pack(coroutine.yield(table.unpack(a, 1, a.n))) end\n"
    "end\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1)
        return 0;
    int mode = data[0] % 4;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    rlua_limits lim = { 0 };
    lim.memory_bytes = (size_t)8 << 20;
    lim.instructions = 1000000;
    lim.seconds = 0.2;
    rlua_control *c = rlua_control_new(&lim);
    lua_State *L = rlua_open(c, 1, NULL, dispatch, NULL);
    if (L == NULL)
        FAIL("cannot open a state");
    int64_t h = 0, identity = 0;
    rlua_host_function(L, 1, "echo", &h);
    rlua_host_function(L, 2, "other", &h);
    rlua_load(L, identity_src, sizeof identity_src - 1, "flows/identity.lua", &identity);
    cs_buf y1 = { 0 };
    int32_t st;

    switch (mode) {
    case 0:
    case 2: {
        if (mode == 0) {
            st = rlua_call(L, identity, p, n);
            if (st == RLUA_OK && !cs_values_valid(p, p + n, NULL))
                FAIL("the sandbox accepted a malformed encoding (%zu bytes)", n);
        } else {
            char *src = malloc(n + 8);
            memcpy(src, "return ", 7);
            memcpy(src + 7, p, n);
            int64_t chunk = 0;
            st = rlua_load(L, src, n + 7, "flows/values.lua", &chunk);
            free(src);
            if (st == RLUA_OK)
                st = rlua_call(L, chunk, NULL, 0);
        }
        if (st == RLUA_OK) {
            take(c, &y1);
            round_trip(L, c, identity, &y1, 0);
        }
        break;
    }
    case 1: {
        int32_t flags = n > 0 ? (p[0] & 7) : RLUA_DEFINE_GLOBAL;
        if (n > 0) {
            p++;
            n--;
        }
        st = rlua_define(L, "V", p, n, flags);
        if (st == RLUA_OK && !cs_values_valid(p, p + n, NULL))
            FAIL("rlua_define accepted a malformed encoding");
        if (st == RLUA_OK && (flags & RLUA_DEFINE_MODULE))
            rlua_define(L, "v", p, n, RLUA_DEFINE_MODULE | (flags & RLUA_DEFINE_READONLY));
        int64_t walk = 0;
        if (rlua_load(L, walk_src, sizeof walk_src - 1, "flows/walk.lua", &walk) == RLUA_OK &&
            rlua_call(L, walk, NULL, 0) == RLUA_OK)
            take(c, &y1);
        break;
    }
    case 3: {
        int64_t maker = 0, fn = 0, co = 0;
        if (rlua_load(L, echo_co_src, sizeof echo_co_src - 1, "flows/echo.lua", &maker) != RLUA_OK ||
            rlua_call(L, maker, NULL, 0) != RLUA_OK)
            FAIL("cannot make the echo coroutine: %s", rlua_last_error(c)->message);
        size_t on;
        const uint8_t *o = rlua_output(c, &on);
        if (on != 9 || o[0] != 7)
            FAIL("the echo chunk did not return a function handle");
        memcpy(&fn, o + 1, 8);
        if (rlua_coroutine(L, fn, &co) != RLUA_OK)
            FAIL("cannot create a coroutine");
        st = rlua_resume(L, co, p, n);
        if (st == RLUA_YIELDED) {
            if (!cs_values_valid(p, p + n, NULL))
                FAIL("rlua_resume accepted a malformed encoding");
            take(c, &y1);
            round_trip(L, c, co, &y1, 1);
        }
        break;
    }
    }

    /* Still usable, and every byte comes back. */
    int64_t probe = 0;
    static const char probe_src[] = "return 1 + 1";
    if (rlua_load(L, probe_src, sizeof probe_src - 1, "flows/probe.lua", &probe) != RLUA_OK ||
        rlua_call(L, probe, NULL, 0) != RLUA_OK)
        FAIL("the state no longer runs a trivial chunk: %s", rlua_last_error(c)->message);
    rlua_close(L);
    if (rlua_memory_in_use(c) != 0)
        FAIL("%zu bytes not returned on close", rlua_memory_in_use(c));
    rlua_control_free(c);
    cs_buf_free(&y1);
    return 0;
}

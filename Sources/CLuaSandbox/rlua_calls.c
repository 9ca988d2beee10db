/* Entry points that run script code: load, call, coroutines, the trampoline
 * that lets Lua call Swift, and definitions of host values.
 *
 * Each entry point counts as a top-level call (fresh budget) unless the host
 * is already inside one (a host function calling back into Lua), in which
 * case it shares the running call's budget. */
#include <stdio.h>
#include <string.h>
#include "rlua_internal.h"

/* ---- helpers run under protection ---- */

typedef struct crossing {
    const uint8_t *args;
    size_t len;
    int64_t handle;
    int nresults;
    const char *name;
    int32_t flags;
} crossing;

static void encode_results(lua_State *L, int first, int n) {
    rlua_control *c = rlua_ctl(L);
    int bad = 0;
    const char *why = rlua_encode(L, first, n, &bad);
    if (why != NULL) {
        c->value_error = 1;
        luaL_error(L, "result #%d cannot be passed to the host: %s", bad, why);
    }
}

static int p_call(lua_State *L) {
    crossing *x = rlua_take_ud(L);
    if (rlua_handle_push(L, x->handle) != LUA_TFUNCTION)
        return luaL_error(L, "function handle %I is unknown or was released", (lua_Integer)x->handle);
    int n = rlua_decode(L, x->args, x->len);
    lua_call(L, n, LUA_MULTRET);
    encode_results(L, 1, lua_gettop(L));
    return 0;
}

static int p_make_env(lua_State *L) {
    crossing *x = rlua_take_ud(L); /* the chunk is now on top */
    rlua_env_push_new(L, x->name);
    lua_setupvalue(L, -2, 1);
    x->handle = rlua_handle_store(L, -1);
    return 0;
}

static int p_coroutine(lua_State *L) {
    crossing *x = rlua_take_ud(L);
    if (rlua_handle_push(L, x->handle) != LUA_TFUNCTION)
        return luaL_error(L, "function handle %I is unknown or was released", (lua_Integer)x->handle);
    lua_State *co = lua_newthread(L); /* inherits the count hook */
    lua_pushvalue(L, -2);
    lua_xmove(L, co, 1);
    x->handle = rlua_co_store(L, -1);
    return 0;
}

/* ---- load / call ---- */

int32_t rlua_load(lua_State *L, const char *src, size_t len, const char *name, int64_t *out) {
    rlua_control *c = rlua_ctl(L);
    char chunkname[RLUA_SOURCE_MAX + 1];
    snprintf(chunkname, sizeof chunkname, "=%s", name);
    rlua_error_clear(&c->error);
    int base = lua_gettop(L);
    rlua_entry_begin(c, L);
    int status = luaL_loadbufferx(L, src, len, chunkname, "t");
    if (status != LUA_OK) {
        if (status == LUA_ERRMEM)
            rlua_error_set(&c->error, "not enough memory");
        else
            rlua_error_from_message(L, -1, &c->error);
        if (c->error.chunk[0] == '\0')
            snprintf(c->error.chunk, sizeof c->error.chunk, "%s", name);
    } else {
        crossing x = { 0 };
        x.name = name;
        status = rlua_protect(L, p_make_env, &x, 1, 0);
        *out = x.handle;
    }
    int32_t result = rlua_classify(c, status);
    rlua_entry_end(c);
    lua_settop(L, base);
    return result;
}

int32_t rlua_call(lua_State *L, int64_t fn, const uint8_t *args, size_t len) {
    crossing x = { args, len, fn, 0, NULL, 0 };
    int32_t result = rlua_entry_call(L, p_call, &x);
    return result;
}

/* ---- coroutines ---- */

/* Creating a coroutine without the protected call, when nothing in it can
 * raise, else 0 (nothing done: p_coroutine runs under protection). As in
 * resume_direct, raising is possible only where Lua allocates, so this runs
 * with no call running (depth 0: only the cap refuses growth) and only when
 * the cap has room for the thread, its stack and the thread table's growth
 * (at most twice the table, which holds two entries per slot), when the
 * thread table exists (the first coroutine makes it) and the slot array
 * needs no growth, when the state is not cancelled, and when the instruction
 * budget could not trip on that growth. It then counts as its own top-level
 * call, as under protection: a fresh budget charged with that growth, and
 * the last call's records cleared. The handle is the same as p_coroutine's.
 * Only a failure of malloc itself within the cap could raise; that ends the
 * process (the panic function), as a failed allocation ends a Swift
 * program. */
static int coroutine_direct(lua_State *L, rlua_control *c, int64_t fn, int64_t *out) {
    size_t need = 4096 + 128 * ((size_t)c->co_count + 2);
    if (c->depth != 0 || atomic_load(&c->cancel) || c->co_table_ref <= 0 ||
        (c->co_free == 0 && c->co_count + 1 >= c->co_cap) || c->limits.instructions < need / RLUA_BYTES_PER_UNIT + 1 ||
        c->mem_used > c->limits.memory_bytes || c->limits.memory_bytes - c->mem_used < need || !lua_checkstack(L, 4))
        return 0;
    int base = lua_gettop(L);
    if (rlua_handle_push(L, fn) != LUA_TFUNCTION) {
        lua_settop(L, base);
        return 0; /* the protected path names the unknown handle */
    }
    c->idle_units = 0;
    c->idle_bytes = 0;
    lua_State *co = lua_newthread(L);
    /* The hook it would have copied from a main thread armed for this call
     * (one left counting every instruction by a trip would follow it into
     * a resume from a host function, which does not re-arm). */
    lua_sethook(co, rlua_hook, LUA_MASKCOUNT, c->limits.hook_interval);
    lua_pushvalue(L, -2);
    lua_xmove(L, co, 1);
    *out = rlua_co_store(L, -1);
    lua_settop(L, base);
    /* What rlua_entry_begin, the charges and rlua_classify would have left. */
    c->instr_used = c->idle_units;
    c->alloc_since_check = c->idle_bytes;
    c->trip = TRIP_NONE;
    c->value_error = 0;
    c->mem_refused = 0;
    rlua_error_clear(&c->limit_error);
    rlua_error_clear(&c->error);
    return 1;
}

int32_t rlua_coroutine(lua_State *L, int64_t fn, int64_t *out) {
    rlua_control *c = rlua_ctl(L);
    if (coroutine_direct(L, c, fn, out))
        return RLUA_OK;
    crossing x = { NULL, 0, fn, 0, NULL, 0 };
    int32_t result = rlua_entry_call(L, p_coroutine, &x);
    *out = x.handle;
    return result;
}

static lua_State *thread_of(lua_State *L, int64_t h) {
    rlua_co_slot *s = rlua_co_find(rlua_ctl(L), h);
    return s ? s->thread : NULL;
}

/* The status of the coroutine in slot s (see rlua_coroutine_status). */
static int32_t status_of(const rlua_co_slot *s) {
    lua_State *co = s->thread;
    lua_Debug ar;
    if (s->kept >= 0)
        return 2; /* it returned; what it returned is kept elsewhere */
    switch (lua_status(co)) {
    case LUA_YIELD:
        return 0;
    case LUA_OK:
        if (lua_getstack(co, 0, &ar))
            return 1; /* running, or resumed another coroutine */
        return lua_gettop(co) == 0 ? 2 : 0;
    default:
        return 2;
    }
}

int32_t rlua_coroutine_status(lua_State *L, int64_t h) {
    rlua_co_slot *s = rlua_co_find(rlua_ctl(L), h);
    return s == NULL ? -1 : status_of(s);
}

int32_t rlua_coroutine_line(lua_State *L, int64_t h) {
    lua_State *co = thread_of(L, h);
    lua_Debug ar;
    if (co == NULL || lua_status(co) != LUA_YIELD)
        return -1;
    /* The innermost Lua function: level 0 is the C function that yielded. */
    for (int level = 0; level < 8 && lua_getstack(co, level, &ar); level++) {
        if (lua_getinfo(co, "l", &ar) && ar.currentline > 0)
            return ar.currentline;
    }
    return -1;
}

int32_t rlua_is_coroutine(lua_State *L, int64_t h) {
    return thread_of(L, h) == L ? 1 : 0;
}

/* The whole resume runs inside a protected call on the main thread: Lua
 * 5.4.4 can raise on the coroutine after its own protection has ended (a
 * message it creates while recording the error, "error in error handling",
 * or a resume error), and such an error is forwarded to the main thread's
 * handler, which would be the panic function if there were none. The
 * one-value resume skips that call when nothing outside lua_resume can
 * raise (resume_direct). */
typedef struct resume_crossing {
    crossing x;
    lua_State *co;
    const rlua_one *arg; /* rlua_resume_one: the argument, and where its result goes */
    rlua_one *result;
    int keep; /* rlua_resume_one_kept: a return is kept in place */
    int status; /* what lua_resume answered */
    int nres; /* how many values it left on the coroutine's stack */
} resume_crossing;

/* Pushes rlua_resume_one's argument on L; returns how many values it is. */
static int push_one(lua_State *L, const rlua_one *a) {
    switch (a->type) {
    case RLUA_ONE_NONE: return 0;
    case RLUA_ONE_NIL: lua_pushnil(L); return 1;
    case RLUA_ONE_BOOLEAN: lua_pushboolean(L, a->integer != 0); return 1;
    case RLUA_ONE_INTEGER: lua_pushinteger(L, (lua_Integer)a->integer); return 1;
    case RLUA_ONE_NUMBER: lua_pushnumber(L, (lua_Number)a->number); return 1;
    case RLUA_ONE_STRING: lua_pushlstring(L, (const char *)a->bytes, a->len); return 1;
    case RLUA_ONE_ENCODED: return rlua_decode(L, a->bytes, a->len);
    default: return luaL_error(L, "malformed value from the host (kind %d)", (int)a->type);
    }
}

/* The results of rlua_resume_one, still on the coroutine's stack: one
 * scalar is handed over as it is (a string copied into the crossing buffer,
 * in the codec's encoding, so that the host can still decode it the
 * general way); nothing or anything else is left for the general encoding
 * (returns 0). A string the host allowance cannot take is left for the
 * general encoding too, which refuses it with the usual error. Never
 * raises. */
static int take_one(lua_State *co, int nres, rlua_one *out) {
    if (nres == 0) {
        out->type = RLUA_ONE_NONE;
        return 1;
    }
    if (nres != 1)
        return 0;
    switch (lua_type(co, -1)) {
    case LUA_TNIL: out->type = RLUA_ONE_NIL; break;
    case LUA_TBOOLEAN: out->type = RLUA_ONE_BOOLEAN; out->integer = lua_toboolean(co, -1); break;
    case LUA_TNUMBER:
        if (lua_isinteger(co, -1)) {
            out->type = RLUA_ONE_INTEGER;
            out->integer = (int64_t)lua_tointeger(co, -1);
        } else {
            out->type = RLUA_ONE_NUMBER;
            out->number = (double)lua_tonumber(co, -1);
        }
        break;
    case LUA_TSTRING: {
        rlua_control *c = rlua_ctl(co);
        size_t len;
        const char *s = lua_tolstring(co, -1, &len);
        /* tag, length, bytes, and a NUL after them (not part of the encoding) */
        if (len > UINT32_MAX || len + 5 > c->limits.crossing_bytes_max || rlua_output_reserve(c, len + 6) != 0)
            return 0;
        uint32_t l32 = (uint32_t)len;
        c->buf[0] = 5; /* the codec's string tag */
        memcpy(c->buf + 1, &l32, 4);
        memcpy(c->buf + 5, s, len + 1); /* Lua keeps a NUL after every string */
        c->buf_len = 5 + len;
        out->type = RLUA_ONE_STRING;
        out->bytes = c->buf + 5;
        out->len = len;
        break;
    }
    default:
        return 0;
    }
    lua_pop(co, 1);
    return 1;
}

/* Moves the nres values a finished coroutine returned into the thread
 * table, beside the coroutine: one value as it is, several in a sequence. Returns 0 when
 * the handle was released meanwhile (by a host function the coroutine
 * called): then the values cross the usual way. May raise (memory). */
static int keep_returned(lua_State *L, lua_State *co, int64_t h, int nres, rlua_one *out) {
    rlua_co_slot *s = rlua_co_find(rlua_ctl(L), h);
    if (s == NULL || s->thread != co)
        return 0;
    if (nres > 0) {
        luaL_checkstack(L, nres + 4, "too many values returned by the coroutine");
        rlua_co_table_push(L);
        int kept = lua_gettop(L);
        if (nres == 1) {
            lua_xmove(co, L, 1);
        } else {
            lua_createtable(L, nres, 0);
            int seq = lua_gettop(L);
            lua_xmove(co, L, nres);
            for (int i = nres; i >= 1; i--)
                lua_rawseti(L, seq, i); /* pops the top one: value i */
        }
        lua_rawseti(L, kept, RLUA_CO_KEPT_KEY(h & 0xffffffff));
        lua_pop(L, 1);
        /* The allocation above may have collected, but cannot have released
         * the handle (no host code ran): s is still the slot. */
    }
    lua_settop(co, 0);
    s = rlua_co_find(rlua_ctl(L), h);
    s->kept = nres;
    out->type = RLUA_ONE_KEPT;
    out->integer = nres;
    return 1;
}

/* keep_returned for nothing or one value, when it cannot raise: the value
 * goes where `false` holds its place (rlua_co_store), an existing key, so
 * the raw set allocates nothing. Returns 0, having changed nothing, when
 * that does not apply (then keep_returned, protected, does the work). */
static int keep_returned_direct(lua_State *L, lua_State *co, int64_t h, int nres, rlua_one *out) {
    rlua_co_slot *s = rlua_co_find(rlua_ctl(L), h);
    if (s == NULL || s->thread != co || nres > 1 || !lua_checkstack(L, 3))
        return 0;
    if (nres == 1) {
        int base = lua_gettop(L);
        lua_Integer key = RLUA_CO_KEPT_KEY(h & 0xffffffff);
        if (rlua_co_table_push(L) != LUA_TTABLE || lua_rawgeti(L, -1, key) != LUA_TBOOLEAN) {
            lua_settop(L, base);
            return 0;
        }
        lua_pop(L, 1);
        lua_xmove(co, L, 1);
        lua_rawseti(L, -2, key);
        lua_settop(L, base);
    }
    lua_settop(co, 0);
    s->kept = nres;
    out->type = RLUA_ONE_KEPT;
    out->integer = nres;
    return 1;
}

/* What follows lua_resume (r->status, r->nres): hands over or keeps what
 * the coroutine yielded or returned, or records its error. May raise. */
static void after_resume(lua_State *L, resume_crossing *r) {
    rlua_control *c = rlua_ctl(L);
    lua_State *co = r->co;
    int nres = r->nres;
    if (r->status == LUA_OK && r->keep && keep_returned(L, co, r->x.handle, nres, r->result))
        return;
    if (r->status == LUA_OK || r->status == LUA_YIELD) {
        if (r->result != NULL && take_one(co, nres, r->result))
            return;
        int base = lua_gettop(L);
        luaL_checkstack(L, nres + 4, "too many values returned by the coroutine");
        lua_xmove(co, L, nres);
        encode_results(L, base + 1, nres);
        return;
    }
    /* The coroutine's stack is left as it was: read the frames from it. */
    if (r->status == LUA_ERRMEM && lua_type(co, -1) != LUA_TSTRING)
        rlua_error_set(&c->error, "not enough memory");
    else
        rlua_error_from_thread(co, 0, -1, &c->error);
    if (r->status == LUA_ERRMEM)
        snprintf(c->error.message, sizeof c->error.message, "not enough memory");
    lua_resetthread(co); /* closes what the coroutine left open, under the budget */
    /* Resetting a thread that failed leaves the error object on its empty
     * stack, where it would pass for a function not started yet: the
     * coroutine would look suspended, and resuming it would call the
     * message. Without it the coroutine is dead, as documented. */
    lua_settop(co, 0);
}

static int p_resume(lua_State *L) {
    resume_crossing *r = rlua_take_ud(L);
    lua_State *co = r->co;
    int n = r->arg ? push_one(L, r->arg) : rlua_decode(L, r->x.args, r->x.len);
    if (!lua_checkstack(co, n + LUA_MINSTACK))
        return luaL_error(L, "too many values to resume with");
    lua_xmove(L, co, n);
    r->status = lua_resume(co, L, n, &r->nres);
    after_resume(L, r);
    return 0;
}

static int p_after_resume(lua_State *L) {
    after_resume(L, rlua_take_ud(L));
    return 0;
}

/* Strings up to this size may be pushed without a protected call. */
#define DIRECT_STRING_MAX ((size_t)256 << 10)

/* The one-value resume without a protected call, taken when nothing
 * outside lua_resume's own protection can raise, else 0 (nothing done, the
 * budget not begun: the protected path runs). Raising is possible only
 * where Lua allocates, so:
 * - the argument is pushed before the call begins (depth 0, where only the
 *   cap refuses growth: not the budget, nor a cancellation arriving from
 *   another thread), and only when the cap has room for it (a string's
 *   bytes and header, and the string table's growth, which is at most half
 *   of what the state holds: a quarter of each string's block); the growth
 *   is then charged to the call as the budget charges any growth, and when
 *   that charge would trip it, or the call begins tripped (cancelled), the
 *   protected path pushes again and fails as it always did;
 * - a result is handed over by take_one or kept by keep_returned_direct,
 *   which never raise; anything else (several values, a table, an error to
 *   record) is finished by after_resume under a protected call.
 * lua_resume raises nothing after its own protection ends: the messages it
 * would create there are pinned (rlua_state.c). Only a failure of malloc
 * itself within the cap could raise while pushing; that ends the process
 * (the panic function), as a failed allocation ends a Swift program.
 * On return 1 the budget has begun (the caller ends it) and r->status is the
 * outcome, as p_resume's protected call would give it. */
static int resume_direct(lua_State *L, rlua_control *c, resume_crossing *r) {
    const rlua_one *a = r->arg;
    lua_State *co = r->co;
    if (c->depth != 0)
        return 0; /* a host function resuming: inside a call already */
    int n = 1;
    switch (a->type) {
    case RLUA_ONE_NONE: n = 0; break;
    case RLUA_ONE_NIL: case RLUA_ONE_BOOLEAN: case RLUA_ONE_INTEGER: case RLUA_ONE_NUMBER: break;
    case RLUA_ONE_STRING:
        if (a->len > DIRECT_STRING_MAX || c->mem_used > c->limits.memory_bytes ||
            c->limits.memory_bytes - c->mem_used < c->mem_used / 2 + a->len + 64)
            return 0;
        break;
    default:
        return 0;
    }
    if (!lua_checkstack(co, n + LUA_MINSTACK))
        return 0;
    c->idle_units = 0;
    c->idle_bytes = 0;
    push_one(co, a);
    uint64_t units = c->idle_units;
    size_t bytes = c->idle_bytes;
    rlua_entry_begin(c, co);
    if (c->trip != TRIP_NONE || units > c->limits.instructions || bytes >= ((size_t)1 << 20)) {
        lua_pop(co, n);
        rlua_entry_end(c);
        return 0;
    }
    c->instr_used = units;
    c->alloc_since_check = bytes;
    r->status = lua_resume(co, L, n, &r->nres);
    int done;
    if (r->status == LUA_YIELD || (r->status == LUA_OK && !r->keep))
        done = take_one(co, r->nres, r->result);
    else if (r->status == LUA_OK)
        done = keep_returned_direct(L, co, r->x.handle, r->nres, r->result);
    else
        done = 0;
    if (!done) {
        int status = rlua_protect(L, p_after_resume, r, 0, 0);
        if (status != LUA_OK)
            r->status = status;
    }
    return 1;
}

static int32_t resume_with(lua_State *L, int64_t h, resume_crossing *r) {
    rlua_control *c = rlua_ctl(L);
    rlua_error_clear(&c->error);
    rlua_co_slot *s = rlua_co_find(c, h);
    lua_State *co = s ? s->thread : NULL;
    switch (s ? status_of(s) : -1) {
    case -1:
        rlua_error_set(&c->error, "coroutine handle %lld is unknown or was released", (long long)h);
        return RLUA_E_MISUSE;
    case 1:
        rlua_error_set(&c->error, "cannot resume a running coroutine");
        return RLUA_E_MISUSE;
    case 2:
        rlua_error_set(&c->error, "cannot resume a finished coroutine");
        return RLUA_E_MISUSE;
    default:
        break;
    }
    r->co = co;
    int base = -1; /* the direct resume leaves L's stack as it found it */
    int status;
    if (r->arg != NULL && resume_direct(L, c, r)) {
        status = r->status;
    } else {
        base = lua_gettop(L);
        /* A top-level resume arms the coroutine, where its code runs (threads
         * it creates copy its hook); the main thread only runs p_resume's C,
         * and every call that runs code on it arms it first. */
        rlua_entry_begin(c, co);
        status = rlua_protect(L, p_resume, r, 0, 0);
        if (status == LUA_OK)
            status = r->status; /* the coroutine's own outcome; its error is already recorded */
    }
    int32_t result;
    if (c->trip == TRIP_NONE && (status == LUA_YIELD || status == LUA_OK))
        result = status == LUA_YIELD ? RLUA_YIELDED : RLUA_OK; /* what rlua_classify says */
    else
        result = rlua_classify(c, status);
    rlua_entry_end(c);
    if (base >= 0)
        lua_settop(L, base);
    return result;
}

int32_t rlua_resume(lua_State *L, int64_t h, const uint8_t *args, size_t len) {
    resume_crossing r = { { args, len, h, 0, NULL, 0 }, NULL, NULL, NULL, 0, LUA_OK, 0 };
    return resume_with(L, h, &r);
}

int32_t rlua_resume_one(lua_State *L, int64_t h, const rlua_one *arg, rlua_one *result) {
    resume_crossing r = { { NULL, 0, h, 0, NULL, 0 }, NULL, arg, result, 0, LUA_OK, 0 };
    result->type = RLUA_ONE_ENCODED;
    return resume_with(L, h, &r);
}

int32_t rlua_resume_one_kept(lua_State *L, int64_t h, const rlua_one *arg, rlua_one *result) {
    resume_crossing r = { { NULL, 0, h, 0, NULL, 0 }, NULL, arg, result, 1, LUA_OK, 0 };
    result->type = RLUA_ONE_ENCODED;
    return resume_with(L, h, &r);
}

/* ---- reading what a coroutine returned, in place ---- */

typedef struct kept_read {
    int64_t handle;
    int32_t index;
    const rlua_one *key;
    rlua_one *out;
    int misuse; /* set with the error text when the read itself is wrong */
} kept_read;

/* Pushes the result `k` reads from what slot `s` kept: nil when its index
 * is out of range; else the value, on top of the coroutine table and, when
 * several results were kept, their list (the caller restores its top).
 * Raw reads of existing tables: allocates nothing, raises nothing; needs
 * three stack slots. */
static void push_kept(lua_State *L, const rlua_co_slot *s, const kept_read *k) {
    if (k->index < 1 || k->index > s->kept) {
        lua_pushnil(L);
        return;
    }
    rlua_co_table_push(L);
    lua_rawgeti(L, -1, RLUA_CO_KEPT_KEY(k->handle & 0xffffffff));
    if (s->kept > 1)
        lua_rawgeti(L, -1, k->index);
}

static int p_kept_read(lua_State *L) {
    kept_read *k = rlua_take_ud(L);
    rlua_control *c = rlua_ctl(L);
    rlua_co_slot *s = rlua_co_find(c, k->handle);
    if (s == NULL) {
        k->misuse = 1;
        return luaL_error(L, "coroutine handle %I is unknown or was released", (lua_Integer)k->handle);
    }
    if (s->kept < 0) {
        k->misuse = 1;
        return luaL_error(L, "the coroutine has not returned (or its values were not kept)");
    }
    luaL_checkstack(L, 4, NULL);
    push_kept(L, s, k);
    if (k->key != NULL && k->key->type != RLUA_ONE_NONE) {
        if (lua_type(L, -1) != LUA_TTABLE) {
            k->misuse = 1;
            return luaL_error(L, "returned value #%d is %s, not a table", (int)k->index,
                              lua_type(L, -1) == LUA_TNIL ? "nil" : luaL_typename(L, -1));
        }
        if (k->key->type == RLUA_ONE_INTEGER)
            lua_rawgeti(L, -1, (lua_Integer)k->key->integer);
        else if (k->key->type == RLUA_ONE_STRING) {
            lua_pushlstring(L, (const char *)k->key->bytes, k->key->len);
            lua_rawget(L, -2);
        } else {
            k->misuse = 1;
            return luaL_error(L, "a field key must be a string or an integer");
        }
    }
    if (!take_one(L, 1, k->out)) {
        k->out->type = RLUA_ONE_ENCODED;
        int bad = 0;
        const char *why = rlua_encode(L, lua_gettop(L), 1, &bad);
        if (why != NULL) { /* as the whole copy names it: by its place among the results */
            c->value_error = 1;
            return luaL_error(L, "result #%d cannot be passed to the host: %s", (int)k->index, why);
        }
    }
    return 0;
}

/* The read without a protected call, when nothing in it can allocate in
 * Lua or raise: no key or an integer key (raw reads of existing tables),
 * and a result take_one hands over (a scalar, or a string copied into the
 * C crossing buffer). Returns 0, having pushed nothing, for everything
 * else, which the protected read then handles (and reports). */
static int kept_read_direct(lua_State *L, const kept_read *k) {
    rlua_control *c = rlua_ctl(L);
    int keyed = k->key != NULL && k->key->type != RLUA_ONE_NONE;
    if (keyed && k->key->type != RLUA_ONE_INTEGER)
        return 0;
    rlua_co_slot *s = rlua_co_find(c, k->handle);
    if (s == NULL || s->kept < 0 || !lua_checkstack(L, 3))
        return 0;
    int base = lua_gettop(L);
    push_kept(L, s, k);
    int done = 0;
    if (!keyed || lua_type(L, -1) == LUA_TTABLE) {
        if (keyed)
            lua_rawgeti(L, -1, (lua_Integer)k->key->integer);
        done = take_one(L, 1, k->out);
    }
    lua_settop(L, base);
    return done;
}

int32_t rlua_kept_read(lua_State *L, int64_t coroutine, int32_t index, const rlua_one *key, rlua_one *out) {
    kept_read k = { coroutine, index, key, out, 0 };
    out->type = RLUA_ONE_ENCODED;
    if (kept_read_direct(L, &k))
        return RLUA_OK;
    out->type = RLUA_ONE_ENCODED;
    int32_t result = rlua_entry_call(L, p_kept_read, &k);
    return result != RLUA_OK && k.misuse ? RLUA_E_MISUSE : result;
}

/* ---- host functions ---- */

/* Releases the handles numbered first..last that the host did not retain:
 * those made for one host call's arguments. */
static void release_scoped(lua_State *L, int64_t first, int64_t last) {
    if (first > last || !lua_checkstack(L, 2))
        return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_RETAINED);
    for (int64_t h = first; h <= last; h++) {
        int kept = lua_rawgeti(L, -1, h) != LUA_TNIL;
        lua_pop(L, 1);
        if (!kept)
            rlua_release(L, h);
    }
    lua_pop(L, 1);
}

static int trampoline(lua_State *L) {
    rlua_control *c = rlua_ctl(L);
    int64_t id = (int64_t)lua_tointeger(L, lua_upvalueindex(1));
    const char *name = lua_tostring(L, lua_upvalueindex(2));
    int n = lua_gettop(L);
    int bad = 0;
    /* Functions among the arguments get handles valid for this call only
     * (unless the host retains them): a flow passing closures in a loop must
     * not fill the handle table. */
    int64_t first = c->next_handle + 1;
    const char *why = rlua_encode(L, 1, n, &bad);
    int64_t last = c->next_handle;
    if (why != NULL) {
        release_scoped(L, first, last);
        return luaL_error(L, "bad argument #%d to '%s' (%s)", bad, name, why);
    }
    if (c->dispatch == NULL)
        return luaL_error(L, "host function '%s' is not available", name);
    const uint8_t *out = NULL;
    size_t out_len = 0;
    int32_t kind = c->dispatch(c->host_ctx, L, id, c->buf, c->buf_len, &out, &out_len);
    /* Back in C: from here on raising is safe again. */
    if (c->trip != TRIP_NONE) {
        release_scoped(L, first, last);
        return rlua_trip_raise(L);
    }
    switch (kind) {
    case RLUA_HOST_RETURN:
    case RLUA_HOST_YIELD: {
        lua_settop(L, 0);
        int nres = rlua_decode(L, out, out_len); /* may name the argument handles: release after */
        release_scoped(L, first, last);
        return kind == RLUA_HOST_YIELD ? lua_yield(L, nres) : nres;
    }
    default:
        release_scoped(L, first, last);
        luaL_where(L, 1);
        lua_pushlstring(L, (const char *)out, out_len);
        lua_concat(L, 2);
        return lua_error(L);
    }
}

static int p_host_function(lua_State *L) {
    crossing *x = rlua_take_ud(L);
    lua_pushinteger(L, (lua_Integer)x->handle);
    lua_pushstring(L, x->name);
    lua_pushcclosure(L, trampoline, 2);
    x->handle = rlua_handle_store(L, -1);
    return 0;
}

int32_t rlua_host_function(lua_State *L, int64_t id, const char *name, int64_t *out) {
    crossing x = { NULL, 0, id, 0, name, 0 };
    int32_t result = rlua_entry_call(L, p_host_function, &x);
    *out = x.handle;
    return result;
}

static int p_define(lua_State *L) {
    crossing *x = rlua_take_ud(L);
    if (rlua_decode(L, x->args, x->len) != 1)
        return luaL_error(L, "define '%s': expected exactly one value", x->name);
    if (x->flags & RLUA_DEFINE_READONLY)
        rlua_readonly_wrap(L, -1, x->name, 0);
    if (x->flags & RLUA_DEFINE_GLOBAL) {
        lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_TEMPLATE);
        lua_pushvalue(L, -2);
        lua_setfield(L, -2, x->name);
        lua_pop(L, 1);
    }
    if (x->flags & RLUA_DEFINE_MODULE) {
        lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_MODULES);
        lua_pushvalue(L, -2);
        lua_setfield(L, -2, x->name);
        lua_pop(L, 1);
    }
    return 0;
}

int32_t rlua_define(lua_State *L, const char *name, const uint8_t *value, size_t len, int32_t flags) {
    crossing x = { value, len, 0, 0, name, flags };
    int32_t result = rlua_entry_call(L, p_define, &x);
    return result;
}

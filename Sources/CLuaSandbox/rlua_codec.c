/* The value codec: how values cross between Lua and Swift.
 *
 * Encoding (native byte order, one process):
 *   0 nil | 1 false | 2 true | 3 int64 | 4 double | 5 u32 len + bytes
 *   6 table: u32 array count, u32 field count, array values (keys 1..n),
 *     then field (key, value) pairs
 *   7 handle: int64 (a function kept in the registry's handle table)
 *
 * Reading Lua uses raw access only (no __index, __pairs, __len), with limits
 * on nesting depth and value count and a cycle check, so a hostile table
 * cannot run code or loop the host. Strings are passed as bytes; Swift checks
 * UTF-8 and NULs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rlua_internal.h"

#define RLUA_PATH_MAX 256
/* A crossing buffer larger than this is released at the next crossing. */
#define RLUA_BUF_KEEP ((size_t)1 << 20)

enum { T_NIL = 0, T_FALSE, T_TRUE, T_INT, T_DOUBLE, T_STRING, T_TABLE, T_HANDLE };

typedef struct enc {
    rlua_control *c;
    int depth;
    int nodes;
    const void *path[RLUA_PATH_MAX];
    const char *err;
} enc;

/* Makes room for n more bytes; -1 (with e->err) when the crossing would
 * pass the host allowance or memory runs out. */
static int reserve_slow(enc *e, size_t n) {
    rlua_control *c = e->c;
    /* The host's copy of one crossing is held to the host allowance: a
     * string referenced many times is copied each time, so without this a
     * 4 MiB string in 60 fields would cost the host 240 MB. */
    if (c->buf_len + n > c->limits.crossing_bytes_max) {
        snprintf(c->encode_error, sizeof c->encode_error,
                 "too large for the host: more than %zu KiB (the host allowance per crossing; "
                 "a string counts once per reference)", c->limits.crossing_bytes_max / 1024);
        e->err = c->encode_error;
        return -1;
    }
    if (c->buf_len + n > c->buf_cap) {
        size_t cap = c->buf_cap ? c->buf_cap : 256;
        while (cap < c->buf_len + n)
            cap *= 2;
        uint8_t *nb = realloc(c->buf, cap);
        if (nb == NULL) {
            e->err = "out of memory while passing a value to the host";
            return -1;
        }
        c->buf = nb;
        c->buf_cap = cap;
    }
    return 0;
}

/* The buffer never holds more than the allowance, so room within both the
 * capacity and the allowance needs no further check. */
static inline int reserve(enc *e, size_t n) {
    rlua_control *c = e->c;
    if (c->buf_len + n <= c->buf_cap && c->buf_len + n <= c->limits.crossing_bytes_max)
        return 0;
    return reserve_slow(e, n);
}

static int put(enc *e, const void *p, size_t n) {
    if (reserve(e, n))
        return -1;
    memcpy(e->c->buf + e->c->buf_len, p, n);
    e->c->buf_len += n;
    return 0;
}

/* A tag and its fixed-size payload (n bytes at p), in one reservation. */
static int put_tagged(enc *e, uint8_t t, const void *p, size_t n) {
    if (reserve(e, 1 + n))
        return -1;
    uint8_t *w = e->c->buf + e->c->buf_len;
    w[0] = t;
    memcpy(w + 1, p, n);
    e->c->buf_len += 1 + n;
    return 0;
}

static int put_tag(enc *e, uint8_t t) { return put(e, &t, 1); }

int64_t rlua_handle_store(lua_State *L, int idx) {
    rlua_control *c = rlua_ctl(L);
    idx = lua_absindex(L, idx);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_HANDLES);
    lua_pushvalue(L, idx);
    if (lua_rawget(L, -2) == LUA_TNUMBER) { /* already has a handle */
        int64_t h = lua_tointeger(L, -1);
        lua_pop(L, 2);
        return h;
    }
    lua_pop(L, 1);
    int64_t h = ++c->next_handle;
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, h);
    lua_pushvalue(L, idx);
    lua_pushinteger(L, h);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    return h;
}

int rlua_handle_push(lua_State *L, int64_t h) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_HANDLES);
    int t = lua_rawgeti(L, -1, h);
    lua_remove(L, -2);
    return t;
}

static int p_retain(lua_State *L) {
    int64_t *h = rlua_take_ud(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_RETAINED);
    lua_pushboolean(L, 1);
    lua_rawseti(L, -2, *h);
    return 0;
}

int32_t rlua_retain(lua_State *L, int64_t h) { return rlua_entry_call(L, p_retain, &h); }

void rlua_release(lua_State *L, int64_t h) {
    if (rlua_is_co_handle(h)) {
        rlua_co_release(L, h);
        return;
    }
    if (!lua_checkstack(L, 4))
        return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_HANDLES);
    int t = lua_rawgeti(L, -1, h);
    if (t != LUA_TNIL) {
        /* Raw sets of existing keys to nil never allocate. */
        lua_pushnil(L);
        lua_rawset(L, -3);
        lua_pushnil(L);
        lua_rawseti(L, -2, h);
    } else {
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_RETAINED);
    lua_pushnil(L);
    lua_rawseti(L, -2, h);
    lua_pop(L, 1);
}

static int enc_value(lua_State *L, int idx, enc *e);

static int enc_key(lua_State *L, int idx, enc *e) {
    switch (lua_type(L, idx)) {
    case LUA_TSTRING:
    case LUA_TNUMBER:
        if (lua_type(L, idx) == LUA_TNUMBER && !lua_isinteger(L, idx)) {
            e->err = "table key is a non-integer number";
            return -1;
        }
        return enc_value(L, idx, e);
    default:
        e->err = "table key must be a string or an integer";
        return -1;
    }
}

static int enc_table(lua_State *L, int idx, enc *e) {
    const void *self = lua_topointer(L, idx);
    for (int i = 0; i < e->depth; i++) {
        if (e->path[i] == self) {
            e->err = "cyclic table";
            return -1;
        }
    }
    if (e->depth >= e->c->limits.value_depth_max || e->depth >= RLUA_PATH_MAX) {
        e->err = "table nested too deeply";
        return -1;
    }
    if (!lua_checkstack(L, 4)) {
        e->err = "table nested too deeply";
        return -1;
    }
    rlua_env_prepare_all(L, idx); /* an environment crosses with every library */
    e->path[e->depth++] = self;
    uint32_t zero = 0;
    if (put_tag(e, T_TABLE) || put(e, &zero, 4))
        return -1;
    size_t count_at = e->c->buf_len;
    if (put(e, &zero, 4))
        return -1;
    uint32_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (enc_key(L, lua_gettop(L) - 1, e) || enc_value(L, lua_gettop(L), e)) {
            lua_pop(L, 2);
            return -1;
        }
        count++;
        lua_pop(L, 1);
    }
    memcpy(e->c->buf + count_at, &count, 4);
    e->depth--;
    return 0;
}

static int enc_value(lua_State *L, int idx, enc *e) {
    if (++e->nodes > e->c->limits.value_nodes_max) {
        e->err = "too many values to pass to the host";
        return -1;
    }
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
        return put_tag(e, T_NIL);
    case LUA_TBOOLEAN:
        return put_tag(e, lua_toboolean(L, idx) ? T_TRUE : T_FALSE);
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) {
            int64_t v = lua_tointeger(L, idx);
            return put_tagged(e, T_INT, &v, 8);
        } else {
            double v = lua_tonumber(L, idx);
            return put_tagged(e, T_DOUBLE, &v, 8);
        }
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len > UINT32_MAX) {
            e->err = "string too long to pass to the host";
            return -1;
        }
        uint32_t l32 = (uint32_t)len;
        if (len > SIZE_MAX - 5 || reserve(e, 5 + len))
            return -1;
        uint8_t *w = e->c->buf + e->c->buf_len;
        w[0] = T_STRING;
        memcpy(w + 1, &l32, 4);
        memcpy(w + 5, s, len);
        e->c->buf_len += 5 + len;
        return 0;
    }
    case LUA_TTABLE:
        return enc_table(L, idx, e);
    case LUA_TFUNCTION: {
        int64_t h = rlua_handle_store(L, idx);
        return put_tagged(e, T_HANDLE, &h, 8);
    }
    default:
        e->err = lua_type(L, idx) == LUA_TTHREAD ? "a coroutine cannot be passed to the host"
                                                  : "a userdata cannot be passed to the host";
        return -1;
    }
}

int rlua_output_reserve(rlua_control *c, size_t n) {
    c->buf_len = 0;
    if (c->buf_cap > RLUA_BUF_KEEP) { /* the previous crossing was large: give it back */
        free(c->buf);
        c->buf = NULL;
        c->buf_cap = 0;
    }
    if (n <= c->buf_cap)
        return 0;
    size_t cap = c->buf_cap ? c->buf_cap : 256;
    while (cap < n)
        cap *= 2;
    uint8_t *nb = realloc(c->buf, cap);
    if (nb == NULL)
        return -1;
    c->buf = nb;
    c->buf_cap = cap;
    return 0;
}

const char *rlua_encode(lua_State *L, int first, int n, int *bad_index) {
    enc e;
    e.c = rlua_ctl(L);
    e.depth = 0;
    e.nodes = 0;
    e.err = NULL;
    if (rlua_output_reserve(e.c, 0) != 0)
        return "out of memory while passing a value to the host";
    first = lua_absindex(L, first);
    for (int i = 0; i < n; i++) {
        if (enc_value(L, first + i, &e)) {
            if (bad_index)
                *bad_index = i + 1;
            return e.err ? e.err : "value cannot cross into the host";
        }
    }
    return NULL;
}

/* ---- decoding ---- */

typedef struct dec {
    const uint8_t *p, *end;
    int depth;
} dec;

static void need(lua_State *L, dec *d, size_t n) {
    if ((size_t)(d->end - d->p) < n)
        luaL_error(L, "malformed value from the host (truncated)");
}

static void dec_value(lua_State *L, dec *d);

static void dec_table(lua_State *L, dec *d) {
    uint32_t narr, nrec;
    need(L, d, 8);
    memcpy(&narr, d->p, 4);
    memcpy(&nrec, d->p + 4, 4);
    d->p += 8;
    if (++d->depth > RLUA_PATH_MAX)
        luaL_error(L, "value from the host nested too deeply");
    luaL_checkstack(L, 4, "value from the host nested too deeply");
    lua_createtable(L, narr > (1u << 24) ? 0 : (int)narr, nrec > (1u << 24) ? 0 : (int)nrec);
    for (uint32_t i = 1; i <= narr; i++) {
        dec_value(L, d);
        lua_rawseti(L, -2, i);
    }
    for (uint32_t i = 0; i < nrec; i++) {
        dec_value(L, d);
        if (lua_isnil(L, -1))
            luaL_error(L, "malformed value from the host (nil key)");
        dec_value(L, d);
        lua_rawset(L, -3);
    }
    d->depth--;
}

static void dec_value(lua_State *L, dec *d) {
    need(L, d, 1);
    uint8_t tag = *d->p++;
    switch (tag) {
    case T_NIL: lua_pushnil(L); break;
    case T_FALSE: lua_pushboolean(L, 0); break;
    case T_TRUE: lua_pushboolean(L, 1); break;
    case T_INT: {
        int64_t v;
        need(L, d, 8);
        memcpy(&v, d->p, 8);
        d->p += 8;
        lua_pushinteger(L, (lua_Integer)v);
        break;
    }
    case T_DOUBLE: {
        double v;
        need(L, d, 8);
        memcpy(&v, d->p, 8);
        d->p += 8;
        lua_pushnumber(L, v);
        break;
    }
    case T_STRING: {
        uint32_t len;
        need(L, d, 4);
        memcpy(&len, d->p, 4);
        d->p += 4;
        need(L, d, len);
        lua_pushlstring(L, (const char *)d->p, len);
        d->p += len;
        break;
    }
    case T_TABLE: dec_table(L, d); break;
    case T_HANDLE: {
        int64_t h;
        need(L, d, 8);
        memcpy(&h, d->p, 8);
        d->p += 8;
        if (rlua_handle_push(L, h) == LUA_TNIL)
            luaL_error(L, "function handle %I is unknown or was released", (lua_Integer)h);
        break;
    }
    default:
        luaL_error(L, "malformed value from the host (tag %d)", (int)tag);
    }
}

int rlua_decode(lua_State *L, const uint8_t *p, size_t len) {
    dec d = { p, p + len, 0 };
    int n = 0;
    while (d.p < d.end) {
        luaL_checkstack(L, 2, "too many values from the host");
        dec_value(L, &d);
        n++;
    }
    return n;
}

const uint8_t *rlua_output(const rlua_control *c, size_t *len) {
    *len = c->buf_len;
    return c->buf;
}

/* The same world on every replay: the built-ins whose answers would
 * otherwise depend on the process rather than on the flow.
 *
 * - pairs / next: Lua orders a table's hash part by string hashes, and the
 *   hash seed differs between Lua states. Flows see keys in a fixed order:
 *   numbers ascending, then strings by bytes, then false, true. A key of
 *   another type (a table, a function) has no fixed order and pairs/next
 *   refuse it with an error naming the key's type.
 * - tostring / print / string.format("%s"): a table, function or coroutine
 *   is named by an id given in the order the flow first shows it
 *   ("table: #3"), never by its heap address; "%p" is refused.
 * - collectgarbage is gone: memory figures differ between states.
 *
 * Every one of these charges its work to the running call's budget. */
#include <string.h>
#include "rlua_internal.h"

static char RLUA_KEY_IDS = 0; /* registry: object -> id, weak keys */

void rlua_determinism_setup(lua_State *L) {
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_IDS);
}

/* ---- key order ---- */

static int key_rank(lua_State *L, int idx) {
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return 3;
    }
}

/* Total order on number, string and boolean keys; raises nothing. */
static int key_less(lua_State *L, int a, int b, void *ud) {
    (void)ud;
    int ra = key_rank(L, a), rb = key_rank(L, b);
    if (ra != rb)
        return ra < rb;
    switch (ra) {
    case 0:
        if (lua_isinteger(L, a) && lua_isinteger(L, b))
            return lua_tointeger(L, a) < lua_tointeger(L, b);
        return lua_compare(L, a, b, LUA_OPLT); /* numbers only: no metamethod */
    case 1: {
        size_t la, lb;
        const char *sa = lua_tolstring(L, a, &la), *sb = lua_tolstring(L, b, &lb);
        int c = memcmp(sa, sb, la < lb ? la : lb);
        return c < 0 || (c == 0 && la < lb);
    }
    default:
        return !lua_toboolean(L, a) && lua_toboolean(L, b);
    }
}

/* Pushes a new sequence of t's keys, in the fixed order; returns its length. */
static lua_Integer push_sorted_keys(lua_State *L, int t) {
    t = lua_absindex(L, t);
    luaL_checkstack(L, 6, "pairs");
    lua_newtable(L);
    int keys = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (key_rank(L, -1) == 3)
            luaL_error(L, "cannot iterate a table with a %s key: flows see keys in a fixed order, "
                          "which exists only for number, string and boolean keys (keep such values in a list)",
                       luaL_typename(L, -1));
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++n);
        rlua_charge(L, 1);
    }
    rlua_merge_sort(L, keys, n, key_less, NULL);
    return n;
}

/* Upvalues: the table, its sorted keys, the position reached. */
static int ordered_step(lua_State *L) {
    lua_Integer pos = lua_tointeger(L, lua_upvalueindex(3));
    lua_Integer n = (lua_Integer)lua_rawlen(L, lua_upvalueindex(2));
    while (pos < n) {
        pos++;
        lua_rawgeti(L, lua_upvalueindex(2), pos);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) { /* skip keys removed meanwhile */
            lua_pushinteger(L, pos);
            lua_replace(L, lua_upvalueindex(3));
            return 2;
        }
        lua_pop(L, 2);
    }
    lua_pushinteger(L, pos);
    lua_replace(L, lua_upvalueindex(3));
    lua_pushnil(L);
    return 1;
}

void rlua_push_ordered_iterator(lua_State *L, int t) {
    t = lua_absindex(L, t);
    rlua_env_prepare_all(L, t); /* every library of an environment, before its keys are taken */
    lua_pushvalue(L, t);
    push_sorted_keys(L, t);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, ordered_step, 3);
}

/* pairs(t): honours __pairs, as Lua's does; otherwise an iterator over the
 * keys in the fixed order. The iterator holds the table itself: no state
 * value is handed to the caller. */
static int det_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    rlua_push_ordered_iterator(L, 1);
    lua_pushnil(L);
    lua_pushnil(L);
    return 3;
}

/* next(t [, k]): the key after k in the fixed order. Each call walks the
 * whole table (charged): iterate with pairs, not next. */
static int det_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    rlua_env_prepare_all(L, 1);
    int have_k = !lua_isnil(L, 2);
    if (have_k && key_rank(L, 2) == 3)
        return luaL_error(L, "next: keys of type %s have no fixed order in flows", luaL_typename(L, 2));
    if (have_k) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, 1) == LUA_TNIL)
            return luaL_error(L, "invalid key to 'next'");
        lua_pop(L, 1);
    }
    lua_pushnil(L); /* 3: the smallest key after k seen so far */
    int found = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) { /* key at 4, value at 5 */
        lua_pop(L, 1);
        rlua_charge(L, 1);
        if (key_rank(L, 4) == 3)
            return luaL_error(L, "cannot iterate a table with a %s key: flows see keys in a fixed order, "
                                 "which exists only for number, string and boolean keys (keep such values in a list)",
                              luaL_typename(L, 4));
        if ((!have_k || key_less(L, 2, 4, NULL)) && (!found || key_less(L, 4, 3, NULL))) {
            lua_pushvalue(L, 4);
            lua_replace(L, 3);
            found = 1;
        }
    }
    if (!found) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 3);
    lua_rawget(L, 1);
    return 2;
}

/* ---- names of objects ---- */

/* Pushes the text tostring gives the value at idx: __tostring and __name as
 * Lua does, and an id in place of an address. */
void rlua_push_tostring(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    luaL_checkstack(L, 4, "tostring");
    if (luaL_callmeta(L, idx, "__tostring")) {
        if (!lua_isstring(L, -1))
            luaL_error(L, "'__tostring' must return a string");
        return;
    }
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
        lua_pushvalue(L, idx);
        lua_tolstring(L, -1, NULL); /* numbers become their text, in the copy */
        return;
    case LUA_TBOOLEAN:
        lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
        return;
    case LUA_TNIL:
        lua_pushliteral(L, "nil");
        return;
    default:
        break;
    }
    rlua_control *c = rlua_ctl(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_IDS);
    lua_pushvalue(L, idx);
    lua_Integer id;
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
        id = lua_tointeger(L, -1);
        lua_pop(L, 1);
    } else {
        lua_pop(L, 1);
        id = (lua_Integer)++c->next_object_id;
        lua_pushvalue(L, idx);
        lua_pushinteger(L, id);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
    int name_type = luaL_getmetafield(L, idx, "__name");
    const char *kind = name_type == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, idx);
    lua_pushfstring(L, "%s: #%I", kind, id);
    if (name_type != LUA_TNIL)
        lua_remove(L, -2);
}

static int det_tostring(lua_State *L) {
    luaL_checkany(L, 1);
    rlua_push_tostring(L, 1);
    return 1;
}

/* Lua's own string.format: the same function in every state (the library
 * is linked once), set by the first install, checked by the others. Called
 * directly, in det_format's frame (it has no upvalues). */
static _Atomic(lua_CFunction) lua_format = NULL;

/* 1 for the characters Lua's format accepts between '%' and the
 * conversion: flags, width, precision. */
static int is_format_modifier(char ch) {
    switch (ch) {
    case '-': case '+': case ' ': case '#': case '.':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return 1;
    default:
        return 0;
    }
}

/* string.format with %s of any value through rlua_push_tostring, and %p
 * refused. The real format does the rest, on the converted arguments. */
static int det_format(lua_State *L) {
    size_t flen;
    /* (a string format is read as it is; anything else is checked, and a
     * number converted, as the library does) */
    const char *fmt = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &flen) : luaL_checklstring(L, 1, &flen);
    int top = lua_gettop(L);
    int arg = 1;
    /* What the charging shim charges (rlua_string_units), the format
     * string's length already at hand. */
    uint64_t bytes = flen;
    signed char seen[16]; /* the first arguments' types, for the scan below */
    for (int i = 2; i <= top; i++) {
        int t = lua_type(L, i);
        if (i < 16)
            seen[i] = (signed char)t;
        if (t == LUA_TSTRING)
            bytes += (uint64_t)lua_rawlen(L, i);
    }
    rlua_charge(L, 1 + bytes / RLUA_BYTES_PER_UNIT);
    const char *p = fmt, *end = fmt + flen;
    while ((p = memchr(p, '%', (size_t)(end - p))) != NULL) {
        if (++p >= end)
            break;
        if (*p == '%') {
            p++;
            continue;
        }
        arg++;
        while (p < end && is_format_modifier(*p))
            p++;
        if (p >= end)
            break;
        if (*p == 'p')
            return luaL_error(L, "string.format: '%%p' is not available in flows (addresses differ from run to run)");
        if (*p == 's' && arg <= top) {
            /* (a replaced argument is a string: seen[] stays right for the rest) */
            int t = arg < 16 ? seen[arg] : lua_type(L, arg);
            if (t != LUA_TSTRING && t != LUA_TNUMBER) {
                rlua_push_tostring(L, arg);
                lua_replace(L, arg);
            }
        }
        p++;
    }
    return atomic_load_explicit(&lua_format, memory_order_relaxed)(L);
}

static int no_collectgarbage(lua_State *L) {
    return luaL_error(L, "collectgarbage is not available in flows: the host manages memory, "
                         "and memory figures differ from run to run");
}

void rlua_determinism_install(lua_State *L, int template_idx, int string_lib_idx) {
    template_idx = lua_absindex(L, template_idx);
    string_lib_idx = lua_absindex(L, string_lib_idx);
    static const luaL_Reg fns[] = {
        { "pairs", det_pairs },
        { "next", det_next },
        { "tostring", det_tostring },
        { "collectgarbage", no_collectgarbage },
        { NULL, NULL },
    };
    for (const luaL_Reg *r = fns; r->name; r++) {
        lua_pushcfunction(L, r->func);
        lua_setfield(L, template_idx, r->name);
    }
    /* The library's format is the charging shim around Lua's own; this
     * one charges the same itself and calls Lua's directly. */
    lua_getfield(L, string_lib_idx, "format");
    if (lua_getupvalue(L, -1, 1) != NULL)
        lua_remove(L, -2);
    if (!rlua_is_plain_cfunction(L, -1))
        luaL_error(L, "string.format is not Lua's own");
    lua_CFunction format = lua_tocfunction(L, -1), none = NULL;
    if (!atomic_compare_exchange_strong(&lua_format, &none, format) && none != format)
        luaL_error(L, "string.format is not Lua's own");
    lua_pop(L, 1);
    lua_pushcfunction(L, det_format);
    lua_setfield(L, string_lib_idx, "format");
}

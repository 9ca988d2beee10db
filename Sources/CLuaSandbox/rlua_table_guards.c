/* The table library functions whose loops run in C: insert, remove, move,
 * concat, unpack and sort. Lua's own versions loop as many times as an
 * argument or a __len metamethod says, without running a single VM
 * instruction, so the count hook never sees them (table.move(t, 1, 2^40, 2)
 * spins for hours). These versions follow the Lua 5.4 manual's semantics
 * (metamethods included) and charge every element they touch to the
 * running call's budget, so the budget error stops them like any loop;
 * reading and writing elements goes through the charged index walk below,
 * so a deep __index chain is paid per link. table.sort is the stable merge
 * sort of rlua_sort.c. */
#include <limits.h>
#include "rlua_internal.h"

static void geti(lua_State *L, int t, lua_Integer i);
static void seti(lua_State *L, int t, lua_Integer i);

/* #t, through __len as Lua's table functions do. */
static lua_Integer length_of(lua_State *L, int t) {
    luaL_checktype(L, t, LUA_TTABLE);
    return luaL_len(L, t);
}

static int g_insert(lua_State *L) {
    lua_Integer e = length_of(L, 1);
    e = (lua_Integer)((lua_Unsigned)e + 1u); /* first empty slot */
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = e;
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        for (lua_Integer i = e; i > pos; i--) {
            rlua_charge(L, 1);
            geti(L, 1, i - 1);
            seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    seti(L, 1, pos);
    return 0;
}

static int g_remove(lua_State *L) {
    lua_Integer size = length_of(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (lua_gettop(L) >= 2 && pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    geti(L, 1, pos);
    for (; pos < size; pos++) {
        rlua_charge(L, 1);
        geti(L, 1, pos + 1);
        seti(L, 1, pos);
    }
    lua_pushnil(L);
    seti(L, 1, pos);
    return 1;
}

static int g_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, tt, LUA_TTABLE);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
            for (lua_Integer i = 0; i < n; i++) {
                rlua_charge(L, 1);
                geti(L, 1, f + i);
                seti(L, tt, t + i);
            }
        } else {
            for (lua_Integer i = n - 1; i >= 0; i--) {
                rlua_charge(L, 1);
                geti(L, 1, f + i);
                seti(L, tt, t + i);
            }
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

static int g_concat(lua_State *L) {
    luaL_Buffer b;
    lua_Integer last = length_of(L, 1);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_buffinit(L, &b);
    for (; i <= last; i++) {
        rlua_charge(L, 1);
        geti(L, 1, i);
        if (!lua_isstring(L, -1))
            return luaL_error(L, "invalid value (at index %I) in table for 'concat'", (lua_Integer)i);
        luaL_addvalue(&b);
        if (i != last)
            luaL_addlstring(&b, sep, lsep);
        if (i == LUA_MAXINTEGER)
            break;
    }
    luaL_pushresult(&b);
    return 1;
}

static int g_unpack(lua_State *L) {
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
    if (i > e)
        return 0;
    lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i;
    if (n >= (unsigned int)INT_MAX || !lua_checkstack(L, (int)(++n)))
        return luaL_error(L, "too many results to unpack");
    rlua_charge(L, (uint64_t)n);
    for (; i < e; i++)
        geti(L, 1, i);
    geti(L, 1, e);
    return (int)n;
}

/* A comparison for table.sort: the flow's function, or `<`. */
static int sort_less(lua_State *L, int a, int b, void *ud) {
    (void)ud;
    if (lua_isnil(L, 2))
        return lua_compare(L, a, b, LUA_OPLT);
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    int less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

static int g_sort(lua_State *L) {
    lua_Integer n = length_of(L, 1);
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    if (!lua_isnoneornil(L, 2))
        luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    if (n < 2)
        return 0;
    lua_createtable(L, (int)(n < (1 << 26) ? n : 0), 0);
    int work = lua_gettop(L);
    for (lua_Integer i = 1; i <= n; i++) {
        rlua_charge(L, 1);
        geti(L, 1, i);
        lua_rawseti(L, work, i);
    }
    rlua_merge_sort(L, work, n, sort_less, NULL);
    for (lua_Integer i = 1; i <= n; i++) {
        rlua_charge(L, 1);
        lua_rawgeti(L, work, i);
        seti(L, 1, i);
    }
    return 0;
}

void rlua_table_guards_install(lua_State *L, int lib) {
    static const luaL_Reg fns[] = {
        { "insert", g_insert }, { "remove", g_remove }, { "move", g_move },
        { "concat", g_concat }, { "unpack", g_unpack }, { "sort", g_sort },
        { NULL, NULL },
    };
    lib = lua_absindex(L, lib);
    for (const luaL_Reg *r = fns; r->name; r++) {
        lua_pushcfunction(L, r->func);
        lua_setfield(L, lib, r->name);
    }
}

/* ---- charged indexing ---- */

/* Lua walks an `__index` / `__newindex` chain of tables in C, up to 2,000
 * links per access. These versions follow the same rules (raw first; a
 * function handler is called; a table handler is indexed again) and charge
 * each link, so a loop in C over a deep chain costs what it walks. */

#define CHAIN_MAX 2000

void rlua_gettable_charged(lua_State *L, int t) {
    t = lua_absindex(L, t);
    luaL_checkstack(L, 4, "index");
    lua_pushvalue(L, t); /* [key, cur] */
    for (int hop = 0; hop < CHAIN_MAX; hop++) {
        if (lua_type(L, -1) == LUA_TTABLE) {
            lua_pushvalue(L, -2);
            if (lua_rawget(L, -2) != LUA_TNIL) { /* [key, cur, v] */
                lua_replace(L, -3);
                lua_pop(L, 1);
                return;
            }
            lua_pop(L, 1);
        }
        if (luaL_getmetafield(L, -1, "__index") == LUA_TNIL) {
            if (lua_type(L, -1) != LUA_TTABLE)
                luaL_error(L, "attempt to index a %s value", luaL_typename(L, -1));
            lua_pop(L, 2);
            lua_pushnil(L);
            return;
        }
        if (lua_type(L, -1) == LUA_TFUNCTION) { /* [key, cur, h] */
            lua_insert(L, -2);                   /* [key, h, cur] */
            lua_pushvalue(L, -3);                /* [key, h, cur, key] */
            lua_call(L, 2, 1);                   /* [key, v] */
            lua_remove(L, -2);
            return;
        }
        lua_remove(L, -2); /* [key, h]: index the handler next */
        rlua_charge(L, 1);
    }
    luaL_error(L, "'__index' chain too long; possibly a loop");
}

void rlua_settable_charged(lua_State *L, int t) {
    t = lua_absindex(L, t);
    luaL_checkstack(L, 5, "index");
    lua_pushvalue(L, t); /* [key, value, cur] */
    for (int hop = 0; hop < CHAIN_MAX; hop++) {
        if (lua_type(L, -1) == LUA_TTABLE) {
            lua_pushvalue(L, -3);
            int present = lua_rawget(L, -2) != LUA_TNIL;
            lua_pop(L, 1);
            if (present || luaL_getmetafield(L, -1, "__newindex") == LUA_TNIL) {
                if (rlua_is_protected(L, -1))
                    luaL_error(L, "attempt to modify a protected table");
                lua_insert(L, -3); /* [cur, key, value] */
                lua_rawset(L, -3);
                lua_pop(L, 1);
                return;
            }
        } else if (luaL_getmetafield(L, -1, "__newindex") == LUA_TNIL) {
            luaL_error(L, "attempt to index a %s value", luaL_typename(L, -1));
        }
        /* [key, value, cur, h] */
        if (lua_type(L, -1) == LUA_TFUNCTION) {
            lua_insert(L, -2);    /* [key, value, h, cur] */
            lua_pushvalue(L, -4); /* key */
            lua_pushvalue(L, -4); /* value */
            lua_call(L, 3, 0);
            lua_pop(L, 2);
            return;
        }
        lua_remove(L, -2); /* [key, value, h] */
        rlua_charge(L, 1);
    }
    luaL_error(L, "'__newindex' chain too long; possibly a loop");
}

/* t[i] and t[i] = v (value on top), charged. */
static void geti(lua_State *L, int t, lua_Integer i) {
    lua_pushinteger(L, i);
    rlua_gettable_charged(L, t);
}

static void seti(lua_State *L, int t, lua_Integer i) {
    t = lua_absindex(L, t);
    lua_pushinteger(L, i);
    lua_insert(L, -2);
    rlua_settable_charged(L, t);
}

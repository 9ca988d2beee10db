/* Sealed metatables: the only way a flow gives a table a metatable.
 *
 * `setmetatable(t, mt)` does not install `mt` itself. It installs a metatable
 * the host owns (its "seal"), holding a copy of mt's metamethods taken at the
 * call. The flow cannot reach the seal (getmetatable(t) answers mt, through
 * the seal's __metatable field), so it can never add a metamethod later.
 * That is what keeps flows away from the triggers of Lua 5.4.4's own bugs
 * (docs/sandbox.md, "Known bugs of the system Lua"):
 *
 *   __gc      finalizers (a looping one hangs lua_close);
 *   __mode    weak tables: the emergency collection the memory cap triggers
 *             frees a weak __newindex table in use by luaV_finishset (fixed
 *             upstream in 5.4.8), and their contents depend on GC timing;
 *   __close   to-be-closed variables: C recursion through nested
 *             coroutine.close (5.4.5), a stale stack after a __close grows
 *             it (5.4.5), the wrong message handler while closing (5.4.8),
 *             'break' closing the wrong level (5.4.5);
 *   __concat  a __concat that grows the stack leaves luaV_concat with a
 *             stale pointer (5.4.5).
 *
 * Each is refused at setmetatable with an error naming it. Because the seal
 * is a copy, a field added to mt after setmetatable has no effect until the
 * next setmetatable(_, mt); each call refreshes the one seal mt shares with
 * every table it was given to (the seals are cached by mt, weakly). */
#include <string.h>
#include "rlua_internal.h"

static char RLUA_KEY_SEAL_OF = 0;     /* seal[&RLUA_KEY_SEAL_OF] = the flow's mt */
static char RLUA_KEY_SEAL_CACHE = 0;  /* registry: mt -> seal, weak keys */

static const char *const copied_events[] = {
    "__index", "__newindex", "__call", "__tostring", "__name", "__len", "__pairs",
    "__eq", "__lt", "__le", "__unm", "__add", "__sub", "__mul", "__div", "__mod",
    "__pow", "__idiv", "__band", "__bor", "__bxor", "__shl", "__shr", "__bnot", NULL,
};

typedef struct refused_event {
    const char *name;
    const char *why;
} refused_event;

static const refused_event refused_events[] = {
    { "__gc", "'__gc' finalizers are not allowed in flows" },
    { "__mode", "weak tables ('__mode') are not allowed in flows: what they keep depends on garbage-collection timing" },
    { "__close", "'__close' (to-be-closed variables) is not allowed in flows" },
    { "__concat", "'__concat' is not allowed in flows: concatenate strings (tostring) instead" },
    { NULL, NULL },
};

void rlua_metatables_setup(lua_State *L) {
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2); /* the host's own table: the C API, not the wrapper */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_SEAL_CACHE);
}

/* 1 when the table at idx carries a metatable whose __metatable field the
 * flow may not replace: a host metatable, or a seal of a mt that had one. */
static int metatable_locked(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx))
        return 0;
    int locked;
    if (lua_rawgetp(L, -1, &RLUA_KEY_SEAL_OF) == LUA_TTABLE) {
        lua_pushliteral(L, "__metatable");
        locked = lua_rawget(L, -2) != LUA_TNIL;
        lua_pop(L, 1);
    } else {
        lua_pushliteral(L, "__metatable");
        locked = lua_rawget(L, -3) != LUA_TNIL;
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    return locked;
}

/* Pushes mt's seal, created or refreshed from mt's current fields. */
static void push_seal(lua_State *L, int mt) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_SEAL_CACHE);
    lua_pushvalue(L, mt);
    if (lua_rawget(L, -2) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 8);
        lua_pushvalue(L, mt);
        lua_rawsetp(L, -2, &RLUA_KEY_SEAL_OF);
        lua_pushvalue(L, mt);
        lua_pushvalue(L, -2);
        lua_rawset(L, -4); /* cache[mt] = seal */
    }
    lua_remove(L, -2); /* the cache */
    int seal = lua_gettop(L);
    for (const char *const *e = copied_events; *e; e++) {
        lua_pushstring(L, *e);
        lua_pushvalue(L, -1);
        lua_rawget(L, mt);
        lua_rawset(L, seal);
    }
    lua_pushliteral(L, "__metatable");
    if (lua_rawget(L, mt) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushvalue(L, mt); /* getmetatable(t) answers the flow's own table */
    }
    lua_setfield(L, seal, "__metatable");
}

int rlua_setmetatable(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    int t = lua_type(L, 2);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE && lua_rawgetp(L, 2, &RLUA_KEY_PROTECTED) != LUA_TNIL)
        return luaL_error(L, "setmetatable: this metatable belongs to the host");
    lua_settop(L, 2);
    if (metatable_locked(L, 1))
        return luaL_error(L, "cannot change a protected metatable");
    if (t == LUA_TNIL) {
        lua_setmetatable(L, 1);
        return 1;
    }
    for (const refused_event *r = refused_events; r->name; r++) {
        lua_pushstring(L, r->name);
        if (lua_rawget(L, 2) != LUA_TNIL) /* raw, as Lua itself reads it */
            return luaL_error(L, "setmetatable: %s", r->why);
        lua_pop(L, 1);
    }
    push_seal(L, 2);
    lua_setmetatable(L, 1);
    lua_settop(L, 1);
    return 1;
}

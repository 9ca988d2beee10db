/* The base library as flows see it: an allow-list of the harmless base
 * functions plus wrapped versions of the dangerous ones. Removed entirely:
 * dofile, loadfile, warn, and the real collectgarbage. */
#include <string.h>
#include "rlua_internal.h"

/* load(text [, name [, mode [, env]]]): text only, into the caller's own
 * environment. Returns nil plus a message on failure, as Lua's load does. */
int rlua_load_in_env(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "load: flows may only load source text (a string)");
    size_t len;
    const char *src = lua_tolstring(L, 1, &len);
    const char *mode = luaL_optstring(L, 3, "t");
    if (strcmp(mode, "t") != 0)
        return luaL_error(L, "load: binary chunks are not allowed (mode must be \"t\")");
    if (!lua_isnoneornil(L, 4))
        return luaL_error(L, "load: a custom environment is not allowed in flows");
    const char *name = luaL_optstring(L, 2, "(load)");
    lua_pushfstring(L, "=%s", name);
    int status = luaL_loadbufferx(L, src, len, lua_tostring(L, -1), "t");
    if (status != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_setupvalue(L, -2, 1);
    return 1;
}

static int sb_setmetatable(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    int t = lua_type(L, 2);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE && lua_rawgetp(L, 2, &RLUA_KEY_PROTECTED) != LUA_TNIL)
        return luaL_error(L, "setmetatable: this metatable belongs to the host");
    if (t == LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) /* raw, as Lua itself reads it */
            return luaL_error(L, "setmetatable: '__gc' finalizers are not allowed in flows");
        lua_pop(L, 1);
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static int sb_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    if (rlua_is_protected(L, 1))
        return luaL_error(L, "rawset: this table is protected (environments and host tables cannot be changed)");
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

static int sb_require(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_MODULES);
    if (lua_getfield(L, -1, name) != LUA_TNIL)
        return 1;
    return luaL_error(L, "module '%s' not found: flows can only require modules the host provides", name);
}

static int sb_print(lua_State *L) {
    rlua_control *c = rlua_ctl(L);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        luaL_tolstring(L, i, NULL);
        if (i > 1)
            luaL_addchar(&b, '\t');
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    if (c->print) {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        c->print(c->host_ctx, s, len);
    }
    return 0;
}

static int sb_collectgarbage(lua_State *L) {
    const char *opt = luaL_optstring(L, 1, "count");
    if (strcmp(opt, "count") != 0)
        return luaL_error(L, "collectgarbage: only \"count\" is available in flows");
    int kb = lua_gc(L, LUA_GCCOUNT, 0), b = lua_gc(L, LUA_GCCOUNTB, 0);
    lua_pushnumber(L, (lua_Number)kb + (lua_Number)b / 1024.0);
    return 1;
}

/* Harmless base functions, copied from Lua's own base library. */
static const char *const allowed[] = {
    "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal",
    "rawget", "rawlen", "select", "tonumber", "tostring", "type", "xpcall", "_VERSION", NULL,
};

void rlua_builtins_install(lua_State *L, int template_idx) {
    template_idx = lua_absindex(L, template_idx);
    for (const char *const *name = allowed; *name; name++) {
        lua_getglobal(L, *name);
        lua_setfield(L, template_idx, *name);
    }
    static const luaL_Reg wrapped[] = {
        { "setmetatable", sb_setmetatable },
        { "rawset", sb_rawset },
        { "require", sb_require },
        { "print", sb_print },
        { "collectgarbage", sb_collectgarbage },
        { NULL, NULL },
    };
    for (const luaL_Reg *r = wrapped; r->name; r++) {
        lua_pushcfunction(L, r->func);
        lua_setfield(L, template_idx, r->name);
    }
}

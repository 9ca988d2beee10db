/* The base library as flows see it: an allow-list of the harmless base
 * functions plus wrapped versions of the dangerous ones. Removed entirely:
 * dofile, loadfile, warn and collectgarbage. setmetatable is the sealing one
 * of rlua_metatables.c; pairs, next and tostring come from
 * rlua_determinism.c. */
#include <string.h>
#include "rlua_internal.h"

/* load(text [, name [, mode [, env]]]): text only, into the caller's own
 * environment. Returns nil plus a message on failure, as Lua's load does.
 * The chunk is named after the flow file whose environment it runs in
 * ("flows/x.lua(load name)"): loaded text can never pass itself off as
 * another file in an error. Upvalues: the environment, the owner's name. */
int rlua_load_in_env(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "load: flows may only load source text (a string)");
    size_t len;
    const char *src = lua_tolstring(L, 1, &len);
    /* The lexer and parser run in C: charged by the byte. */
    rlua_charge(L, 1 + (uint64_t)len);
    const char *mode = luaL_optstring(L, 3, "t");
    if (strcmp(mode, "t") != 0)
        return luaL_error(L, "load: binary chunks are not allowed (mode must be \"t\")");
    if (!lua_isnoneornil(L, 4))
        return luaL_error(L, "load: a custom environment is not allowed in flows");
    size_t given_len;
    const char *given = luaL_optlstring(L, 2, "", &given_len);
    char name[48];
    size_t k = 0;
    for (size_t i = 0; i < given_len && k + 1 < sizeof name; i++) {
        unsigned char ch = (unsigned char)given[i];
        int plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '_' || ch == '-' || ch == '.';
        name[k++] = plain ? (char)ch : '_';
    }
    name[k] = '\0';
    lua_pushfstring(L, "=%s(load%s%s)", lua_tostring(L, lua_upvalueindex(2)), k ? " " : "", name);
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

/* Lua's rawget, but an environment's library is copied before it is read
 * (rlua_env.c): raw reads see environments as they always were. */
static int sb_rawget(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    rlua_env_prepare_key(L, 1, 2);
    lua_rawget(L, 1);
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
    /* A buffer operation expects the buffer's box on top of the stack, or
     * the one value luaL_addvalue adds: the separator goes in before the
     * next value is pushed (added with that value on top, a buffer past
     * its first 1 KB took the value for its box: a use after free). */
    for (int i = 1; i <= n; i++) {
        if (i > 1)
            luaL_addchar(&b, '\t');
        rlua_push_tostring(L, i);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    if (c->print) {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (len > RLUA_PRINT_MAX) { /* cut at a character boundary */
            len = RLUA_PRINT_MAX;
            while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
                len--;
        }
        c->print(c->host_ctx, s, len);
    }
    return 0;
}

/* Harmless base functions, copied from Lua's own base library. */
static const char *const allowed[] = {
    "assert", "error", "getmetatable", "ipairs", "pcall", "rawequal",
    "rawlen", "select", "tonumber", "type", "xpcall", "_VERSION", NULL,
};

void rlua_builtins_install(lua_State *L, int template_idx) {
    template_idx = lua_absindex(L, template_idx);
    for (const char *const *name = allowed; *name; name++) {
        lua_getglobal(L, *name);
        lua_setfield(L, template_idx, *name);
    }
    static const luaL_Reg wrapped[] = {
        { "setmetatable", rlua_setmetatable },
        { "rawset", sb_rawset },
        { "rawget", sb_rawget },
        { "require", sb_require },
        { "print", sb_print },
        { NULL, NULL },
    };
    for (const luaL_Reg *r = wrapped; r->name; r++) {
        lua_pushcfunction(L, r->func);
        lua_setfield(L, template_idx, r->name);
    }
    /* tonumber parses its whole argument in C: charged like the string functions. */
    lua_createtable(L, 0, 1);
    lua_getfield(L, template_idx, "tonumber");
    lua_setfield(L, -2, "tonumber");
    rlua_charge_library(L, -1);
    lua_getfield(L, -1, "tonumber");
    lua_setfield(L, template_idx, "tonumber");
    lua_pop(L, 1);
}

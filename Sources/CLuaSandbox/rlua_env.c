/* The allow-listed environment each chunk gets, and read-only proxies.
 *
 * Every chunk runs with its own _ENV: the template's values plus fresh copies
 * of the library tables (so `string.format = evil` stays in that chunk). The
 * environment's metatable is locked (`__metatable = false`), reading an
 * unknown name raises "unknown global 'x'", and assigning a new name is only
 * allowed from a main chunk (strict.lua's rule: top-level declarations are
 * fine, a typo inside a function is an error). */
#include <string.h>
#include "rlua_internal.h"

static const char *key_name(lua_State *L, int idx) {
    return lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : "?";
}

static int env_index(lua_State *L) {
    return luaL_error(L, "unknown global '%s'", key_name(L, 2));
}

static int env_newindex(lua_State *L) {
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "S", &ar) && strcmp(ar.what, "main") == 0) {
        lua_rawset(L, 1);
        return 0;
    }
    return luaL_error(L, "assignment to undeclared global '%s' (use 'local', or declare it at the top of the file)",
                      key_name(L, 2));
}

static int readonly_newindex(lua_State *L) {
    return luaL_error(L, "attempt to modify read-only table '%s' (field '%s')",
                      lua_tostring(L, lua_upvalueindex(1)), key_name(L, 2));
}

/* Iterates the table behind the proxy in the fixed key order. The table
 * itself is never handed out (it stays an upvalue of the iterator), so pairs
 * cannot be used to reach the writable table. */
static int readonly_pairs(lua_State *L) {
    rlua_push_ordered_iterator(L, lua_upvalueindex(1));
    lua_pushnil(L);
    lua_pushnil(L);
    return 3;
}

static int readonly_len(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

int rlua_is_protected(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx))
        return 0;
    int marked = lua_rawgetp(L, -1, &RLUA_KEY_PROTECTED) != LUA_TNIL;
    lua_pop(L, 2);
    return marked;
}

void rlua_env_setup(lua_State *L) {
    lua_createtable(L, 0, 4);
    lua_pushcfunction(L, env_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, env_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &RLUA_KEY_PROTECTED);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_ENV_MT);
}

/* Pushes a copy of the table at src, sized for its entries up front (a
 * library has 6 to 31 of them: growing as they arrive would rehash). */
static void copy_table(lua_State *L, int src) {
    src = lua_absindex(L, src);
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, src)) {
        lua_pop(L, 1);
        n++;
    }
    lua_createtable(L, 0, n);
    lua_pushnil(L);
    while (lua_next(L, src)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
}

void rlua_env_push_new(lua_State *L, const char *owner) {
    luaL_checkstack(L, 8, "environment");
    lua_createtable(L, 0, 48);
    int env = lua_gettop(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_TEMPLATE);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, env);
    }
    lua_pop(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_LIBS);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        copy_table(L, -1);
        lua_remove(L, -2);
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, env);
    }
    lua_pop(L, 1);
    /* load() compiles into this chunk's own environment. */
    lua_pushvalue(L, env);
    lua_pushstring(L, owner);
    lua_pushcclosure(L, rlua_load_in_env, 2);
    lua_setfield(L, env, "load");
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_ENV_MT);
    lua_setmetatable(L, env);
}

void rlua_readonly_wrap(lua_State *L, int idx, const char *name, int depth) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE)
        return;
    luaL_checkstack(L, 8, "read-only table");
    if (depth > 32)
        luaL_error(L, "read-only table '%s' nested too deeply", name);
    /* Nested tables first, in place (the table is the host's own copy). */
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -1) == LUA_TTABLE) {
            rlua_readonly_wrap(L, -1, name, depth + 1);
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, idx);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_newtable(L); /* the proxy */
    lua_createtable(L, 0, 6);
    lua_pushvalue(L, idx);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_pushcclosure(L, readonly_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, idx);
    lua_pushcclosure(L, readonly_pairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushvalue(L, idx);
    lua_pushcclosure(L, readonly_len, 1);
    lua_setfield(L, -2, "__len");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &RLUA_KEY_PROTECTED);
    lua_setmetatable(L, -2);
    lua_replace(L, idx);
}

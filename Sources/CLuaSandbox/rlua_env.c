/* The allow-listed environment each chunk gets, and read-only proxies.
 *
 * Every chunk runs with its own _ENV: the template's values plus fresh copies
 * of the library tables (so `string.format = evil` stays in that chunk). The
 * environment's metatable is locked (`__metatable = false`), reading an
 * unknown name raises "unknown global 'x'", and assigning a new name is only
 * allowed from a main chunk (strict.lua's rule: top-level declarations are
 * fine, a typo inside a function is an error).
 *
 * A library's copy is made when the chunk first reaches for it, not when the
 * environment is made (most chunks use one or two of the five libraries;
 * copying all of them was most of the cost, and of the memory, of loading a
 * chunk). Until then the environment's own metatable records the library as
 * pending, and every way of seeing the environment's contents makes the
 * copy first, so that no flow can tell the difference:
 *   - reading the global (the VM, an __index chain, the C walks) reaches
 *     env_index, which makes the copy and returns it;
 *   - assigning it (from any function, as for a key that exists) reaches
 *     env_newindex, which sets it and drops the pending copy;
 *   - rawget, pairs and next, and the codec handing the environment to the
 *     host, make the copies before they look (rlua_env_prepare_key,
 *     rlua_env_prepare_all).
 * rawset is refused on environments, and no other function reads a table's
 * string keys raw. */
#include <string.h>
#include "rlua_internal.h"

/* Registry key of the copy sources (name -> library), and the environment
 * metatable's key for the bit set of libraries not copied yet. */
static char RLUA_KEY_ENV_PENDING = 0;
static const char *const lib_names[] = {
    LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME, LUA_COLIBNAME,
};
#define LIB_COUNT ((int)(sizeof lib_names / sizeof lib_names[0]))
#define ALL_PENDING ((1 << LIB_COUNT) - 1)

static const char *key_name(lua_State *L, int idx) {
    return lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : "?";
}

/* The pending bits of the table at idx: -1 when it is not an environment. */
static lua_Integer env_pending(lua_State *L, int idx) {
    if (!lua_getmetatable(L, idx))
        return -1;
    lua_Integer bits = lua_rawgetp(L, -1, &RLUA_KEY_ENV_PENDING) == LUA_TNUMBER ? lua_tointeger(L, -1) : -1;
    lua_pop(L, 2);
    return bits;
}

static void env_set_pending(lua_State *L, int env, lua_Integer bits) {
    lua_getmetatable(L, env);
    lua_pushinteger(L, bits);
    lua_rawsetp(L, -2, &RLUA_KEY_ENV_PENDING);
    lua_pop(L, 1);
}

/* Which library the key at idx names: its number, or -1. */
static int lib_of_key(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TSTRING)
        return -1;
    size_t len;
    const char *k = lua_tolstring(L, idx, &len);
    for (int i = 0; i < LIB_COUNT; i++)
        if (strlen(lib_names[i]) == len && memcmp(lib_names[i], k, len) == 0)
            return i;
    return -1;
}

/* Sets every entry of the table at src into the table at dst, in one walk;
 * returns how many. */
static int copy_into(lua_State *L, int dst, int src) {
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, src)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, dst);
        n++;
    }
    return n;
}

/* Sizes for the copies, so that they are made at their final size instead
 * of growing (and rehashing) as entries arrive. Only hints: a wrong one
 * costs a rehash or a few empty slots, never a different table. Every state
 * opens the same libraries, so the sizes the last copy found serve the next
 * one, in any state. */
static _Atomic int template_size_hint, lib_size_hint[LIB_COUNT];

/* Copies library i into the environment at env (pending bits `bits`),
 * charged one unit per entry. The bit is cleared only once the copy is in
 * place: a memory error on the way leaves the library pending. */
static void materialize(lua_State *L, int env, int i, lua_Integer bits) {
    luaL_checkstack(L, 6, "environment");
    rlua_charge(L, 1 + (uint64_t)atomic_load_explicit(&lib_size_hint[i], memory_order_relaxed));
    lua_pushstring(L, lib_names[i]);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_LIBS);
    lua_pushvalue(L, -2);
    lua_rawget(L, -2);
    int src = lua_gettop(L);
    lua_createtable(L, 0, atomic_load_explicit(&lib_size_hint[i], memory_order_relaxed));
    atomic_store_explicit(&lib_size_hint[i], copy_into(L, src + 1, src), memory_order_relaxed);
    lua_replace(L, src - 1); /* [name, copy, src] */
    lua_pop(L, 1);
    lua_rawset(L, env);
    env_set_pending(L, env, bits & ~((lua_Integer)1 << i));
}

void rlua_env_prepare_key(lua_State *L, int t, int key) {
    t = lua_absindex(L, t);
    int i = lib_of_key(L, key);
    if (i < 0)
        return;
    lua_Integer bits = env_pending(L, t);
    if (bits > 0 && (bits & ((lua_Integer)1 << i)))
        materialize(L, t, i, bits);
}

void rlua_env_prepare_all(lua_State *L, int t) {
    t = lua_absindex(L, t);
    lua_Integer bits = env_pending(L, t);
    for (int i = 0; bits > 0 && i < LIB_COUNT; i++) {
        if (bits & ((lua_Integer)1 << i)) {
            materialize(L, t, i, bits);
            bits &= ~((lua_Integer)1 << i);
        }
    }
}

static int env_index(lua_State *L) {
    int i = lib_of_key(L, 2);
    if (i >= 0) {
        lua_Integer bits = env_pending(L, 1);
        if (bits > 0 && (bits & ((lua_Integer)1 << i))) {
            materialize(L, 1, i, bits);
            lua_settop(L, 2);
            lua_rawget(L, 1);
            return 1;
        }
    }
    return luaL_error(L, "unknown global '%s'", key_name(L, 2));
}

static int env_newindex(lua_State *L) {
    int i = lib_of_key(L, 2);
    if (i >= 0) {
        /* A library not copied yet is a key that exists: set from anywhere. */
        lua_Integer bits = env_pending(L, 1);
        if (bits > 0 && (bits & ((lua_Integer)1 << i))) {
            lua_settop(L, 3);
            lua_rawset(L, 1);
            env_set_pending(L, 1, bits & ~((lua_Integer)1 << i));
            return 0;
        }
    }
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

void rlua_env_push_new(lua_State *L, const char *owner) {
    luaL_checkstack(L, 8, "environment");
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_TEMPLATE);
    int template = lua_gettop(L);
    /* The template, load, two libraries and a few of the chunk's own
     * top-level declarations before the table has to grow. */
    lua_createtable(L, 0, atomic_load_explicit(&template_size_hint, memory_order_relaxed) + 8);
    int env = lua_gettop(L);
    atomic_store_explicit(&template_size_hint, copy_into(L, env, template), memory_order_relaxed);
    /* load() compiles into this chunk's own environment. */
    lua_pushvalue(L, env);
    lua_pushstring(L, owner);
    lua_pushcclosure(L, rlua_load_in_env, 2);
    lua_setfield(L, env, "load");
    /* Its own metatable: it holds which libraries are still to be copied. */
    lua_createtable(L, 0, 5);
    lua_pushcfunction(L, env_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, env_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &RLUA_KEY_PROTECTED);
    lua_pushinteger(L, ALL_PENDING);
    lua_rawsetp(L, -2, &RLUA_KEY_ENV_PENDING);
    lua_setmetatable(L, env);
    lua_replace(L, template);
    lua_settop(L, template);
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

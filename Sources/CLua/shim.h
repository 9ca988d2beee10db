/* CLua: Debian's liblua5.4 headers, plus inline functions for the parts of
 * the Lua C API that are macros (Swift cannot import function-like macros). */
#ifndef CLUA_SHIM_H
#define CLUA_SHIM_H
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline const char *clua_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline int clua_isnil(lua_State *L, int i) { return lua_isnil(L, i); }
static inline int clua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int clua_gccount_bytes(lua_State *L) {
    return lua_gc(L, LUA_GCCOUNT, 0) * 1024 + lua_gc(L, LUA_GCCOUNTB, 0);
}
#endif

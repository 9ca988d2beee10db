/* Guards on string functions whose cost the count hook cannot see because
 * it is spent inside C: string.rep, and Lua's backtracking pattern matcher
 * (find, match, gmatch, gsub).
 *
 * string.rep: a result larger than the state's memory cap is refused up
 * front as a memory-limit error (Lua alone would either try to allocate it
 * or, past 2 GiB, call it "resulting string too large").
 *
 * The matcher is C: the count hook cannot interrupt it, and a pattern such
 * as "a-a-a-a-b" over 200 characters runs for tens of seconds. Before calling
 * the real function, the guard estimates the worst case: every `*`, `+` or
 * `-` item can try each position of the subject again, a `?` doubles the
 * work, and an unanchored pattern restarts at each position. A subject over
 * limits.pattern_subject_max bytes, or an estimate over
 * limits.pattern_cost_max, is refused with an error naming both.
 * Plain finds (4th argument true) and patterns without quantifiers are
 * linear and never refused. */
#include <string.h>
#include "rlua_internal.h"

static size_t skip_set(const char *p, size_t len, size_t i) {
    /* p[i] == '[' */
    i++;
    if (i < len && p[i] == '^')
        i++;
    do {
        if (i >= len)
            return len;
        if (p[i] == '%')
            i++;
        i++;
    } while (i < len && p[i] != ']');
    return i + 1;
}

static double pattern_cost(const char *p, size_t len, size_t n, int can_anchor, int *quantifiers) {
    double N = (double)n + 1.0, cost = 1.0;
    size_t i = 0;
    int anchored = 0;
    *quantifiers = 0;
    if (can_anchor && len > 0 && p[0] == '^') {
        anchored = 1;
        i = 1;
    }
    while (i < len) {
        size_t end;
        char ch = p[i];
        if (ch == '(' || ch == ')') {
            i++;
            continue;
        }
        if (ch == '%') {
            if (i + 1 >= len)
                break;
            if (p[i + 1] == 'b') { /* balanced match: scans the subject */
                cost *= N;
                i += 4;
                continue;
            }
            if (p[i + 1] == 'f') {
                i = (i + 2 < len && p[i + 2] == '[') ? skip_set(p, len, i + 2) : i + 2;
                continue;
            }
            end = i + 2;
        } else if (ch == '[') {
            end = skip_set(p, len, i);
        } else {
            end = i + 1;
        }
        if (end < len) {
            char q = p[end];
            if (q == '*' || q == '+' || q == '-') {
                cost *= N;
                (*quantifiers)++;
                end++;
            } else if (q == '?') {
                cost *= 2.0;
                (*quantifiers)++;
                end++;
            }
        }
        i = end;
    }
    if (!anchored)
        cost *= N;
    return cost;
}

static int guarded(lua_State *L) {
    rlua_control *c = rlua_ctl(L);
    const char *fname = lua_tostring(L, lua_upvalueindex(2));
    int kind = (int)lua_tointeger(L, lua_upvalueindex(3)); /* 0 find, 1 match, 2 gmatch, 3 gsub */
    size_t n, plen;
    luaL_checklstring(L, 1, &n);
    const char *pat = luaL_checklstring(L, 2, &plen);
    int plain = kind == 0 && lua_toboolean(L, 4);
    if (!plain) {
        int quantifiers;
        double cost = pattern_cost(pat, plen, n, kind != 2, &quantifiers);
        if (quantifiers > 0 && n > c->limits.pattern_subject_max)
            return luaL_error(L, "string.%s: subject of %d bytes is too long for a pattern with quantifiers (limit %d)",
                              fname, (int)n, (int)c->limits.pattern_subject_max);
        if (cost > c->limits.pattern_cost_max)
            return luaL_error(L, "string.%s: pattern '%s' is too costly on a subject of %d bytes "
                                 "(fewer '-', '*', '+' items or a shorter text)",
                              fname, pat, (int)n);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int guarded_rep(lua_State *L) {
    rlua_control *c = rlua_ctl(L);
    size_t len, seplen = 0;
    luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    if (!lua_isnoneornil(L, 3))
        luaL_checklstring(L, 3, &seplen);
    if (n > 0 && (double)len * (double)n + (double)seplen * (double)(n - 1) > (double)c->limits.memory_bytes) {
        c->mem_refused = 1;
        rlua_error_set(&c->limit_error, "not enough memory");
        rlua_error_from_thread_frames(L, 0, &c->limit_error);
        lua_pushliteral(L, "not enough memory"); /* this exact text makes lua_error raise LUA_ERRMEM */
        return lua_error(L);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

void rlua_string_guards_install(lua_State *L, int lib) {
    static const char *const names[] = { "find", "match", "gmatch", "gsub", NULL };
    lib = lua_absindex(L, lib);
    lua_getfield(L, lib, "rep");
    lua_pushcclosure(L, guarded_rep, 1);
    lua_setfield(L, lib, "rep");
    for (int k = 0; names[k]; k++) {
        lua_getfield(L, lib, names[k]);
        lua_pushstring(L, names[k]);
        lua_pushinteger(L, k);
        lua_pushcclosure(L, guarded, 3);
        lua_setfield(L, lib, names[k]);
    }
}

/* Guards on the string and utf8 functions, whose work happens in C where the
 * count hook cannot see it.
 *
 * Charging: every function of the string and utf8 libraries (and tonumber)
 * is called through a shim that charges 1 + (bytes of string arguments) / 64
 * units to the running call's budget, so many cheap calls between two hook
 * checks add up; what they allocate is charged by the allocator.
 *
 * string.rep: a result larger than the memory cap is refused up front as a
 * memory-limit error, and an empty result is returned without looping (Lua
 * loops n times even when there is nothing to copy).
 *
 * Literal search: string.find with `plain`, or with a pattern without
 * special characters, runs a Knuth-Morris-Pratt search here (linear in the
 * subject and the needle; Lua's own is O(n·m)).
 *
 * Patterns: Lua's matcher backtracks in C. Before calling it, the guard
 * estimates the worst case: each `*`, `+` or `-` item can retry every
 * position of the subject, a `?` doubles the work, each item costs what it
 * compares (1 for a character or class, the length of a [set], the subject
 * for a back-reference %1-%9 or a %b), and an unanchored pattern restarts at
 * every position. A subject over limits.pattern_subject_max bytes with a
 * quantifier, or an estimate over limits.pattern_cost_max, is refused with
 * an error naming both. After each match the clock is read, so a series of
 * costly-but-allowed matches still stops at the deadline. gsub's replacement
 * work is bounded too (guard_replacement). */
#include <stdio.h>
#include <string.h>
#include "rlua_internal.h"

/* ---- charging shim ---- */

static uint64_t string_bytes(lua_State *L) {
    uint64_t bytes = 0;
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        if (lua_type(L, i) == LUA_TSTRING)
            bytes += (uint64_t)lua_rawlen(L, i);
    }
    return bytes;
}

static int charged(lua_State *L) {
    rlua_charge(L, rlua_string_units(L));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* The same for a library function without upvalues (all of string, table
 * and utf8, and tonumber): called directly, in this shim's own frame, so
 * that a call costs one C frame, not two. Its arguments are already where
 * it expects them; errors name the function as the flow called it. */
static int charged_direct(lua_State *L) {
    rlua_charge(L, rlua_string_units(L));
    lua_CFunction f = lua_tocfunction(L, lua_upvalueindex(1));
    return f(L);
}

/* 1 when the value at idx is a C function that has no upvalues. */
int rlua_is_plain_cfunction(lua_State *L, int idx) {
    if (lua_tocfunction(L, idx) == NULL)
        return 0;
    if (lua_getupvalue(L, idx, 1) != NULL) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

uint64_t rlua_string_units(lua_State *L) { return 1 + string_bytes(L) / RLUA_BYTES_PER_UNIT; }

/* Wraps every function of the table at lib (in place) with the shim. */
void rlua_charge_library(lua_State *L, int lib) {
    lib = lua_absindex(L, lib);
    lua_pushnil(L);
    while (lua_next(L, lib)) {
        if (lua_type(L, -1) == LUA_TFUNCTION) {
            int plain = rlua_is_plain_cfunction(L, -1);
            lua_pushcclosure(L, plain ? charged_direct : charged, 1);
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, lib);
        } else {
            lua_pop(L, 1);
        }
    }
}

/* ---- pattern cost ---- */

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
    double N = (double)n + 1.0, branching = 1.0, work = 0.0;
    size_t i = 0;
    int anchored = 0;
    *quantifiers = 0;
    if (can_anchor && len > 0 && p[0] == '^') {
        anchored = 1;
        i = 1;
    }
    while (i < len) {
        size_t end;
        double weight = 1.0;
        char ch = p[i];
        if (ch == '(' || ch == ')') {
            i++;
            continue;
        }
        if (ch == '%') {
            if (i + 1 >= len)
                break;
            char k = p[i + 1];
            if (k == 'b') { /* balanced match: scans the subject */
                work += N;
                i += 4;
                continue;
            }
            if (k == 'f') {
                size_t start = i + 2;
                i = (start < len && p[start] == '[') ? skip_set(p, len, start) : start;
                work += (double)(i - start);
                continue;
            }
            if (k >= '1' && k <= '9')
                weight = N; /* a back-reference compares a whole capture */
            end = i + 2;
        } else if (ch == '[') {
            end = skip_set(p, len, i);
            weight = (double)(end - i);
        } else {
            end = i + 1;
        }
        if (end < len) {
            char q = p[end];
            if (q == '*' || q == '+' || q == '-') {
                branching *= N;
                (*quantifiers)++;
                end++;
            } else if (q == '?') {
                branching *= 2.0;
                (*quantifiers)++;
                end++;
            }
        }
        work += weight;
        i = end;
    }
    double cost = branching * (work > 1.0 ? work : 1.0);
    if (!anchored)
        cost *= N;
    return cost;
}

static int has_specials(const char *p, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (strchr("^$*+?.([%-", p[i]) != NULL && p[i] != '\0')
            return 1;
    }
    return 0;
}

/* ---- linear literal search ---- */

/* Start of the first occurrence of needle in hay, or -1. */
static ptrdiff_t kmp_find(lua_State *L, const char *hay, size_t n, const char *needle, size_t m) {
    if (m == 0)
        return 0;
    if (m > n)
        return -1;
    if (m > UINT32_MAX)
        luaL_error(L, "string.find: needle too long");
    /* The failure table lives in a userdata: the memory cap counts it. */
    uint32_t *fail = lua_newuserdatauv(L, m * sizeof *fail, 0);
    fail[0] = 0;
    for (uint32_t i = 1, k = 0; i < m; i++) {
        while (k > 0 && needle[i] != needle[k])
            k = fail[k - 1];
        if (needle[i] == needle[k])
            k++;
        fail[i] = k;
    }
    ptrdiff_t found = -1;
    for (size_t i = 0, k = 0; i < n; i++) {
        while (k > 0 && hay[i] != needle[k])
            k = fail[k - 1];
        if (hay[i] == needle[k])
            k++;
        if (k == m) {
            found = (ptrdiff_t)(i + 1 - m);
            break;
        }
    }
    lua_pop(L, 1);
    return found;
}

/* string.find(s, literal [, init [, plain]]) done here, as Lua's str_find_aux
 * does for literals: same results, linear time. */
static int find_literal(lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    lua_Integer init = luaL_optinteger(L, 3, 1);
    if (init > 0) {
        /* as given */
    } else if (init == 0) {
        init = 1;
    } else if (init < -(lua_Integer)ls) {
        init = 1;
    } else {
        init = (lua_Integer)ls + init + 1;
    }
    if (init > (lua_Integer)ls + 1) {
        luaL_pushfail(L);
        return 1;
    }
    rlua_charge(L, 1 + (ls + lp) / RLUA_BYTES_PER_UNIT);
    ptrdiff_t at = kmp_find(L, s + init - 1, ls - (size_t)(init - 1), p, lp);
    if (at < 0) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushinteger(L, init + (lua_Integer)at);
    lua_pushinteger(L, init + (lua_Integer)at + (lua_Integer)lp - 1);
    return 2;
}

/* ---- the guarded pattern functions ---- */

enum { K_FIND = 0, K_MATCH, K_GMATCH, K_GSUB };

/* Runs an iterator made by the real gmatch, reading the clock after each step. */
static int gmatch_step(lua_State *L) {
    lua_settop(L, 0);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, LUA_MULTRET);
    rlua_charge_timed(L, 1);
    return lua_gettop(L);
}

/* A table replacement looked up through the charged index walk. */
static int replacement_lookup(lua_State *L) {
    lua_settop(L, 1);
    rlua_gettable_charged(L, lua_upvalueindex(1));
    return 1;
}

/* gsub's work per match that the pattern estimate does not see: a string
 * replacement is scanned at every match (at most one match per position of
 * the subject, or the 4th argument), and a table replacement is indexed,
 * walking its __index chain in C. The first is bounded with the pattern
 * cost limit; the second goes through the charged walk. */
static void guard_replacement(lua_State *L, rlua_control *c, size_t n, const char *fname) {
    double matches = (double)n + 1.0;
    if (lua_isinteger(L, 4) && (double)lua_tointeger(L, 4) < matches)
        matches = lua_tointeger(L, 4) > 0 ? (double)lua_tointeger(L, 4) : 0.0;
    if (lua_type(L, 3) == LUA_TSTRING) {
        double work = matches * (double)(lua_rawlen(L, 3) + 1);
        if (work > c->limits.pattern_cost_max)
            luaL_error(L, "string.%s: a replacement of %d bytes at up to %d matches is too costly "
                          "(a shorter replacement, a shorter text, or a function)",
                       fname, (int)lua_rawlen(L, 3), (int)matches);
    } else if (lua_type(L, 3) == LUA_TTABLE && lua_getmetatable(L, 3)) {
        lua_pop(L, 1);
        lua_pushvalue(L, 3);
        lua_pushcclosure(L, replacement_lookup, 1);
        lua_replace(L, 3);
    }
}

static int guarded(lua_State *L) {
    rlua_control *c = rlua_ctl(L);
    const char *fname = lua_tostring(L, lua_upvalueindex(2));
    int kind = (int)lua_tointeger(L, lua_upvalueindex(3));
    size_t n, plen;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *pat = luaL_checklstring(L, 2, &plen);
    if (kind == K_FIND && (lua_toboolean(L, 4) || !has_specials(pat, plen)))
        return find_literal(L, s, n, pat, plen);
    int quantifiers;
    double cost = pattern_cost(pat, plen, n, kind != K_GMATCH, &quantifiers);
    if (quantifiers > 0 && n > c->limits.pattern_subject_max)
        return luaL_error(L, "string.%s: subject of %d bytes is too long for a pattern with quantifiers (limit %d)",
                          fname, (int)n, (int)c->limits.pattern_subject_max);
    if (cost > c->limits.pattern_cost_max) {
        /* Quote at most the pattern's start, so the explanation survives. */
        char shown[48];
        snprintf(shown, sizeof shown, "%.40s%s", pat, plen > 40 ? "..." : "");
        return luaL_error(L, "string.%s: pattern '%s' is too costly on a subject of %d bytes "
                             "(fewer '-', '*', '+' items, smaller sets or a shorter text)",
                          fname, shown, (int)n);
    }
    if (kind == K_GSUB)
        guard_replacement(L, c, n, fname);
    rlua_charge(L, 1 + (n + plen) / RLUA_BYTES_PER_UNIT);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    if (kind == K_GMATCH) {
        lua_pushcclosure(L, gmatch_step, 1);
        return 1;
    }
    rlua_charge_timed(L, 1);
    return lua_gettop(L);
}

static int guarded_rep(lua_State *L) {
    rlua_control *c = rlua_ctl(L);
    size_t len, seplen = 0;
    luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    if (!lua_isnoneornil(L, 3))
        luaL_checklstring(L, 3, &seplen);
    double total = n > 0 ? (double)len * (double)n + (double)seplen * (double)(n - 1) : 0.0;
    if (total > (double)c->limits.memory_bytes) {
        c->mem_refused = 1;
        rlua_error_set(&c->limit_error, "not enough memory");
        rlua_error_from_thread_frames(L, 0, &c->limit_error);
        lua_pushliteral(L, "not enough memory"); /* this exact text makes lua_error raise LUA_ERRMEM */
        return lua_error(L);
    }
    if (total == 0.0) { /* nothing to copy: Lua would still loop n times */
        lua_pushliteral(L, "");
        return 1;
    }
    rlua_charge(L, 1 + (uint64_t)(total / RLUA_BYTES_PER_UNIT));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

void rlua_string_guards_install(lua_State *L, int lib) {
    static const char *const names[] = { "find", "match", "gmatch", "gsub", NULL };
    lib = lua_absindex(L, lib);
    /* Everything is charged; rep and the pattern functions get their own
     * guards on top (installed after, so they replace the plain shim). */
    rlua_charge_library(L, lib);
    lua_getfield(L, lib, "rep");
    lua_getupvalue(L, -1, 1); /* the real rep, under the shim */
    lua_remove(L, -2);
    lua_pushcclosure(L, guarded_rep, 1);
    lua_setfield(L, lib, "rep");
    for (int k = 0; names[k]; k++) {
        lua_getfield(L, lib, names[k]);
        lua_getupvalue(L, -1, 1);
        lua_remove(L, -2);
        lua_pushstring(L, names[k]);
        lua_pushinteger(L, k);
        lua_pushcclosure(L, guarded, 3);
        lua_setfield(L, lib, names[k]);
    }
}

/* Opening and closing a sandboxed state. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rlua_internal.h"

/* One freed control block is kept for the next state, with its arena: a
 * block is 14 KB, and allocating that much makes malloc consolidate its
 * free lists, which cost as much as a tenth of a whole state. Not under
 * AddressSanitizer (RLUA_POOLING). */
#define RLUA_KEEP_CONTROL RLUA_POOLING
static _Atomic(rlua_control *) kept_control = NULL;

char RLUA_KEY_TEMPLATE = 0, RLUA_KEY_LIBS = 0, RLUA_KEY_HANDLES = 0,
           RLUA_KEY_MODULES = 0, RLUA_KEY_PROTECTED = 0, RLUA_KEY_RETAINED = 0;

_Static_assert(LUA_EXTRASPACE >= sizeof(rlua_control *), "rlua_ctl keeps the control block in the extra space");

void rlua_limits_default(rlua_limits *o) {
    o->memory_bytes = (size_t)16 << 20;
    o->instructions = 20000000;
    o->seconds = 0.5;
    o->hook_interval = 1000;
    o->pattern_subject_max = 65536;
    o->pattern_cost_max = 1e8;
    o->value_depth_max = 64;
    o->value_nodes_max = 100000;
    o->call_depth_max = 10000;
    o->crossing_bytes_max = (size_t)8 << 20;
}

rlua_control *rlua_control_new(const rlua_limits *limits) {
    rlua_control *c = RLUA_KEEP_CONTROL ? atomic_exchange(&kept_control, NULL) : NULL;
    char *arena = c ? c->arena.base : NULL; /* a kept block's arena is free: its state was closed */
    if (c == NULL)
        c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    /* Everything zero but the two error records, whose headers are cleared
     * below (their text is read only up to the lengths those set). */
    memset(c, 0, offsetof(rlua_control, error));
    c->arena.base = arena;
    rlua_limits d;
    rlua_limits_default(&d);
    c->limits = limits ? *limits : d;
#define DEFAULT(f) if (c->limits.f == 0) c->limits.f = d.f
    DEFAULT(memory_bytes);
    DEFAULT(instructions);
    DEFAULT(hook_interval);
    DEFAULT(pattern_subject_max);
    DEFAULT(pattern_cost_max);
    DEFAULT(value_depth_max);
    DEFAULT(value_nodes_max);
    DEFAULT(call_depth_max);
    DEFAULT(crossing_bytes_max);
#undef DEFAULT
    if (!(c->limits.seconds > 0))
        c->limits.seconds = d.seconds;
    if (c->limits.value_depth_max > 200)
        c->limits.value_depth_max = 200;
    atomic_init(&c->cancel, 0);
    rlua_error_clear(&c->error);
    rlua_error_clear(&c->limit_error);
    return c;
}

void rlua_control_free(rlua_control *c) {
    if (c == NULL)
        return;
    free(c->buf);
    c->buf = NULL;
    rlua_co_free_all(c);
    rlua_control *none = NULL;
    if (RLUA_KEEP_CONTROL && atomic_compare_exchange_strong(&kept_control, &none, c))
        return;
    free(c->arena.base);
    free(c);
}

const rlua_limits *rlua_control_limits(const rlua_control *c) { return &c->limits; }
const rlua_error *rlua_last_error(const rlua_control *c) { return &c->error; }

static int panic(lua_State *L) {
    /* Unreachable by design: every entry point is protected. */
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
    fprintf(stderr, "reflect: unprotected Lua error (bug in the host): %s\n", msg);
    abort();
}

typedef struct setup_args {
    uint64_t seed;
} setup_args;

/* Messages Lua 5.4.4 creates while raising an error outside any protected
 * call (luaD_seterrorobj, resume_error). Creating one can fail under the
 * memory cap, and that failure would reach the panic function. Short strings
 * are interned: while these stay referenced, Lua finds them instead of
 * allocating. */
static char RLUA_KEY_PINNED = 0;
static void pin_error_strings(lua_State *L) {
    static const char *const texts[] = {
        "error in error handling", "C stack overflow", "cannot resume dead coroutine",
        "cannot resume non-suspended coroutine", "not enough memory", NULL,
    };
    lua_newtable(L);
    for (int i = 0; texts[i]; i++) {
        lua_pushstring(L, texts[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_PINNED);
}

/* Calls a library's opener directly (as luaL_requiref would, without
 * recording it in package.loaded: there is no package library, and require
 * only serves host modules). */
static void open_lib(lua_State *L, int libs, const char *name, lua_CFunction open) {
    lua_pushcfunction(L, open);
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    if (libs != 0)
        lua_setfield(L, libs, name);
    else
        lua_pop(L, 1);
}

/* The registry's table of loaded modules, which lauxlib reads to name a
 * library function it cannot name from its call: luaL_argerror for one
 * called through pcall ("bad argument #1 to 'string.rep'", not "to '?'"),
 * luaL_traceback for a frame. Nothing else reads it: there is no package
 * library, require serves host modules from its own table, and scripts
 * cannot reach the registry. The library tables are the masters each
 * chunk's copies take their functions from; "_G" is the template of the
 * environments (lauxlib drops the "_G." from a name it finds there). */
static void name_library_functions(lua_State *L, int libs) {
    static const char *const names[] = {
        LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME, LUA_COLIBNAME, NULL,
    };
    lua_newtable(L);
    for (int i = 0; names[i]; i++) {
        lua_getfield(L, libs, names[i]);
        lua_setfield(L, -2, names[i]);
    }
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_TEMPLATE);
    lua_setfield(L, -2, LUA_GNAME);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
}

static int setup(lua_State *L) {
    setup_args *a = rlua_take_ud(L);
    open_lib(L, 0, LUA_GNAME, luaopen_base); /* into the state's own globals, read below, then emptied */

    lua_newtable(L);
    int libs = lua_gettop(L);
    open_lib(L, libs, LUA_STRLIBNAME, luaopen_string);
    open_lib(L, libs, LUA_TABLIBNAME, luaopen_table);
    open_lib(L, libs, LUA_MATHLIBNAME, luaopen_math);
    open_lib(L, libs, LUA_UTF8LIBNAME, luaopen_utf8);
    open_lib(L, libs, LUA_COLIBNAME, luaopen_coroutine);

    /* string: no dump; guarded rep and patterns, every function charged, in
     * the master table, which is also what method calls ("x"):find(...)
     * reach through the string metatable. */
    lua_getfield(L, libs, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    rlua_string_guards_install(L, -1);
    lua_pop(L, 1);
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);
    lua_getfield(L, libs, LUA_TABLIBNAME);
    rlua_table_guards_install(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, libs, LUA_UTF8LIBNAME);
    rlua_charge_library(L, -1);
    lua_pop(L, 1);

    /* math: seeded once by the host; flows cannot reseed. */
    lua_getfield(L, libs, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, (lua_Integer)a->seed);
    lua_call(L, 1, 0);
    lua_pushnil(L);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);

    lua_newtable(L);
    int template = lua_gettop(L);
    rlua_builtins_install(L, template);
    lua_getfield(L, libs, LUA_STRLIBNAME);
    rlua_determinism_install(L, template, -1);
    lua_pop(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_TEMPLATE);
    name_library_functions(L, libs);
    /* The state's own globals held the base library only for the template
     * to copy from. Nothing reads them afterwards (every chunk gets its own
     * environment before it runs), so they are replaced by an empty table:
     * no dofile or loadfile left in the state, and less for the collector
     * to traverse and for the state to hold. */
    lua_newtable(L);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_LIBS);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_HANDLES);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_MODULES);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RLUA_KEY_RETAINED);
    rlua_metatables_setup(L);
    rlua_determinism_setup(L);
    pin_error_strings(L);
    return 0;
}

lua_State *rlua_open(rlua_control *c, uint64_t seed, void *host_ctx, rlua_dispatch_fn dispatch,
                     rlua_print_fn print) {
    c->host_ctx = host_ctx;
    c->dispatch = dispatch;
    c->print = print;
    lua_State *L = lua_newstate(rlua_alloc, c);
    if (L == NULL) {
        rlua_error_set(&c->error, "cannot create a Lua state within %zu bytes", c->limits.memory_bytes);
        return NULL;
    }
    c->L = L;
    memcpy(lua_getextraspace(L), &c, sizeof c); /* rlua_ctl; threads made later copy it */
    lua_atpanic(L, panic);
    /* Armed before any script code can run; threads inherit it. */
    lua_sethook(L, rlua_hook, LUA_MASKCOUNT, c->limits.hook_interval);
    setup_args a = { seed };
    /* Nothing the setup makes is garbage: collecting while it builds the
     * libraries would only mark the same young objects over and over. The
     * allocator's cap still holds (a refused allocation collects anyway). */
    lua_gc(L, LUA_GCSTOP);
    rlua_entry_begin(c, L);
    int status = rlua_protect(L, setup, &a, 0, 0);
    rlua_entry_end(c);
    lua_gc(L, LUA_GCRESTART);
    if (status != LUA_OK) {
        lua_close(L);
        c->L = NULL;
        return NULL;
    }
    return L;
}

void rlua_close(lua_State *L) {
    if (L == NULL)
        return;
    rlua_control *c = rlua_ctl(L);
    lua_close(L);
    c->L = NULL;
    rlua_co_free_all(c); /* every handle of the state is gone with it */
}

size_t rlua_gc_count(lua_State *L) {
    return (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB, 0);
}

void rlua_gc_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT, 0); }

uint64_t rlua_next_state_id(void) {
    static atomic_uint_least64_t next = 1;
    return atomic_fetch_add(&next, 1);
}

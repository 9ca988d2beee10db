/* Internal declarations shared by the sandbox's C files. */
#ifndef RLUA_INTERNAL_H
#define RLUA_INTERNAL_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdatomic.h>
#include "rlua.h"

enum rlua_trip { TRIP_NONE = 0, TRIP_INSTRUCTIONS, TRIP_DEADLINE, TRIP_CANCELLED };

struct rlua_control {
    rlua_limits limits;
    lua_State *L;
    /* allocator */
    size_t mem_used, mem_peak;
    int mem_refused; /* the cap refused an allocation during this call */
    /* budget of the current top-level call */
    uint64_t instr_used;
    double deadline;
    int trip;
    int depth;
    atomic_int cancel;
    /* host */
    void *host_ctx;
    rlua_dispatch_fn dispatch;
    rlua_print_fn print;
    /* handles: functions and threads in a registry table, ids never reused */
    int64_t next_handle;
    /* output of the last crossing into Swift, and the last error */
    uint8_t *buf;
    size_t buf_len, buf_cap;
    int value_error;
    rlua_error error;
    rlua_error limit_error; /* where a budget or memory limit was first hit in this call */
};

/* Registry keys (addresses are unique). */
extern char RLUA_KEY_TEMPLATE, RLUA_KEY_LIBS, RLUA_KEY_ENV_MT, RLUA_KEY_HANDLES,
    RLUA_KEY_MODULES, RLUA_KEY_PROTECTED;

rlua_control *rlua_ctl(lua_State *L);

/* rlua_alloc.c */
void *rlua_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* rlua_budget.c */
void rlua_hook(lua_State *L, lua_Debug *ar);
void rlua_entry_begin(rlua_control *c, lua_State *L);
void rlua_entry_end(rlua_control *c);
int rlua_raise_trip(lua_State *L, lua_Debug *ar);

/* rlua_errors.c */
int rlua_msgh(lua_State *L);
void rlua_error_clear(rlua_error *e);
void rlua_error_set(rlua_error *e, const char *fmt, ...);
void rlua_error_from_thread(lua_State *T, int level0, int objidx, rlua_error *e);
/* Adds T's frames from level0 to e; chunk and line from the first Lua frame
 * unless e already has them. */
void rlua_error_from_thread_frames(lua_State *T, int level0, rlua_error *e);
void rlua_error_from_message(lua_State *L, int objidx, rlua_error *e);
int32_t rlua_classify(rlua_control *c, int lua_status);
/* Runs f with the top `nargs` values plus the light userdata `ud` (last) as
 * arguments, under the C message handler. Leaves `nresults` results on
 * success, nothing on failure (the error is in the control block). */
int rlua_protect(lua_State *L, lua_CFunction f, void *ud, int nargs, int nresults);
/* Inside such an f: pops and returns `ud`. */
void *rlua_take_ud(lua_State *L);

/* rlua_codec.c */
/* Encodes stack values [first, first+n) into c->buf. Returns NULL or a
 * static description of why a value cannot cross. May raise a memory error. */
const char *rlua_encode(lua_State *L, int first, int n, int *bad_index);
/* Pushes the values encoded in [p, p+len); returns how many. Raises on
 * malformed input or an unknown handle. */
int rlua_decode(lua_State *L, const uint8_t *p, size_t len);
int64_t rlua_handle_store(lua_State *L, int idx);
int rlua_handle_push(lua_State *L, int64_t h);

/* rlua_env.c */
void rlua_env_setup(lua_State *L);
void rlua_env_push_new(lua_State *L);
void rlua_readonly_wrap(lua_State *L, int idx, const char *name, int depth);
int rlua_is_protected(lua_State *L, int idx);

/* rlua_builtins.c */
void rlua_builtins_install(lua_State *L, int template_idx);
int rlua_load_in_env(lua_State *L);

/* rlua_string_guards.c */
void rlua_string_guards_install(lua_State *L, int string_lib_idx);

#endif

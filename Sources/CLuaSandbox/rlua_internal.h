/* Internal declarations shared by the sandbox's C files. */
#ifndef RLUA_INTERNAL_H
#define RLUA_INTERNAL_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdatomic.h>
#include <string.h>
#include "rlua.h"

enum rlua_trip { TRIP_NONE = 0, TRIP_INSTRUCTIONS, TRIP_DEADLINE, TRIP_CANCELLED };

/* Small blocks (at most RLUA_SMALL_MAX bytes, in classes of 16) come from
 * one arena per state, with a free list per class: most of what Lua
 * allocates is that small, and malloc's own bookkeeping was a third of
 * creating a state. The arena is fixed in size (what does not fit goes to
 * malloc), so it adds at most RLUA_ARENA_BYTES of real memory to what the
 * cap counts, whatever the pattern of sizes. */
#define RLUA_ARENA_BYTES ((size_t)64 << 10)
#define RLUA_SMALL_MAX 256
#define RLUA_SMALL_CLASSES (RLUA_SMALL_MAX / 16)
typedef struct rlua_arena {
    char *base;                       /* NULL until the first small block */
    size_t used;                      /* bytes handed out from base so far */
    void *free[RLUA_SMALL_CLASSES];   /* freed blocks by class, linked through their first word */
} rlua_arena;

/* One coroutine handle's slot. The thread is anchored in the registry's
 * thread table at the same index while the slot is in use. */
typedef struct rlua_co_slot {
    lua_State *thread;  /* NULL when the slot is free */
    uint32_t gen;       /* part of the handle: bumped when released, so older handles are refused */
    uint32_t next_free; /* next free slot while this one is free */
    int32_t kept;       /* values it returned kept in place (-1: none kept) */
} rlua_co_slot;

struct rlua_control {
    rlua_limits limits;
    lua_State *L;
    /* allocator */
    rlua_arena arena; /* kept with the block for the next state (rlua_control_new) */
    size_t mem_used, mem_peak;
    int mem_refused; /* the cap refused an allocation during this call */
    size_t alloc_since_check; /* bytes grown since the allocator last read the clock */
    /* Growth while no call runs (depth 0), as the budget would charge it:
     * a resume's argument pushed before its call begins (rlua_calls.c)
     * is charged to that call with these. */
    uint64_t idle_units;
    size_t idle_bytes;
    /* budget of the current top-level call */
    uint64_t instr_used;
    double deadline;
    int trip;
    int depth;
    atomic_int cancel;
    void *protect_ud; /* rlua_protect's ud, until its function takes it */
    /* host */
    void *host_ctx;
    rlua_dispatch_fn dispatch;
    rlua_print_fn print;
    /* function handles: in a registry table, ids never reused (a host
     * call's argument handles are released as a range of ids) */
    int64_t next_handle;
    /* coroutine handles: slots reused through a free list (rlua_coroutines.c) */
    rlua_co_slot *co_slots; /* co_slots[1..co_count]; [0] unused */
    uint32_t co_count, co_cap;
    uint32_t co_free; /* first free slot, 0 when none */
    int co_table_ref; /* the thread table's integer key in the registry, 0 until it is made */
    /* output of the last crossing into Swift, and the last error */
    uint8_t *buf;
    size_t buf_len, buf_cap;
    int value_error;
    char encode_error[160]; /* a formatted reason rlua_encode returned */
    uint64_t next_object_id; /* ids tostring gives tables and functions, in order of first use */
    /* The two error records stay last: rlua_control_new zeroes everything
     * before them and clears only their headers (they are 14 KB together). */
    rlua_error error;
    rlua_error limit_error; /* where a budget or memory limit was first hit in this call */
};

/* Registry keys (addresses are unique). */
extern char RLUA_KEY_TEMPLATE, RLUA_KEY_LIBS, RLUA_KEY_HANDLES,
    RLUA_KEY_MODULES, RLUA_KEY_PROTECTED, RLUA_KEY_RETAINED;

/* The control block of the state L belongs to: kept in the main thread's
 * extra space by rlua_open, which Lua copies into every thread it creates
 * (a load, not a call: the budget and the allocator read it constantly). */
static inline rlua_control *rlua_ctl(lua_State *L) {
    rlua_control *c;
    memcpy(&c, lua_getextraspace(L), sizeof c);
    return c;
}

/* rlua_alloc.c */
void *rlua_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/* 0 under AddressSanitizer, which should see every block's real lifetime
 * (then the arena is never used and the control block is never kept). */
#if defined(__SANITIZE_ADDRESS__)
#define RLUA_POOLING 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RLUA_POOLING 0
#endif
#endif
#ifndef RLUA_POOLING
#define RLUA_POOLING 1
#endif

/* rlua_budget.c */
void rlua_hook(lua_State *L, lua_Debug *ar);
/* Charges `units` (one unit is about one VM instruction of work) done by a C
 * function on the flow's behalf. Raises the budget error, from the calling C
 * function, when the call's budget is spent; otherwise returns. Only call it
 * from a C function running inside Lua (never from the host's own frames). */
void rlua_charge(lua_State *L, uint64_t units);
/* The same, and reads the clock: after a C call whose cost is only bounded,
 * not counted (one pattern match), so that many of them in a row still stop
 * at the deadline. */
void rlua_charge_timed(lua_State *L, uint64_t units);
/* Units charged for handling `bytes` bytes of data in C. */
#define RLUA_BYTES_PER_UNIT 64
/* The allocator's share: charges growth without raising (it cannot); once the
 * budget trips, the allocator refuses every growth until the call ends. */
void rlua_charge_alloc(rlua_control *c, size_t bytes);
void rlua_entry_begin(rlua_control *c, lua_State *L);
void rlua_entry_end(rlua_control *c);
int rlua_raise_trip(lua_State *L, lua_Debug *ar);
/* Raises the current trip from a C function, recording first where it
 * happened (for a trip noticed outside the hook: after a host call). */
int rlua_trip_raise(lua_State *L);
/* The text of the current trip ("instruction budget exceeded (...)"). */
void rlua_trip_message(rlua_control *c, char *what, size_t size);

/* rlua_errors.c */
int rlua_msgh(lua_State *L);
/* Empties e (its header: the rest is read only up to it). Inline: every
 * call into the state clears its records first. */
static inline void rlua_error_clear(rlua_error *e) {
    e->message[0] = '\0';
    e->message_truncated = 0;
    e->chunk[0] = '\0';
    e->line = -1;
    e->frame_count = 0;
    e->frames_truncated = 0;
}
void rlua_error_set(rlua_error *e, const char *fmt, ...);
void rlua_error_from_thread(lua_State *T, int level0, int objidx, rlua_error *e);
/* Adds T's frames from level0 to e; chunk and line from the first Lua frame
 * unless e already has them. */
void rlua_error_from_thread_frames(lua_State *T, int level0, rlua_error *e);
void rlua_error_from_message(lua_State *L, int objidx, rlua_error *e);
int32_t rlua_classify(rlua_control *c, int lua_status);
/* Runs f with the top `nargs` values as arguments, under the C message
 * handler; f takes `ud` with rlua_take_ud first thing. Leaves `nresults`
 * results on success, nothing on failure (the error is in the control
 * block). */
int rlua_protect(lua_State *L, lua_CFunction f, void *ud, int nargs, int nresults);
/* A whole host entry point: counts as a top-level call (or shares the
 * running one), runs f(ud) protected, classifies the outcome, restores the
 * stack. */
int32_t rlua_entry_call(lua_State *L, lua_CFunction f, void *ud);
/* Inside such an f, before anything else: returns `ud` (kept in the control
 * block for that moment, not pushed: a nested protected call sets its own). */
void *rlua_take_ud(lua_State *L);

/* rlua_codec.c */
/* Encodes stack values [first, first+n) into c->buf. Returns NULL or a
 * static description of why a value cannot cross. May raise a memory error. */
const char *rlua_encode(lua_State *L, int first, int n, int *bad_index);
/* Pushes the values encoded in [p, p+len); returns how many. Raises on
 * malformed input or an unknown handle. */
int rlua_decode(lua_State *L, const uint8_t *p, size_t len);
/* Empties the crossing buffer (giving back one left large by an earlier
 * crossing) and makes room for n bytes in it: 0, or -1 when memory runs out. */
int rlua_output_reserve(rlua_control *c, size_t n);
int64_t rlua_handle_store(lua_State *L, int idx);
int rlua_handle_push(lua_State *L, int64_t h);

/* rlua_coroutines.c: coroutine handles. A handle names a slot and that
 * slot's generation; released slots are reused, older handles refused. */
#define RLUA_CO_HANDLE_BIT ((int64_t)1 << 62)
static inline int rlua_is_co_handle(int64_t h) { return (h & RLUA_CO_HANDLE_BIT) != 0 && h > 0; }
/* The registry's thread table (made with the first coroutine): slot s's
 * thread at [2s - 1], what it returned, when kept, at [2s] (`false` there
 * while the slot is in use and nothing is kept yet). */
#define RLUA_CO_THREAD_KEY(slot) (2 * (lua_Integer)(slot) - 1)
#define RLUA_CO_KEPT_KEY(slot) (2 * (lua_Integer)(slot))
/* Pushes the thread table and returns its type: LUA_TNIL (a nil pushed)
 * before the first coroutine. An integer key in the registry, not a
 * pointer's: read on every resume that returns, and that lookup is the
 * array's. Never raises (the caller has room for one value). */
static inline int rlua_co_table_push(lua_State *L) {
    int ref = rlua_ctl(L)->co_table_ref;
    if (ref <= 0) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    return lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
}
/* Stores the thread at idx in a slot; returns its handle. May raise (memory). */
int64_t rlua_co_store(lua_State *L, int idx);
/* The live slot named by h, or NULL (unknown, released, or not a coroutine handle). */
rlua_co_slot *rlua_co_find(rlua_control *c, int64_t h);
/* Frees h's slot (and what it kept); no-op for a stale handle. Never raises. */
void rlua_co_release(lua_State *L, int64_t h);
/* Frees the slot array (the state is closing or closed). */
void rlua_co_free_all(rlua_control *c);

/* rlua_env.c */
/* Pushes a fresh environment for a chunk loaded under the name `owner`. */
void rlua_env_push_new(lua_State *L, const char *owner);
/* When the table at t is an environment whose library named by the key at
 * `key` is not copied yet, copies it (may raise); otherwise does nothing.
 * Run before reading t raw. */
void rlua_env_prepare_key(lua_State *L, int t, int key);
/* The same for every library: run before walking t's keys. */
void rlua_env_prepare_all(lua_State *L, int t);
void rlua_readonly_wrap(lua_State *L, int idx, const char *name, int depth);
int rlua_is_protected(lua_State *L, int idx);

/* rlua_builtins.c */
void rlua_builtins_install(lua_State *L, int template_idx);
int rlua_load_in_env(lua_State *L);

/* rlua_sort.c */
/* 1 when the value at a sorts strictly before the value at b. May raise. */
typedef int (*rlua_less_fn)(lua_State *L, int a, int b, void *ud);
/* Sorts array[1..n] (raw access) stably, charging each comparison. */
void rlua_merge_sort(lua_State *L, int array, lua_Integer n, rlua_less_fn less, void *ud);

/* rlua_metatables.c */
void rlua_metatables_setup(lua_State *L);
int rlua_setmetatable(lua_State *L);

/* rlua_determinism.c */
void rlua_determinism_setup(lua_State *L);
/* Installs pairs, next, tostring, collectgarbage into the template and the
 * address-free string.format into the string library. */
void rlua_determinism_install(lua_State *L, int template_idx, int string_lib_idx);
/* Pushes an iterator over the table at t in the fixed key order. */
void rlua_push_ordered_iterator(lua_State *L, int t);
/* Pushes tostring(value at idx), without addresses. */
void rlua_push_tostring(lua_State *L, int idx);

/* rlua_table_guards.c */
/* t[key] (key on top, replaced by the value) and t[key] = value (key and
 * value on top, popped) with Lua's metamethod rules, charging each link of
 * an __index / __newindex chain. t is a stack index. */
void rlua_gettable_charged(lua_State *L, int t);
void rlua_settable_charged(lua_State *L, int t);
/* Replaces insert, remove, move, concat, unpack and sort with charged ones. */
void rlua_table_guards_install(lua_State *L, int table_lib_idx);

/* rlua_string_guards.c */
void rlua_string_guards_install(lua_State *L, int string_lib_idx);
/* Wraps every function of the table at lib, in place, with a shim charging
 * 1 + (bytes of string arguments) / RLUA_BYTES_PER_UNIT per call. */
void rlua_charge_library(lua_State *L, int lib);
/* 1 when the value at idx is a C function without upvalues: one that may be
 * called directly from another C function's frame. */
int rlua_is_plain_cfunction(lua_State *L, int idx);
/* What the shim charges for a call with the current stack as arguments:
 * 1 + (bytes of string arguments) / RLUA_BYTES_PER_UNIT. */
uint64_t rlua_string_units(lua_State *L);

/* The longest text one print() hands to the host; longer is cut (the host
 * cuts further for its log). */
#define RLUA_PRINT_MAX 65536

#endif

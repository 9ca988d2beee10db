/* rlua.h — the C half of Reflect's Lua sandbox, as seen from Swift.
 *
 * Contract: every function here returns a status instead of raising. A Lua
 * error (longjmp) never leaves this layer, so no Swift frame is ever jumped
 * over. Values cross the boundary as a compact byte encoding (see
 * rlua_codec.c) that C builds and reads under Lua's protection.
 *
 * One rlua_control per state. It owns the limits, the budget, the last error
 * and the output buffer, and it outlives the lua_State so that a cancel
 * request from another thread never touches freed memory.
 */
#ifndef RLUA_H
#define RLUA_H

#include <stddef.h>
#include <stdint.h>

typedef struct lua_State lua_State;
typedef struct rlua_control rlua_control;

/* Limits of one sandboxed state. Zero fields are replaced by defaults. */
typedef struct rlua_limits {
    size_t memory_bytes;          /* allocator cap for the whole state */
    uint64_t instructions;        /* VM instructions per top-level call */
    double seconds;               /* wall clock per top-level call */
    int32_t hook_interval;        /* instructions between budget checks */
    size_t pattern_subject_max;   /* longest subject for a pattern with quantifiers */
    double pattern_cost_max;      /* upper bound of the backtracking estimate */
    int32_t value_depth_max;      /* nesting of tables crossing into Swift */
    int32_t value_nodes_max;      /* values in one crossing */
    int32_t call_depth_max;       /* nested Lua calls, checked once memory passes half the cap */
    size_t crossing_bytes_max;    /* bytes one value crossing into the host may take (the host allowance) */
} rlua_limits;

#define RLUA_OK 0
#define RLUA_YIELDED 1
#define RLUA_E_SYNTAX 2
#define RLUA_E_RUNTIME 3
#define RLUA_E_MEMORY 4
#define RLUA_E_INSTRUCTIONS 5
#define RLUA_E_DEADLINE 6
#define RLUA_E_CANCELLED 7
#define RLUA_E_VALUE 8 /* a value could not cross the boundary */
#define RLUA_E_MISUSE 9 /* the host asked for something impossible */

#define RLUA_MESSAGE_MAX 1024
#define RLUA_SOURCE_MAX 256
#define RLUA_NAME_MAX 96
#define RLUA_FRAMES_MAX 16

typedef struct rlua_frame {
    char source[RLUA_SOURCE_MAX]; /* display name ("flows/x.lua") or "[C]" */
    char name[RLUA_NAME_MAX];     /* "function 'ask'", "main chunk", ... */
    int32_t line;                 /* -1 when unknown */
} rlua_frame;

/* The last error, filled without allocating and without running any Lua
 * code (no __tostring, no __index). */
typedef struct rlua_error {
    char message[RLUA_MESSAGE_MAX]; /* without the "chunk:line: " prefix */
    int32_t message_truncated;
    char chunk[RLUA_SOURCE_MAX];    /* "" when unknown */
    int32_t line;                   /* -1 when unknown */
    int32_t frame_count;
    int32_t frames_truncated;
    rlua_frame frames[RLUA_FRAMES_MAX];
} rlua_error;

/* What a host function asks the trampoline to do with its output. */
#define RLUA_HOST_RETURN 0 /* out holds the encoded results */
#define RLUA_HOST_YIELD 1 /* out holds encoded values to yield */
#define RLUA_HOST_ERROR 2 /* out holds a UTF-8 message; raised with the caller's position */

/* Called by the trampoline. `args` is valid only during the call: decode it
 * first. `*out` must stay valid until the function returns to Lua, i.e. the
 * host keeps it alive at least until its next dispatch. */
typedef int32_t (*rlua_dispatch_fn)(void *ctx, lua_State *L, int64_t function_id,
                                    const uint8_t *args, size_t args_len,
                                    const uint8_t **out, size_t *out_len);
typedef void (*rlua_print_fn)(void *ctx, const char *text, size_t len);

/* Control block. Free it only after rlua_close. */
rlua_control *rlua_control_new(const rlua_limits *limits);
void rlua_control_free(rlua_control *c);
void rlua_limits_default(rlua_limits *out);
const rlua_limits *rlua_control_limits(const rlua_control *c);

/* Thread-safe: ask the running (or next) call to stop. Sticky for the life
 * of the state. */
void rlua_cancel(rlua_control *c);

/* Creates the sandboxed state: capped allocator, count hook armed before any
 * script code, base/string/table/math/utf8/coroutine only, dangerous
 * functions removed or wrapped, math.random seeded with `seed`. NULL on
 * failure (the reason is in rlua_last_error). */
lua_State *rlua_open(rlua_control *c, uint64_t seed, void *host_ctx,
                     rlua_dispatch_fn dispatch, rlua_print_fn print);
void rlua_close(lua_State *L);

const rlua_error *rlua_last_error(const rlua_control *c);
/* Encoded results of the last successful call/resume; valid until the next
 * call into the state. */
const uint8_t *rlua_output(const rlua_control *c, size_t *len);

/* Compiles `src` (text only: a binary chunk is refused) under the display
 * name `name`, gives it a fresh allow-listed environment and returns a
 * function handle. Nothing of the chunk runs yet. */
int32_t rlua_load(lua_State *L, const char *src, size_t len, const char *name,
                  int64_t *out_handle);

/* Calls a function handle with encoded arguments. Results: rlua_output. */
int32_t rlua_call(lua_State *L, int64_t function, const uint8_t *args, size_t len);

/* Creates a coroutine running `function`; returns its handle. A released
 * coroutine handle's slot is reused by a later coroutine, under a new
 * handle: the released one stays refused. */
int32_t rlua_coroutine(lua_State *L, int64_t function, int64_t *out_handle);

/* Resumes a coroutine handle. RLUA_YIELDED or RLUA_OK (it returned) with the
 * values in rlua_output; an error leaves the coroutine dead. */
int32_t rlua_resume(lua_State *L, int64_t coroutine, const uint8_t *args, size_t len);

/* rlua_resume for the common crossings, without the codec: at most one
 * value each way.
 *
 * The argument is nothing, one scalar, or (RLUA_ONE_ENCODED) `bytes`/`len`
 * in the codec's encoding, any number of values. The result, when the
 * status is RLUA_YIELDED or RLUA_OK:
 *   RLUA_ONE_NONE            no value;
 *   NIL, BOOLEAN (integer 0/1), INTEGER, NUMBER   that one value;
 *   RLUA_ONE_STRING          one string: `bytes`/`len` point into the
 *                            crossing buffer, with a NUL after them (not
 *                            counted), and rlua_output holds the same value
 *                            in the codec's encoding. The bytes are not
 *                            checked: they may hold NULs or bad UTF-8;
 *   RLUA_ONE_ENCODED         anything else: the values are in rlua_output.
 * Everything else (limits, budget, errors, what stays of the coroutine) is
 * exactly rlua_resume's; the bytes stay valid until the next call into the
 * state. */
#define RLUA_ONE_NONE 0
#define RLUA_ONE_NIL 1
#define RLUA_ONE_BOOLEAN 2
#define RLUA_ONE_INTEGER 3
#define RLUA_ONE_NUMBER 4
#define RLUA_ONE_STRING 5
#define RLUA_ONE_ENCODED 6
#define RLUA_ONE_KEPT 7 /* rlua_resume_one_kept: it returned `integer` values, kept in place */
typedef struct rlua_one {
    int32_t type;
    int64_t integer;
    double number;
    const uint8_t *bytes;
    size_t len;
} rlua_one;
int32_t rlua_resume_one(lua_State *L, int64_t coroutine, const rlua_one *arg, rlua_one *result);

/* rlua_resume_one, except when the coroutine returns (RLUA_OK): then what
 * it returned does not cross. The result is RLUA_ONE_KEPT with `integer`
 * the number of values, which stay in the state, read one at a time with
 * rlua_kept_read, until the coroutine's handle is released (or the state
 * closes). The coroutine is finished as after rlua_resume_one. */
int32_t rlua_resume_one_kept(lua_State *L, int64_t coroutine, const rlua_one *arg, rlua_one *result);

/* Reads value #index (1-based) of what the coroutine returned and kept, or
 * with `key` an INTEGER or STRING (bytes/len) the field value[key] (raw
 * access: no metamethod runs). Beyond the count the value is nil. The
 * value comes out as rlua_resume_one's result does (a scalar, a STRING in
 * the crossing buffer, or ENCODED in rlua_output), under the same limits
 * (a value the host cannot take is RLUA_E_VALUE, as it would be for the
 * whole copy). RLUA_E_MISUSE for an unknown or released handle, a
 * coroutine whose values were not kept, or a key into a value that is not
 * a table. */
int32_t rlua_kept_read(lua_State *L, int64_t coroutine, int32_t index, const rlua_one *key, rlua_one *out);

/* 0 suspended (can be resumed), 1 running or normal, 2 dead, -1 unknown handle. */
int32_t rlua_coroutine_status(lua_State *L, int64_t coroutine);

/* The line a suspended coroutine's innermost Lua function stands at (where
 * it yielded), -1 when it is not suspended, unknown, or has no Lua frame.
 * Reads debug information only: runs nothing, allocates nothing. */
int32_t rlua_coroutine_line(lua_State *L, int64_t coroutine);

/* 1 when `L` (the running thread, e.g. the one calling a host function) is
 * the coroutine `coroutine`, else 0 (also for an unknown handle). */
int32_t rlua_is_coroutine(lua_State *L, int64_t coroutine);

/* Makes a Lua function that calls back into the host with `function_id`. */
int32_t rlua_host_function(lua_State *L, int64_t function_id, const char *name,
                           int64_t *out_handle);

#define RLUA_DEFINE_GLOBAL 1 /* visible in every chunk loaded afterwards */
#define RLUA_DEFINE_MODULE 2 /* available through require(name) */
#define RLUA_DEFINE_READONLY 4 /* tables become read-only proxies, recursively */
/* Defines a value (encoded, exactly one) under `name`. */
int32_t rlua_define(lua_State *L, const char *name, const uint8_t *value, size_t len,
                    int32_t flags);

/* Releases a handle; later use of it is a typed error. */
void rlua_release(lua_State *L, int64_t handle);

/* A function handle that reaches a host function among its arguments is
 * valid until that host function returns (as values on the Lua stack are in
 * Lua's own C API). Retaining it keeps it until it is released or the state
 * closes. Handles returned by rlua_call / rlua_resume / rlua_load are kept
 * without retaining. */
int32_t rlua_retain(lua_State *L, int64_t handle);

/* Bytes the allocator holds for this state, and the peak since open. */
size_t rlua_memory_in_use(const rlua_control *c);
size_t rlua_memory_peak(const rlua_control *c);
/* Lua's own view (collectgarbage("count") in bytes). */
size_t rlua_gc_count(lua_State *L);
void rlua_gc_collect(lua_State *L);
/* Instructions counted (at hook granularity) by the last top-level call. */
uint64_t rlua_instructions_used(const rlua_control *c);

/* A process-wide unique id for a new state (handles remember their owner). */
uint64_t rlua_next_state_id(void);

#endif

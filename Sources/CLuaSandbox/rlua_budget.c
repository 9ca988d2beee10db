/* The per-call budget: a count hook armed on the main thread before any
 * script code runs (coroutines inherit it), checking an instruction count, a
 * wall-clock deadline and a cancel flag. Once tripped, the trip is sticky for
 * the rest of the top-level call: the hook then fires on every instruction
 * and raises again, so `pcall` cannot swallow it. */
#include <stdio.h>
#include <time.h>
#include "rlua_internal.h"

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void rlua_entry_begin(rlua_control *c, lua_State *L) {
    if (c->depth++ > 0)
        return; /* a nested call (host function calling back) shares the budget */
    c->instr_used = 0;
    c->deadline = now_seconds() + c->limits.seconds;
    c->trip = atomic_load(&c->cancel) ? TRIP_CANCELLED : TRIP_NONE;
    c->value_error = 0;
    c->mem_refused = 0;
    c->alloc_since_check = 0;
    rlua_error_clear(&c->limit_error);
    /* Re-arming also resets this thread's count, and undoes the
     * every-instruction mode a previous trip may have left on it. */
    lua_sethook(L, rlua_hook, LUA_MASKCOUNT, c->limits.hook_interval);
}

void rlua_entry_end(rlua_control *c) { c->depth--; }

void rlua_cancel(rlua_control *c) { atomic_store(&c->cancel, 1); }

uint64_t rlua_instructions_used(const rlua_control *c) { return c->instr_used; }

static void trip_text(rlua_control *c, char *what, size_t size) {
    switch (c->trip) {
    case TRIP_INSTRUCTIONS:
        snprintf(what, size, "instruction budget exceeded (%llu instructions per call)",
                 (unsigned long long)c->limits.instructions);
        break;
    case TRIP_DEADLINE:
        snprintf(what, size, "time limit exceeded (%.3g s per call)", c->limits.seconds);
        break;
    default:
        snprintf(what, size, "cancelled by the host");
        break;
    }
}

void rlua_trip_message(rlua_control *c, char *what, size_t size) { trip_text(c, what, size); }

/* Raises `what` at the position of the instruction about to run (a hook), or
 * at the Lua line that called the running C function (ar == NULL). */
static int raise_at(lua_State *L, lua_Debug *ar, const char *what) {
    if (ar != NULL && lua_getinfo(L, "Sl", ar) && ar->currentline > 0) {
        const char *src = ar->source;
        if (src[0] == '=' || src[0] == '@')
            src++;
        lua_pushfstring(L, "%s:%d: %s", src, ar->currentline, what);
    } else if (ar == NULL) {
        luaL_where(L, 1);
        lua_pushstring(L, what);
        lua_concat(L, 2);
    } else {
        lua_pushstring(L, what);
    }
    return lua_error(L);
}

int rlua_raise_trip(lua_State *L, lua_Debug *ar) {
    char what[160];
    trip_text(rlua_ctl(L), what, sizeof what);
    return raise_at(L, ar, what);
}

/* Decides whether the running call's budget is spent. The clock is read only
 * when asked (it costs more than the rest together). */
static int budget_spent(rlua_control *c, int read_clock) {
    if (c->trip != TRIP_NONE)
        return 1;
    if (atomic_load(&c->cancel))
        c->trip = TRIP_CANCELLED;
    else if (c->instr_used > c->limits.instructions)
        c->trip = TRIP_INSTRUCTIONS;
    else if (read_clock && now_seconds() > c->deadline)
        c->trip = TRIP_DEADLINE;
    return c->trip != TRIP_NONE;
}

/* Remembers where the budget first ran out (once per call), makes the hook
 * fire on every instruction of this thread, and raises. The position is
 * recorded before raising, without allocating: once the budget has tripped
 * the allocator refuses growth, so the raised message itself may be lost to
 * a memory error. */
static void trip_raise(rlua_control *c, lua_State *L, lua_Debug *ar) {
    if (c->limit_error.message[0] == '\0') {
        char what[160];
        trip_text(c, what, sizeof what);
        rlua_error_set(&c->limit_error, "%s", what);
        rlua_error_from_thread_frames(L, 0, &c->limit_error);
    }
    lua_sethook(L, rlua_hook, LUA_MASKCOUNT, 1);
    rlua_raise_trip(L, ar);
}

int rlua_trip_raise(lua_State *L) {
    trip_raise(rlua_ctl(L), L, NULL);
    return 0; /* not reached */
}

void rlua_hook(lua_State *L, lua_Debug *ar) {
    rlua_control *c = rlua_ctl(L);
    if (c->trip == TRIP_NONE) {
        /* Runaway recursion: only looked for once memory is high, so that
         * ordinary flows never pay for the walk. */
        if (c->mem_used > c->limits.memory_bytes / 2) {
            lua_Debug deep;
            if (lua_getstack(L, c->limits.call_depth_max, &deep)) {
                char what[96];
                snprintf(what, sizeof what, "stack overflow (more than %d nested calls)", c->limits.call_depth_max);
                raise_at(L, ar, what);
            }
        }
        c->instr_used += (uint64_t)c->limits.hook_interval;
        if (!budget_spent(c, 1))
            return;
    }
    trip_raise(c, L, ar);
}

/* The clock is read each time the charged work crosses this many units. */
#define CLOCK_EVERY 4096u

void rlua_charge(lua_State *L, uint64_t units) {
    rlua_control *c = rlua_ctl(L);
    if (c->depth == 0)
        return;
    uint64_t before = c->instr_used;
    c->instr_used += units;
    if (budget_spent(c, before / CLOCK_EVERY != c->instr_used / CLOCK_EVERY))
        trip_raise(c, L, NULL);
}

void rlua_charge_timed(lua_State *L, uint64_t units) {
    rlua_control *c = rlua_ctl(L);
    if (c->depth == 0)
        return;
    c->instr_used += units;
    if (budget_spent(c, 1))
        trip_raise(c, L, NULL);
}

/* Allocation is charged by the byte, so that work the VM does in one
 * instruction (a concatenation of two large strings) is not free. */
void rlua_charge_alloc(rlua_control *c, size_t bytes) {
    if (c->depth == 0) {
        /* No call is running: nothing to charge now (and nothing is
         * refused but by the cap); counted for a call that takes it over. */
        c->idle_units += bytes / RLUA_BYTES_PER_UNIT;
        c->idle_bytes += bytes;
        return;
    }
    if (c->trip != TRIP_NONE)
        return;
    c->alloc_since_check += bytes;
    c->instr_used += bytes / RLUA_BYTES_PER_UNIT;
    int read_clock = c->alloc_since_check >= ((size_t)1 << 20);
    if (read_clock)
        c->alloc_since_check = 0;
    budget_spent(c, read_clock);
}

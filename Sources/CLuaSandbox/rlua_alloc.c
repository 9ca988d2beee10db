/* The capped allocator: every byte a state holds is counted against
 * limits.memory_bytes. A refused growth makes Lua raise a memory error
 * (after its own emergency collection); shrinking and freeing always work.
 *
 * Growth is also charged to the running call's budget (rlua_charge_alloc),
 * and once that budget has tripped every growth is refused until the call
 * ends: work that allocates cannot continue between two hook checks. */
#include <stdlib.h>
#include <string.h>
#include "rlua_internal.h"

/* ---- the small-block arena (rlua_internal.h) ---- */

static size_t class_of(size_t n) { return (n - 1) >> 4; } /* n in 1 ... RLUA_SMALL_MAX */

static int in_arena(const rlua_control *c, const void *p) {
    const char *b = c->arena.base;
    return b != NULL && (const char *)p >= b && (const char *)p < b + RLUA_ARENA_BYTES;
}

/* A block for n bytes (n <= RLUA_SMALL_MAX): a freed one of its class, the
 * arena's next, or malloc's once the arena is used up. */
static void *small_get(rlua_control *c, size_t n) {
    size_t k = class_of(n);
    void *p = c->arena.free[k];
    if (p != NULL) {
        c->arena.free[k] = *(void **)p;
        return p;
    }
    size_t size = (k + 1) << 4;
    if (c->arena.base == NULL)
        c->arena.base = malloc(RLUA_ARENA_BYTES); /* malloc's alignment suits any Lua object */
    if (c->arena.base != NULL && c->arena.used + size <= RLUA_ARENA_BYTES) {
        p = c->arena.base + c->arena.used;
        c->arena.used += size;
        return p;
    }
    return malloc(n);
}

/* Gives back a block of `size` bytes (its size as allocated). */
static void release(rlua_control *c, void *p, size_t size) {
    if (in_arena(c, p)) {
        size_t k = class_of(size);
        *(void **)p = c->arena.free[k];
        c->arena.free[k] = p;
    } else {
        free(p);
    }
}

/* Lua's allocator contract: osize is the block's size when ptr is not NULL. */
static void *grow_or_move(rlua_control *c, void *ptr, size_t old, size_t nsize) {
    if (!RLUA_POOLING)
        return realloc(ptr, nsize);
    if (ptr == NULL)
        return nsize <= RLUA_SMALL_MAX ? small_get(c, nsize) : malloc(nsize);
    if (!in_arena(c, ptr))
        return realloc(ptr, nsize);
    if (nsize <= old || (nsize <= RLUA_SMALL_MAX && class_of(nsize) == class_of(old)))
        return ptr; /* fits its block (a shrink never moves, so it never fails; the
                     * block is then freed under its new size's class, a smaller one
                     * than it can hold, which is safe) */
    void *p = nsize <= RLUA_SMALL_MAX ? small_get(c, nsize) : malloc(nsize);
    if (p == NULL)
        return NULL; /* the old block stays as it was */
    memcpy(p, ptr, old < nsize ? old : nsize);
    release(c, ptr, old);
    return p;
}

void *rlua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    rlua_control *c = ud;
    /* With ptr == NULL, osize encodes the object kind, not a size. */
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (ptr != NULL)
            release(c, ptr, old);
        c->mem_used -= old;
        return NULL;
    }
    if (nsize > old) {
        if (c->mem_used - old + nsize > c->limits.memory_bytes) {
            c->mem_refused = 1;
            return NULL;
        }
        rlua_charge_alloc(c, nsize - old);
        if (c->trip != TRIP_NONE && c->depth > 0)
            return NULL;
    }
    void *p = grow_or_move(c, ptr, old, nsize);
    if (p == NULL)
        return NULL;
    c->mem_used = c->mem_used - old + nsize;
    if (c->mem_used > c->mem_peak)
        c->mem_peak = c->mem_used;
    return p;
}

size_t rlua_memory_in_use(const rlua_control *c) { return c->mem_used; }
size_t rlua_memory_peak(const rlua_control *c) { return c->mem_peak; }

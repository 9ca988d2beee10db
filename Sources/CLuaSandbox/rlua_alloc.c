/* The capped allocator: every byte a state holds is counted against
 * limits.memory_bytes. A refused growth makes Lua raise a memory error
 * (after its own emergency collection); shrinking and freeing always work.
 *
 * Growth is also charged to the running call's budget (rlua_charge_alloc),
 * and once that budget has tripped every growth is refused until the call
 * ends: work that allocates cannot continue between two hook checks. */
#include <stdlib.h>
#include "rlua_internal.h"

void *rlua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    rlua_control *c = ud;
    /* With ptr == NULL, osize encodes the object kind, not a size. */
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
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
    void *p = realloc(ptr, nsize);
    if (p == NULL)
        return NULL;
    c->mem_used = c->mem_used - old + nsize;
    if (c->mem_used > c->mem_peak)
        c->mem_peak = c->mem_used;
    return p;
}

size_t rlua_memory_in_use(const rlua_control *c) { return c->mem_used; }
size_t rlua_memory_peak(const rlua_control *c) { return c->mem_peak; }

/* Coroutine handles: slots reused through a free list.
 *
 * A handle is RLUA_CO_HANDLE_BIT | generation << 32 | slot. The slot array
 * lives in the control block (C memory, outside the Lua heap: it is as
 * large as the most coroutines alive at once, 24 bytes each); the thread
 * itself is anchored in the registry's thread table, made with the first
 * coroutine (a state that never makes one does not pay for it), at the
 * slot's index (with what it returned, when kept, beside it, `false`
 * holding that place until then): a dense
 * array that stops growing once it holds that many. Releasing a
 * handle empties the anchor, bumps the slot's generation (so the released
 * handle, and every older one, is refused from then on) and puts the slot
 * at the head of the free list for the next coroutine.
 *
 * Function handles are not reused: a host call's argument handles are
 * released as a range of ids (rlua_calls.c). */
#include <stdlib.h>
#include "rlua_internal.h"

#define SLOT_MASK ((int64_t)0xffffffff)
/* Generations use the 30 bits between the slot and RLUA_CO_HANDLE_BIT; a
 * slot whose generation would wrap is retired instead of reused. */
#define GEN_MAX (((uint32_t)1 << 30) - 1)

static int64_t handle_of(uint32_t slot, uint32_t gen) {
    return RLUA_CO_HANDLE_BIT | ((int64_t)gen << 32) | (int64_t)slot;
}

rlua_co_slot *rlua_co_find(rlua_control *c, int64_t h) {
    if (!rlua_is_co_handle(h))
        return NULL;
    uint32_t slot = (uint32_t)(h & SLOT_MASK);
    uint32_t gen = (uint32_t)((h & ~RLUA_CO_HANDLE_BIT) >> 32);
    if (slot == 0 || slot > c->co_count)
        return NULL;
    rlua_co_slot *s = &c->co_slots[slot];
    return s->thread != NULL && s->gen == gen ? s : NULL;
}

int64_t rlua_co_store(lua_State *L, int idx) {
    rlua_control *c = rlua_ctl(L);
    lua_State *co = lua_tothread(L, idx);
    idx = lua_absindex(L, idx);
    uint32_t slot = c->co_free;
    if (slot == 0) {
        if (c->co_count == UINT32_MAX - 1)
            luaL_error(L, "too many coroutines");
        if (c->co_count + 1 >= c->co_cap) {
            uint32_t cap = c->co_cap ? c->co_cap * 2 : 8;
            rlua_co_slot *grown = realloc(c->co_slots, (size_t)cap * sizeof *grown);
            if (grown == NULL)
                luaL_error(L, "not enough memory");
            c->co_slots = grown;
            c->co_cap = cap;
        }
        slot = c->co_count + 1;
        c->co_slots[slot].gen = 0;
    }
    /* Anchor first: this may raise (memory), and the slot is not taken yet. */
    if (rlua_co_table_push(L) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 8, 0);
        lua_pushvalue(L, -1);
        c->co_table_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, RLUA_CO_THREAD_KEY(slot));
    /* The place for what it will return, held by `false` until then: the
     * key exists, so storing the returned value there never allocates
     * (rlua_calls.c keeps it without a protected call). */
    lua_pushboolean(L, 0);
    lua_rawseti(L, -2, RLUA_CO_KEPT_KEY(slot));
    lua_pop(L, 1);
    if (slot == c->co_free)
        c->co_free = c->co_slots[slot].next_free;
    else
        c->co_count = slot;
    rlua_co_slot *s = &c->co_slots[slot];
    s->thread = co;
    s->next_free = 0;
    s->kept = -1;
    return handle_of(slot, s->gen);
}

void rlua_co_release(lua_State *L, int64_t h) {
    rlua_control *c = rlua_ctl(L);
    rlua_co_slot *s = rlua_co_find(c, h);
    if (s == NULL || !lua_checkstack(L, 2))
        return;
    uint32_t slot = (uint32_t)(h & SLOT_MASK);
    /* Raw sets of existing entries to nil never allocate. */
    if (rlua_co_table_push(L) == LUA_TTABLE) { /* it is: a live slot's thread is in it */
        lua_pushnil(L);
        lua_rawseti(L, -2, RLUA_CO_THREAD_KEY(slot));
        lua_pushnil(L);
        lua_rawseti(L, -2, RLUA_CO_KEPT_KEY(slot));
    }
    lua_pop(L, 1);
    s->thread = NULL;
    s->kept = -1;
    if (s->gen == GEN_MAX)
        return; /* retired: its handles could otherwise come back */
    s->gen++;
    s->next_free = c->co_free;
    c->co_free = slot;
}

void rlua_co_free_all(rlua_control *c) {
    free(c->co_slots);
    c->co_slots = NULL;
    c->co_count = c->co_cap = 0;
    c->co_free = 0;
}

/* A stable, charged merge sort over a Lua sequence, shared by table.sort and
 * by the ordered iteration behind pairs/next.
 *
 * Why not Lua's own sort: it is a quicksort that, past 100 elements, picks
 * its pivot from clock() and time(), so equal elements (or an inconsistent
 * comparator) come out in a different order from one run to the next, and a
 * flow replayed after `back` would see another world. A merge sort is
 * stable, needs no pivot, terminates whatever the comparator answers, and
 * every comparison is charged to the running call's budget. */
#include "rlua_internal.h"

/* Merges src[lo..mid) and src[mid..hi) into dst[lo..hi). */
static void merge(lua_State *L, int src, int dst, lua_Integer lo, lua_Integer mid, lua_Integer hi,
                  rlua_less_fn less, void *ud) {
    lua_Integer i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        lua_rawgeti(L, src, j);
        lua_rawgeti(L, src, i);
        rlua_charge(L, 1);
        /* Take from the right only when strictly less: that is stability. */
        int right_first = less(L, -2, -1, ud);
        lua_pop(L, 2);
        lua_rawgeti(L, src, right_first ? j++ : i++);
        lua_rawseti(L, dst, k++);
    }
    while (i < mid) {
        lua_rawgeti(L, src, i++);
        lua_rawseti(L, dst, k++);
    }
    while (j < hi) {
        lua_rawgeti(L, src, j++);
        lua_rawseti(L, dst, k++);
    }
}

void rlua_merge_sort(lua_State *L, int array, lua_Integer n, rlua_less_fn less, void *ud) {
    array = lua_absindex(L, array);
    luaL_checkstack(L, 8, "sort");
    lua_createtable(L, n > 0 && n < (1 << 26) ? (int)n : 0, 0);
    int scratch = lua_gettop(L);
    int src = array, dst = scratch;
    /* Values are read 1-based; indices below are 1-based half-open ranges. */
    for (lua_Integer width = 1; width < n; width *= 2) {
        for (lua_Integer lo = 1; lo <= n; lo += 2 * width) {
            lua_Integer mid = lo + width > n + 1 ? n + 1 : lo + width;
            lua_Integer hi = lo + 2 * width > n + 1 ? n + 1 : lo + 2 * width;
            merge(L, src, dst, lo, mid, hi, less, ud);
        }
        int t = src;
        src = dst;
        dst = t;
    }
    if (src != array) {
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, src, i);
            lua_rawseti(L, array, i);
        }
    }
    lua_pop(L, 1);
}

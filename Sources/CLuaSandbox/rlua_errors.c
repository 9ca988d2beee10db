/* Error reporting without running script code or allocating: the message
 * handler and the post-mortem reader of a dead coroutine both fill the
 * control block's rlua_error from the error object and the call stack.
 * Error objects are never converted through metamethods (`__tostring` of a
 * hostile table never runs); long messages are truncated. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rlua_internal.h"

static void copy_truncated(char *dst, size_t cap, const char *src, size_t len, int32_t *truncated) {
    if (len >= cap) {
        /* Keep room for an ellipsis; never cut a UTF-8 sequence in half. */
        size_t keep = cap - 4;
        while (keep > 0 && ((unsigned char)src[keep] & 0xC0) == 0x80)
            keep--;
        memcpy(dst, src, keep);
        memcpy(dst + keep, "\xE2\x80\xA6", 3);
        dst[keep + 3] = '\0';
        if (truncated)
            *truncated = 1;
    } else {
        memcpy(dst, src, len);
        dst[len] = '\0';
    }
}

void rlua_error_set(rlua_error *e, const char *fmt, ...) {
    rlua_error_clear(e);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
}

static const char *display_source(const char *source) {
    if (source[0] == '=' || source[0] == '@')
        return source + 1;
    return source;
}

/* Walks the stack of T from `level0`; the first Lua frame with a line gives
 * the error's chunk and line unless the message carried its own. */
static void fill_frames(lua_State *T, int level0, rlua_error *e) {
    lua_Debug ar;
    int level = level0;
    e->frame_count = 0;
    while (lua_getstack(T, level++, &ar)) {
        if (e->frame_count == RLUA_FRAMES_MAX) {
            e->frames_truncated = 1;
            break;
        }
        if (!lua_getinfo(T, "Sln", &ar))
            continue;
        rlua_frame *f = &e->frames[e->frame_count++];
        const char *src = ar.what[0] == 'C' ? "[C]" : display_source(ar.source);
        copy_truncated(f->source, sizeof f->source, src, strlen(src), NULL);
        f->line = ar.currentline;
        if (ar.what[0] == 'm')
            snprintf(f->name, sizeof f->name, "main chunk");
        else if (ar.name != NULL)
            snprintf(f->name, sizeof f->name, "%s '%.60s'", ar.namewhat[0] ? ar.namewhat : "function", ar.name);
        else if (ar.what[0] == 'C')
            snprintf(f->name, sizeof f->name, "C function");
        else
            snprintf(f->name, sizeof f->name, "function <%.60s:%d>", display_source(ar.source), ar.linedefined);
    }
    if (e->line < 0) {
        for (int i = 0; i < e->frame_count; i++) {
            if (e->frames[i].line > 0) {
                snprintf(e->chunk, sizeof e->chunk, "%s", e->frames[i].source);
                e->line = e->frames[i].line;
                break;
            }
        }
    }
}

/* "chunk:LINE: text" → chunk, line and text. Returns 1 when it matched. */
static int split_position(const char *msg, size_t len, rlua_error *e, size_t *text_start) {
    for (size_t i = 0; i < len && msg[i] != '\n'; i++) {
        if (msg[i] != ':' || i == 0)
            continue;
        size_t j = i + 1, digits = 0;
        long line = 0;
        while (j < len && msg[j] >= '0' && msg[j] <= '9' && digits < 9) {
            line = line * 10 + (msg[j] - '0');
            j++;
            digits++;
        }
        if (digits > 0 && j + 1 < len && msg[j] == ':' && msg[j + 1] == ' ') {
            copy_truncated(e->chunk, sizeof e->chunk, msg, i, NULL);
            e->line = (int32_t)line;
            *text_start = j + 2;
            return 1;
        }
    }
    return 0;
}

void rlua_error_from_message(lua_State *L, int objidx, rlua_error *e) {
    rlua_error_clear(e);
    switch (lua_type(L, objidx)) {
    case LUA_TSTRING: {
        size_t len, start = 0;
        const char *msg = lua_tolstring(L, objidx, &len);
        split_position(msg, len, e, &start);
        copy_truncated(e->message, sizeof e->message, msg + start, len - start, &e->message_truncated);
        break;
    }
    case LUA_TNUMBER:
        /* lua_tolstring would convert in place and allocate: format here. */
        if (lua_isinteger(L, objidx))
            snprintf(e->message, sizeof e->message, "%lld", (long long)lua_tointeger(L, objidx));
        else
            snprintf(e->message, sizeof e->message, "%.14g", lua_tonumber(L, objidx));
        break;
    default:
        snprintf(e->message, sizeof e->message, "<error: %s>", lua_typename(L, lua_type(L, objidx)));
        break;
    }
}

int rlua_msgh(lua_State *L) {
    rlua_error *e = &rlua_ctl(L)->error;
    rlua_error_from_message(L, 1, e);
    fill_frames(L, 1, e); /* level 0 is this handler */
    return 1;
}

void rlua_error_from_thread_frames(lua_State *T, int level0, rlua_error *e) { fill_frames(T, level0, e); }

void rlua_error_from_thread(lua_State *T, int level0, int objidx, rlua_error *e) {
    rlua_error_from_message(T, objidx, e);
    fill_frames(T, level0, e);
}

int32_t rlua_classify(rlua_control *c, int status) {
    if (c->trip != TRIP_NONE) {
        /* Report where the budget first ran out, not where the sticky
         * re-raise finally unwound the call. */
        if (c->limit_error.message[0] != '\0') {
            c->error = c->limit_error;
        } else {
            /* Tripped by the allocator, and unwound by the memory error its
             * refusal raised: keep the position, say what really happened. */
            rlua_trip_message(c, c->error.message, sizeof c->error.message);
            c->error.message_truncated = 0;
        }
        switch (c->trip) {
        case TRIP_INSTRUCTIONS: return RLUA_E_INSTRUCTIONS;
        case TRIP_DEADLINE: return RLUA_E_DEADLINE;
        default: return RLUA_E_CANCELLED;
        }
    }
    switch (status) {
    case LUA_OK: return RLUA_OK;
    case LUA_YIELD: return RLUA_YIELDED;
    case LUA_ERRMEM: return RLUA_E_MEMORY;
    case LUA_ERRSYNTAX: return RLUA_E_SYNTAX;
    default:
        if (c->value_error)
            return RLUA_E_VALUE;
        /* lauxlib reports a refused buffer as a plain "not enough memory" error. */
        if (c->mem_refused && strcmp(c->error.message, "not enough memory") == 0)
            return RLUA_E_MEMORY;
        return RLUA_E_RUNTIME;
    }
}

int rlua_protect(lua_State *L, lua_CFunction f, void *ud, int nargs, int nresults) {
    rlua_control *c = rlua_ctl(L);
    int base = lua_gettop(L) - nargs;
    if (!lua_checkstack(L, 4)) {
        rlua_error_set(&c->error, "stack overflow in the host");
        return LUA_ERRMEM;
    }
    rlua_error_clear(&c->error);
    lua_pushcfunction(L, rlua_msgh);
    lua_pushcfunction(L, f);
    if (nargs > 0) { /* both below the arguments */
        lua_rotate(L, base + 1, 2);
    }
    c->protect_ud = ud; /* taken by f before anything else can run (rlua_take_ud) */
    int status = lua_pcall(L, nargs, nresults, base + 1);
    if (status == LUA_ERRMEM) {
        /* The message handler does not run for memory errors: use where a
         * guard saw the limit, if one did. */
        if (c->limit_error.frame_count > 0)
            c->error = c->limit_error;
        else
            rlua_error_set(&c->error, "not enough memory");
    } else if (status != LUA_OK && c->error.message[0] == '\0') {
        /* The handler itself failed (LUA_ERRERR): report what is left. */
        rlua_error_from_message(L, -1, &c->error);
    }
    if (status != LUA_OK || nresults == 0)
        lua_settop(L, base); /* the handler, and the error object if any */
    else
        lua_remove(L, base + 1);
    return status;
}

void *rlua_take_ud(lua_State *L) {
    rlua_control *c = rlua_ctl(L);
    void *ud = c->protect_ud;
    c->protect_ud = NULL;
    return ud;
}

int32_t rlua_entry_call(lua_State *L, lua_CFunction f, void *ud) {
    rlua_control *c = rlua_ctl(L);
    int base = lua_gettop(L);
    rlua_entry_begin(c, L);
    int status = rlua_protect(L, f, ud, 0, 0);
    int32_t result = rlua_classify(c, status);
    rlua_entry_end(c);
    lua_settop(L, base);
    return result;
}

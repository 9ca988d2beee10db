/* harness.h — runs one flow through the real C sandbox API the way the
 * engine does (ReflectEngine's FlowRun), for the sanitizer driver and the
 * fuzz targets.
 *
 * Sequence: rlua_control_new, rlua_open, rlua_define the global `flow` and a
 * test-only global `host`, rlua_load + rlua_call the flow source, a boot
 * chunk that turns the declaration into `function() return run(session) end`,
 * rlua_define the session module `reflect.session` (read-only), then
 * rlua_coroutine + rlua_resume until the flow finishes, fails or reaches
 * the step limit. Every value the sandbox hands back is checked to be a
 * well-formed encoding (cs_value_skip). Finally the state is probed (it must
 * still run a trivial chunk), closed, and the allocator must be back to 0.
 *
 * Host functions (all through the C trampoline, as the Swift host's are):
 *   flow(def)            returns def (a copy), as the engine's `flow` does
 *   s:ask{...} and the other prompts   yield; resumed with a canned answer
 *   s:quote(x), s:text(k), s:distortion(x), s:mood(), s:locale(),
 *   s:now(), s:random(m, n)            return values
 *   host.echo(...)       returns its arguments (a codec round trip)
 *   host.yield(...)      yields its arguments from inside the trampoline
 *   host.fail(...)       raises an error through the trampoline
 *   host.call(f, ...)    calls f back from the host (a nested rlua_call
 *                        that shares the running call's budget)
 */
#ifndef CSANDBOX_HARNESS_H
#define CSANDBOX_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include "rlua.h"

typedef struct cs_options {
    rlua_limits limits;   /* zero fields: rlua's defaults */
    uint64_t seed;
    int max_steps;        /* resumes after the first; 0: 64 */
    double total_seconds; /* stop starting new top-level calls after this; 0: no limit */
    const char *chunk;    /* display name; NULL: "flows/case.lua" */
    int digest;           /* compute cs_result.digest (costs a canonical copy of every value) */
} cs_options;

typedef struct cs_result {
    const char *stage;       /* the last stage reached: open, load, call, boot, session, coroutine, resume, done */
    int32_t status;          /* status of the call that ended the run (RLUA_OK when it finished) */
    int steps;               /* resumes performed */
    int finished;            /* the flow's function returned */
    double slowest_call;     /* seconds, the longest single rlua_* entry */
    const char *slowest_what;
    uint64_t digest;         /* FNV-1a of every output, print and error text, in order */
    size_t memory_peak;
    size_t memory_after_close;
    int probe_ok;            /* the state still ran a trivial chunk afterwards */
    int malformed_output;    /* an output buffer was not a well-formed encoding */
    size_t largest_crossing; /* bytes: the largest encoded value list the host received */
    char message[RLUA_MESSAGE_MAX + RLUA_SOURCE_MAX + 32];
} cs_result;

/* Runs `src` as a flow. Returns 0 when the run was contained in the
 * harness's sense (probe ran, allocator back to 0, outputs well formed);
 * the outcome itself is in *r. */
int cs_run_flow(const char *src, size_t len, const cs_options *o, cs_result *r);

const char *cs_status_name(int32_t status);

/* ---- the value encoding, read and written from the host side ---- */

/* Returns the end of the value starting at p, or NULL when malformed or
 * nested deeper than 300 levels. */
const uint8_t *cs_value_skip(const uint8_t *p, const uint8_t *end);
/* True when [p, end) is a sequence of well-formed values; *count gets how many. */
int cs_values_valid(const uint8_t *p, const uint8_t *end, int *count);
/* An order-independent canonical form of one value (tables as sorted key/value
 * pairs, array parts as integer keys), appended to *out. 0 on success. */
typedef struct cs_buf {
    uint8_t *p;
    size_t len, cap;
} cs_buf;
int cs_canonical(const uint8_t *p, const uint8_t *end, cs_buf *out, const uint8_t **next);
void cs_buf_free(cs_buf *b);
void cs_buf_put(cs_buf *b, const void *p, size_t n);

#endif

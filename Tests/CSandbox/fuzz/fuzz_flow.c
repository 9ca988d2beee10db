/* fuzz_flow.c — libFuzzer target: arbitrary bytes as a flow file.
 *
 * Each input runs through harness.c exactly as the engine runs a flow:
 * load (text only), the top-level call, the boot chunk, the session module,
 * then a coroutine resumed with canned answers. Limits are small so the
 * fuzzer keeps moving: 8 MiB, 10^6 instructions and 0.2 s per call, at most
 * 16 steps and no new call after 1 s.
 *
 * A finding is: any sanitizer report, a signal, a hang (libFuzzer's
 * -timeout), a leak, or a run the harness calls not contained (the state no
 * longer runs a trivial chunk, closing it does not return every byte, a
 * value handed back is malformed), or a single call running over 2 s, ten
 * times its budget (a C loop the count hook cannot see). */
#include <stdio.h>
#include <stdlib.h>
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cs_options o = { 0 };
    o.limits.memory_bytes = (size_t)8 << 20;
    o.limits.instructions = 1000000;
    o.limits.seconds = 0.2;
    o.max_steps = 16;
    o.total_seconds = 1.0;
    o.seed = 1;
    o.chunk = "flows/fuzz.lua";
    cs_result r;
    if (cs_run_flow((const char *)data, size, &o, &r) != 0) {
        fprintf(stderr, "fuzz-flow: not contained at %s (%s): probe %s, %zu bytes left after close, %d malformed values\n",
                r.stage, cs_status_name(r.status), r.probe_ok ? "ran" : "FAILED", r.memory_after_close,
                r.malformed_output);
        abort();
    }
    if (r.slowest_call > 2.0) {
        fprintf(stderr, "fuzz-flow: one %s call ran %.2f s with a 0.2 s budget (%s at %s)\n", r.slowest_what,
                r.slowest_call, cs_status_name(r.status), r.stage);
        abort();
    }
    return 0;
}

/* fuzz_pto.c — libFuzzer target: arbitrary bytes through parse, verify, print; a printed module must
 * re-parse to the same text (fixed point), and a valid module is run for a bounded number of steps with
 * small zeroed buffers, and so is its printed text (pretty and generic): both must end alike and leave the same
 * bytes; checking while parsing (pto_check) must report exactly what parse + verify report.
 * Any crash, sanitizer report, leak, hang, broken fixed point or difference is a finding. */
#include "ptosim.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* pto_check against pto_parse + pto_verify on fresh contexts: the same rendered diagnostics, in order. */
static void check_same(const uint8_t *data, size_t size)
{
    PtoContext *a = pto_context_new(), *b = pto_context_new();
    pto_set_max_errors(a, 20);
    pto_set_max_errors(b, 20);
    PtoModule *m = pto_parse(a, "fuzz.pto", (const char *)data, size);
    if (m && pto_error_count(a) == 0) pto_verify(m, PTO_TARGET_DEFAULT);
    long e = pto_check(b, "fuzz.pto", (const char *)data, size, PTO_TARGET_DEFAULT);
    if (!m || e < 0 || (size_t)e != pto_error_count(a) || pto_diag_count(a) != pto_diag_count(b)) abort();
    for (size_t i = 0; i < pto_diag_count(a); i++) {
        char *x = pto_diag_render(a, i, 0), *y = pto_diag_render(b, i, 0);
        if (!x || !y || strcmp(x, y) != 0) abort();
        pto_free(x);
        pto_free(y);
    }
    pto_module_free(m);
    pto_context_free(a);
    pto_context_free(b);
}

/* Runs a verified module on four zeroed 4 KiB buffers (scalars 1 and 1.0) for at most 20,000 steps; the buffers
   as the run left them in bufs. Returns pto_launch_run's status, or -1 when no launch could be made. */
static int run_bounded(PtoModule *m, uint8_t bufs[4][4096])
{
    PtoLaunch *l = pto_launch_new(m, NULL, PTO_TARGET_DEFAULT);
    if (!l) return -1;
    memset(bufs, 0, 4 * 4096);
    unsigned np = pto_launch_num_params(l);
    for (unsigned i = 0; i < np; i++) {
        PtoParamInfo pi;
        pto_launch_param(l, i, &pi);
        if (pi.kind == PTO_PARAM_PTR) pto_launch_bind_buffer(l, i, bufs[i & 3], 4096);
        else if (pi.kind == PTO_PARAM_FLOAT) pto_launch_bind_float(l, i, 1.0);
        else pto_launch_bind_int(l, i, 1);
    }
    pto_launch_set_step_limit(l, 20000);
    int st = pto_launch_run(l, 1);
    pto_launch_free(l);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    check_same(data, size);
    PtoContext *ctx = pto_context_new();
    pto_set_max_errors(ctx, 20);
    PtoModule *m = pto_parse(ctx, "fuzz.pto", (const char *)data, size);
    if (m && pto_error_count(ctx) == 0) {
        char *a = pto_print(m, 0);
        PtoContext *c2 = pto_context_new();
        PtoModule *m2 = pto_parse(c2, "fuzz2.pto", a, strlen(a));
        if (pto_error_count(c2) == 0) {
            char *b = pto_print(m2, 0);
            if (strcmp(a, b) != 0) abort();   /* the printer must be a fixed point */
            pto_free(b);
        } else {
            abort();                            /* printed text must parse again */
        }
        pto_module_free(m2);
        pto_context_free(c2);
        pto_free(a);
        char *g = pto_print(m, 1);
        pto_free(g);
        static const PtoTarget ts[] = {PTO_TARGET_A5, PTO_TARGET_A2A3, PTO_TARGET_CPU};
        size_t errs = 0;
        for (int i = 0; i < 3; i++) errs += pto_verify(m, ts[i]);
        if (pto_verify(m, PTO_TARGET_DEFAULT) == 0 && errs == 0) {
            static uint8_t want[4][4096], got[4][4096];
            int st = run_bounded(m, want);
            /* the formatted kernel, in both spellings, computes the same bytes with the same outcome (issue 33:
               a printer that changes a value is a silent wrong answer the fixed point above cannot see) */
            for (int generic = 0; generic < 2 && st != -1; generic++) {
                char *t = pto_print(m, generic);
                PtoContext *c3 = pto_context_new();
                PtoModule *m3 = t ? pto_parse(c3, "fuzz3.pto", t, strlen(t)) : NULL;
                if (m3 && pto_error_count(c3) == 0 && pto_verify(m3, PTO_TARGET_DEFAULT) == 0) {
                    if (run_bounded(m3, got) != st || memcmp(want, got, sizeof want) != 0) abort();
                }
                pto_module_free(m3);
                pto_context_free(c3);
                pto_free(t);
            }
        }
    }
    pto_module_free(m);
    pto_context_free(ctx);
    return 0;
}

/* test_reliability.c — the library half of issue 33 (tests/reliability holds the command-line half):
 *   - pto_print on a module with parse errors returns NULL with E-USAGE (it used to dereference NULL);
 *   - one context used by two threads at once: calls are refused, E-THREAD is reported, nothing is corrupted;
 *   - a host with flush-to-zero / denormals-are-zero set (x86 MXCSR) or rounding upward gets the same f32 bits,
 *     and finds its own modes restored after each call.
 * Expected bits are worked out here by hand (IEEE 754 binary32). */
#include "ptosim.h"
#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <pmmintrin.h>
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#include "check.h"

static int has_id(PtoContext *ctx, const char *id)
{
    for (size_t i = 0; i < pto_diag_count(ctx); i++) {
        PtoDiagInfo d;
        if (pto_diag_get(ctx, i, &d) == 0 && d.id && !strcmp(d.id, id)) return 1;
    }
    return 0;
}

static void print_after_parse_errors(void)
{
    PtoContext *ctx = pto_context_new();
    const char *bad = "module {\n  func.func @f( {\n}\n";
    PtoModule *m = pto_parse(ctx, "bad.pto", bad, strlen(bad));
    CHECK(m != NULL && pto_error_count(ctx) > 0, "the text has parse errors");
    char *s = m ? pto_print(m, 0) : NULL;
    CHECK(s == NULL, "pto_print refuses a module with parse errors");
    CHECK(has_id(ctx, "E-USAGE"), "and says why (E-USAGE)");
    CHECK(pto_print(NULL, 0) == NULL, "pto_print(NULL)");
    pto_free(s);
    pto_module_free(m);
    pto_context_free(ctx);
}

/* ---- two threads on one context ---- */
enum { ROUNDS = 300 };
typedef struct Worker {
    PtoContext *ctx;
    const char *text;
    PtoModule *mods[ROUNDS];
    int refused;
} Worker;

static void *worker(void *p)
{
    Worker *w = p;
    for (int i = 0; i < ROUNDS; i++) {
        w->mods[i] = pto_parse(w->ctx, "t.pto", w->text, strlen(w->text));
        if (!w->mods[i]) w->refused++;
    }
    return NULL;
}

static void two_threads(void)
{
    /* a module big enough that the two threads' parses overlap */
    size_t cap = 1 << 20, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, "module attributes {pto.target_arch = \"a5\"} {\n  func.func @f() {\n");
    for (int i = 0; i < 2000; i++) n += (size_t)snprintf(text + n, cap - n, "    %%c%d = arith.constant %d : i64\n", i, i);
    snprintf(text + n, cap - n, "    return\n  }\n}\n");
    PtoContext *ctx = pto_context_new();
    Worker w[2] = {{ctx, text, {0}, 0}, {ctx, text, {0}, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, &w[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    int refused = w[0].refused + w[1].refused, parsed = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ROUNDS; i++) parsed += w[k].mods[i] != NULL;
    CHECK(parsed + refused == 2 * ROUNDS, "every call parsed or was refused");
    CHECK(refused == 0 || has_id(ctx, "E-THREAD"), "%d refused calls were reported (E-THREAD)", refused);
    CHECK(refused > 0 || !has_id(ctx, "E-THREAD"), "no E-THREAD without a refused call");
    printf("two threads on one context: %d parsed, %d refused\n", parsed, refused);
    /* the context is whole: a module parsed afterwards prints as expected */
    PtoModule *m = pto_parse(ctx, "after.pto", "module {\n}\n", 11);
    char *s = m ? pto_print(m, 0) : NULL;
    CHECK(s && !strcmp(s, "module {\n}\n"), "the context still works: '%s'", s ? s : "(null)");
    pto_free(s);
    pto_module_free(m);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ROUNDS; i++) pto_module_free(w[k].mods[i]);
    pto_context_free(ctx);
    free(text);
}

/* ---- host floating-point modes ---- */
static const char *fkernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c2 = arith.constant 2 : index\n"
    "    %c3 = arith.constant 3 : index\n"
    "    %a = pto.load_scalar %in[%c0] : !pto.ptr<f32, gm> -> f32\n"
    "    %b = pto.load_scalar %in[%c1] : !pto.ptr<f32, gm> -> f32\n"
    "    %c = pto.load_scalar %in[%c2] : !pto.ptr<f32, gm> -> f32\n"
    "    %d = pto.load_scalar %in[%c3] : !pto.ptr<f32, gm> -> f32\n"
    "    %r0 = arith.mulf %a, %b : f32\n"
    "    pto.store_scalar %r0, %out[%c0] : !pto.ptr<f32, gm>, f32\n"
    "    %r1 = arith.mulf %c, %d : f32\n"
    "    pto.store_scalar %r1, %out[%c1] : !pto.ptr<f32, gm>, f32\n"
    "    %r2 = arith.addf %b, %b : f32\n"
    "    %r3 = arith.divf %r2, %d : f32\n"
    "    pto.store_scalar %r3, %out[%c2] : !pto.ptr<f32, gm>, f32\n"
    "    return\n"
    "  }\n"
    "}\n";

static void run_fkernel(const char *mode)
{
    /* in: 2^-70 (0x1C800000), 2^-70, 2^-140 (subnormal: 2^-149 * 2^9 = 0x200), 3 (0x40400000).
       out[0] = 2^-70 * 2^-70 = 2^-140 = 0x00000200 (a subnormal result: flush-to-zero would give 0);
       out[1] = 2^-140 * 3 = 3 * 2^9 * 2^-149 = 0x00000600 (a subnormal input: denormals-are-zero would give 0);
       out[2] = (2^-70 + 2^-70) / 3 = 2^-69 / 3 = (4/3) x 2^-71 = 1.010101...b x 2^-71. The 23 fraction bits
                are (4/3 - 1) x 2^23 = 2796202.67: 2796202 = 0x2AAAAA with 2/3 of an ulp left over, which rounds
                up to nearest (and upward): 0x2AAAAB. Toward zero would give 0x2AAAAA. Biased exponent
                127 - 71 = 56: bits 56 << 23 | 0x2AAAAB = 0x1C2AAAAB. */
    const uint32_t in[4] = {0x1C800000u, 0x1C800000u, 0x00000200u, 0x40400000u};
    const uint32_t want[3] = {0x00000200u, 0x00000600u, 0x1C2AAAABu};
    uint32_t inb[8], out[8];
    memcpy(inb, in, sizeof in);
    memset(out, 0xEE, sizeof out);
    PtoContext *ctx = pto_context_new();
    PtoModule *m = pto_parse(ctx, "fp.pto", fkernel, strlen(fkernel));
    CHECK(m && pto_error_count(ctx) == 0 && pto_verify(m, PTO_TARGET_DEFAULT) == 0, "%s: the kernel verifies", mode);
    PtoLaunch *l = m ? pto_launch_new(m, NULL, PTO_TARGET_DEFAULT) : NULL;
    CHECK(l != NULL, "%s: launch", mode);
    if (l) {
        pto_launch_bind_buffer(l, 0, inb, sizeof inb);
        pto_launch_bind_buffer(l, 1, out, sizeof out);
        pto_launch_set_output(l, 1, 1);
        CHECK(pto_launch_run(l, 1) == 0, "%s: run", mode);
        for (int i = 0; i < 3; i++)
            CHECK(out[i] == want[i], "%s: out[%d] = 0x%08X, want 0x%08X", mode, i, out[i], want[i]);
    }
    pto_launch_free(l);
    pto_module_free(m);
    pto_context_free(ctx);
}

static void host_fp_modes(void)
{
    run_fkernel("default modes");
#ifdef HAVE_MXCSR
    unsigned saved = _mm_getcsr();
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
    /* the host really flushes now (volatile: computed at run time) */
    volatile float tiny = 0x1p-70f, sub = 0x1p-140f;
    CHECK(tiny * tiny == 0.0f || sub * 3.0f == 0.0f, "the host flushes subnormals under FTZ/DAZ");
    unsigned csr = _mm_getcsr();
    run_fkernel("FTZ+DAZ host");
    CHECK(_mm_getcsr() == csr, "the host's MXCSR is restored (0x%X, was 0x%X)", _mm_getcsr(), csr);
    _mm_setcsr(saved);
#else
    printf("SKIP: FTZ/DAZ part (not an x86 host)\n");
#endif
    int r = fegetround();
    if (fesetround(FE_TOWARDZERO) == 0) {   /* host division would give 0x1C2AAAAA here */
        run_fkernel("rounding toward zero");
        CHECK(fegetround() == FE_TOWARDZERO, "the host's rounding mode is restored");
        fesetround(r);
    }
}

int main(void)
{
    print_after_parse_errors();
    two_threads();
    host_fp_modes();
    return check_finish();
}

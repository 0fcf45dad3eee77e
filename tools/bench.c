/* bench.c — `make bench`: throughput of the simulator against the physical limit, measured in one run.
 *   1. vector: a pto.vadd f32 kernel over UB (vlds, vlds, vadd, vsts per 64 lanes) vs a native C loop
 *      doing the same loads, adds and stores over arrays of the same size;
 *   2. DMA: a 64 KiB contiguous pto.mte_gm_ub vs host memcpy of 64 KiB.
 * Each side is timed as the best of several repetitions; the printed ratio is native time / simulated
 * time for the same work (1.0 = as fast as the host). Wall-clock numbers never gate a test. */
#include "ptosim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum { N = 16384, REPS = 200, DMA_REPS = 2000 };

static const char *vadd_kernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @vadd_bench(%reps: index) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c64 = arith.constant 64 : index\n"
    "    %cn = arith.constant 16384 : index\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c65536 = arith.constant 65536 : i64\n"
    "    %c131072 = arith.constant 131072 : i64\n"
    "    %a = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %b = pto.castptr %c65536 : i64 -> !pto.ptr<f32, ub>\n"
    "    %c = pto.castptr %c131072 : i64 -> !pto.ptr<f32, ub>\n"
    "    pto.vecscope {\n"
    "      %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "      scf.for %r = %c0 to %reps step %c1 {\n"
    "        scf.for %i = %c0 to %cn step %c64 {\n"
    "          %x = pto.vlds %a[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "          %y = pto.vlds %b[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "          %z = pto.vadd %x, %y, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "          pto.vsts %z, %c[%i], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

static const char *dma_kernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @dma_bench(%src: !pto.ptr<ui8, gm>, %reps: index) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c64 = arith.constant 64 : i64\n"
    "    %c1024 = arith.constant 1024 : i64\n"
    "    %ub = pto.castptr %c0_i64 : i64 -> !pto.ptr<ui8, ub>\n"
    "    scf.for %r = %c0 to %reps step %c1 {\n"
    "      pto.mte_gm_ub %src, %ub, %c0_i64, %c1024 nburst(%c64, %c1024, %c1024)\n"
    "        : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
    "    }\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

/* Runs `text` with `reps`; `mode` 1: with the performance view recording a trace and a profile, 2: with
   the full sanitizer (races, initcheck, unwritten outputs) as `ptosim run` has it. Returns seconds, or -1
   with diagnostics printed. */
enum { VIEW = 1, SANITIZE = 2 };
static double run_sim_view(const char *name, const char *text, void *buf, size_t bufsize, long reps, int mode)
{
    PtoContext *ctx = pto_context_new();
    PtoModule *m = pto_parse(ctx, name, text, strlen(text));
    double t = -1;
    if (m && pto_error_count(ctx) == 0 && pto_verify(m, PTO_TARGET_DEFAULT) == 0) {
        PtoLaunch *l = pto_launch_new(m, NULL, PTO_TARGET_DEFAULT);
        if (l) {
            unsigned k = 0;
            if (buf) pto_launch_bind_buffer(l, k++, buf, bufsize);
            pto_launch_bind_int(l, k, reps);
            pto_launch_set_trace(l, mode == VIEW);
            pto_launch_set_profile(l, mode == VIEW);
            pto_launch_set_checks(l, PTO_CHECK_ALL, mode == SANITIZE);
            double t0 = now();
            int rc = pto_launch_run(l, 1);
            t = rc == 0 ? now() - t0 : -1;
            pto_launch_free(l);
        }
    }
    for (size_t i = 0; i < pto_diag_count(ctx); i++) {   /* errors only: the sanitizer runs warn by design */
        PtoDiagInfo di;
        if (pto_diag_get(ctx, i, &di) || di.severity < PTO_SEV_ERROR) continue;
        char *s = pto_diag_render(ctx, i, 0);
        fputs(s, stderr);
        pto_free(s);
    }
    pto_module_free(m);
    pto_context_free(ctx);
    return t;
}

static double run_sim(const char *name, const char *text, void *buf, size_t bufsize, long reps)
{
    return run_sim_view(name, text, buf, bufsize, reps, 0);
}

/* The native reference: the same loads, adds and stores over plain arrays, built like the rest of the tool
   (baseline ISA). On x86-64 a second copy is built for AVX2, printed for reference: the simulator's own
   vector handlers use AVX2 when the host has it. */
#define NATIVE_BODY                                                                                            \
    for (long r = 0; r < reps; r++) {                                                                          \
        for (int i = 0; i < N; i++) c[i] = a[i] + b[i];                                                         \
        __asm__ __volatile__("" : : "r"(c) : "memory"); /* keep every repetition */                           \
    }
__attribute__((noinline)) static void native_vadd(float *restrict c, const float *restrict a,
                                                  const float *restrict b, long reps)
{
    NATIVE_BODY
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_AVX2_REF 1
__attribute__((noinline, target("avx2"))) static void native_vadd_avx2(float *restrict c, const float *restrict a,
                                                                      const float *restrict b, long reps)
{
    NATIVE_BODY
}
#endif

static double timed_native(void (*f)(float *restrict, const float *restrict, const float *restrict, long), float *c,
                           const float *a, const float *b)
{
    double t0 = now();
    f(c, a, b, REPS);
    return now() - t0;
}

static double dma_native(unsigned char *dst, const unsigned char *src, size_t bytes)
{
    double t0 = now();
    for (long r = 0; r < DMA_REPS; r++) {
        memcpy(dst, src, bytes);
        __asm__ __volatile__("" : : "r"(dst) : "memory");
    }
    return now() - t0;
}

static void minimise(double *best, double t)
{
    if (t < 0 || *best < 0) *best = -1;
    else if (t < *best) *best = t;
}

/* Each measurement is the best of ROUNDS; native and simulated runs alternate so that both see the same
   machine load. */
enum { ROUNDS = 7 };

int main(void)
{
    /* vector */
    float *a = aligned_alloc(64, N * 4), *b = aligned_alloc(64, N * 4), *c = aligned_alloc(64, N * 4);
    for (int i = 0; i < N; i++) { a[i] = (float)i * 0.5f; b[i] = 1.0f - (float)i; }
    double tn = 1e9, tw = 1e9, ts = 1e9;
    for (int k = 0; k < ROUNDS && ts > 0; k++) {
        minimise(&tn, timed_native(native_vadd, c, a, b));
#ifdef HAVE_AVX2_REF
        if (__builtin_cpu_supports("avx2")) minimise(&tw, timed_native(native_vadd_avx2, c, a, b));
#endif
        minimise(&ts, run_sim("vadd_bench.pto", vadd_kernel, NULL, 0, REPS));
    }
    if (ts < 0) fprintf(stderr, "bench: the vadd kernel did not run\n");
    double elems = (double)N * REPS;
    printf("vector  vadd f32 over UB: %.0f Melem/s simulated, %.0f Melem/s native C loop", ts > 0 ? elems / ts / 1e6 : 0.0,
           elems / tn / 1e6);
    if (ts > 0) printf("  -> ratio %.3f (target >= 0.25)\n", tn / ts);
    else printf("  -> ratio n/a\n");
    if (tw < 1e9 && ts > 0)
        printf("        (native loop built for AVX2: %.0f Melem/s -> ratio %.3f)\n", elems / tw / 1e6, tw / ts);

    /* DMA */
    size_t bytes = 65536;
    unsigned char *src = malloc(bytes), *dst = malloc(bytes);
    for (size_t i = 0; i < bytes; i++) src[i] = (unsigned char)i;
    double tm = 1e9, td = 1e9;
    for (int k = 0; k < ROUNDS && td > 0; k++) {
        minimise(&tm, dma_native(dst, src, bytes));
        minimise(&td, run_sim("dma_bench.pto", dma_kernel, src, bytes, DMA_REPS));
    }
    if (td < 0) fprintf(stderr, "bench: the DMA kernel did not run\n");
    double gb = (double)bytes * DMA_REPS / 1e9;
    printf("dma     64 KiB mte_gm_ub:   %.1f GB/s simulated, %.1f GB/s host memcpy", td > 0 ? gb / td : 0.0, gb / tm);
    if (td > 0) printf("  -> ratio %.3f (target >= 0.5)\n", tm / td);
    else printf("  -> ratio n/a\n");

    /* the performance view: the same runs recording a trace and a profile */
    double tvt = 1e9, tdt = 1e9;
    for (int k = 0; k < ROUNDS && tvt > 0 && tdt > 0; k++) {
        minimise(&tvt, run_sim_view("vadd_bench.pto", vadd_kernel, NULL, 0, REPS, VIEW));
        minimise(&tdt, run_sim_view("dma_bench.pto", dma_kernel, src, bytes, DMA_REPS, VIEW));
    }
    if (tvt > 0 && tdt > 0 && ts > 0 && td > 0)
        printf("view    --trace --profile slowdown: vadd %.2fx, dma %.2fx (one trace event per copy; target < 2x)\n",
               tvt / ts, tdt / td);
    /* the sanitizer: races between pipes, cores and blocks, initcheck, unwritten outputs */
    double tvs = 1e9, tds = 1e9;
    for (int k = 0; k < ROUNDS && tvs > 0 && tds > 0; k++) {
        minimise(&tvs, run_sim_view("vadd_bench.pto", vadd_kernel, NULL, 0, REPS, SANITIZE));
        minimise(&tds, run_sim_view("dma_bench.pto", dma_kernel, src, bytes, DMA_REPS, SANITIZE));
    }
    if (tvs > 0 && tds > 0 && ts > 0 && td > 0)
        printf("check   full sanitizer slowdown: vadd %.2fx, dma %.2fx (target < 3x; ThreadSanitizer costs 5-15x)\n",
               tvs / ts, tds / td);
    free(a); free(b); free(c); free(src); free(dst);
    return 0;
}

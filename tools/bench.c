/* bench.c — `make bench`: throughput of the simulator against the physical limit, measured in one run.
 *   1. vector: a pto.vadd f32 kernel over UB (vlds, vlds, vadd, vsts per 64 lanes) vs a native C loop
 *      doing the same loads, adds and stores over arrays of the same size;
 *   2. DMA: a 64 KiB contiguous pto.mte_gm_ub vs host memcpy of 64 KiB;
 *   3. tile: row softmax over 64 x 1024 f32 as a tile kernel vs the same math in a native C loop.
 * Each side is timed as the best of several repetitions; the printed ratio is native time / simulated
 * time for the same work (1.0 = as fast as the host); the tile line takes CPU time (the simulation runs on one
 * thread), the others wall-clock time. Wall-clock numbers never gate a test. */
#include "ptosim.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }
static double cpu_now(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }
static double last_cpu;   /* CPU seconds (every thread) of the last simulated run */

/* REPS: enough trips that the launch's set-up (a few page faults per buffer touched) is a small part of the
   simulated run, as it is of any real kernel's. */
enum { N = 16384, REPS = 2000, DMA_REPS = 2000, SOFT_REPS = 100 };

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

/* A softmax-like scope over 64-element rows: exp, a sum across the lanes, that sum to every lane, divide,
   narrow to f16. The input comes from GM (moderate values, so exp neither overflows nor flushes). */
static const char *soft_kernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @soft_bench(%src: !pto.ptr<f32, gm>, %reps: index) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c2 = arith.constant 2 : index\n"
    "    %c64 = arith.constant 64 : index\n"
    "    %cn = arith.constant 16384 : index\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c256_i64 = arith.constant 256 : i64\n"
    "    %c65536 = arith.constant 65536 : i64\n"
    "    %a = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %h = pto.castptr %c65536 : i64 -> !pto.ptr<f16, ub>\n"
    "    pto.mte_gm_ub %src, %a, %c0_i64, %c256_i64 nburst(%c256_i64, %c256_i64, %c256_i64)\n"
    "      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.vecscope {\n"
    "      %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "      %m16 = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
    "      scf.for %r = %c0 to %reps step %c1 {\n"
    "        scf.for %i = %c0 to %cn step %c64 {\n"
    "          %x = pto.vlds %a[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "          %e = pto.vexp %x, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "          %s = pto.vcadd %e, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "          %sb = pto.vdup %s, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "          %q = pto.vdiv %e, %sb, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "          %y = pto.vcvt %q, %m {rnd = \"R\", sat = \"NOSAT\", part = \"EVEN\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\n"
    "          %j = arith.muli %i, %c2 : index\n"
    "          pto.vsts %y, %h[%j], %m16 : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.mask<b16>\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

/* The same arithmetic in C, per 64-element row: expf, the sum, the division, the f16 narrowing (round to
   nearest even, as the kernel's rnd = "R"), into the even halves of a 128-lane row like the kernel's store. */
static uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (e == 0xff) return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    int32_t ee = (int32_t)e - 127 + 15;
    if (ee >= 31) return (uint16_t)(sign | 0x7c00u);
    if (ee <= 0) {
        if (ee < -10) return (uint16_t)sign;
        m |= 0x800000u;
        uint32_t sh = (uint32_t)(14 - ee), r = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
        if (rem > half || (rem == half && (r & 1))) r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = ((uint32_t)ee << 10) | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1))) r++;
    return (uint16_t)(sign | r);
}

__attribute__((noinline)) static void native_soft(uint16_t *restrict h, const float *restrict a, long reps)
{
    for (long r = 0; r < reps; r++) {
        for (int i = 0; i < N; i += 64) {
            float e[64], s = 0;
            for (int j = 0; j < 64; j++) e[j] = expf(a[i + j]);
            for (int j = 0; j < 64; j++) s += e[j];
            for (int j = 0; j < 64; j++) h[2 * (i + j)] = f32_to_f16(e[j] / s);
        }
        __asm__ __volatile__("" : : "r"(h) : "memory");
    }
}

/* VMI: scale-and-convert over 256-lane logical vectors (K = 4 registers in, 2 out): y = f16(x * s) with the
   saturating narrowing (vload, vmuls, vcvt {saturate = "SAT"}, vstore), the f16 result copied back to GM so
   the bench compares it with the native loop's bit for bit. */
enum { VMI_REPS = 200 };
static const char *vmi_kernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @vmi_bench(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f16, gm>, %reps: index) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c256 = arith.constant 256 : index\n"
    "    %cn = arith.constant 16384 : index\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c128_i64 = arith.constant 128 : i64\n"
    "    %c256_i64 = arith.constant 256 : i64\n"
    "    %c65536 = arith.constant 65536 : i64\n"
    "    %s = arith.constant 0x3EBD70A4 : f32\n"
    "    %a = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %h = pto.castptr %c65536 : i64 -> !pto.ptr<f16, ub>\n"
    "    pto.mte_gm_ub %src, %a, %c0_i64, %c256_i64 nburst(%c256_i64, %c256_i64, %c256_i64)\n"
    "      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.vecscope {\n"
    "      %all = pto.vmi.create_mask %c256 : index -> !pto.vmi.mask<256xpred>\n"
    "      scf.for %r = %c0 to %reps step %c1 {\n"
    "        scf.for %i = %c0 to %cn step %c256 {\n"
    "          %x = pto.vmi.vload %a[%i] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<256xf32>\n"
    "          %y = pto.vmi.vmuls %x, %s, %all : !pto.vmi.vreg<256xf32>, f32, !pto.vmi.mask<256xpred> -> !pto.vmi.vreg<256xf32>\n"
    "          %z = pto.vmi.vcvt %y {saturate = \"SAT\"} : !pto.vmi.vreg<256xf32> -> !pto.vmi.vreg<256xf16>\n"
    "          pto.vmi.vstore %z, %h[%i] : !pto.vmi.vreg<256xf16>, !pto.ptr<f16, ub>\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "    pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.mte_ub_gm %h, %dst, %c128_i64 nburst(%c256_i64, %c128_i64, %c128_i64)\n"
    "      : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

/* The same math in C: the f32 product (host IEEE, nearest-even), narrowed to f16 nearest-even with the
   kernel's saturation (overflow and inf to the largest finite value, NaN to +0). */
static uint16_t f32_to_f16_sat(float f)
{
    if (f != f) return 0;
    uint16_t r = f32_to_f16(f);
    return (r & 0x7fffu) == 0x7c00u ? (uint16_t)((r & 0x8000u) | 0x7bffu) : r;
}

__attribute__((noinline)) static void native_vmi(uint16_t *restrict h, const float *restrict a, float s, long reps)
{
    for (long r = 0; r < reps; r++) {
        for (int i = 0; i < N; i++) h[i] = f32_to_f16_sat(a[i] * s);
        __asm__ __volatile__("" : : "r"(h) : "memory");
    }
}

/* Runs a one-function kernel `text` over two GM buffers and a repetition count, one block on one thread with
   every check on; `clock` measures it. Seconds, or -1 with the diagnostics printed. */
static double run_sim2(const char *name, const char *text, const void *in, size_t in_bytes, void *out, size_t out_bytes,
                       long reps, double (*clock)(void))
{
    PtoContext *ctx = pto_context_new();
    PtoModule *m = pto_parse(ctx, name, text, strlen(text));
    double t = -1;
    if (m && pto_error_count(ctx) == 0 && pto_verify(m, PTO_TARGET_DEFAULT) == 0) {
        PtoLaunch *l = pto_launch_new(m, NULL, PTO_TARGET_DEFAULT);
        if (l) {
            pto_launch_bind_buffer(l, 0, (void *)in, in_bytes);
            pto_launch_bind_buffer(l, 1, out, out_bytes);
            pto_launch_bind_int(l, 2, reps);
            pto_launch_set_checks(l, PTO_CHECK_ALL, 0);
            pto_launch_set_jobs(l, 1);
            double t0 = clock();
            int rc = pto_launch_run(l, 1);
            t = rc == 0 ? clock() - t0 : -1;
            pto_launch_free(l);
        }
    }
    for (size_t i = 0; i < pto_diag_count(ctx); i++) {
        PtoDiagInfo di;
        if (pto_diag_get(ctx, i, &di) || di.severity < PTO_SEV_ERROR) continue;
        char *d = pto_diag_render(ctx, i, 0);
        fputs(d ? d : "bench: out of memory rendering a diagnostic\n", stderr);
        pto_free(d);
    }
    pto_module_free(m);
    pto_context_free(ctx);
    return t;
}

/* Tile: row softmax over 64 x 1024 f32 as a tile kernel (auto-sync), eight rows per step: tload, trowmax,
   trowexpandsub, texp, trowsum, trowexpanddiv, tstore; the result compared bit for bit with the native loop. */
enum { TS_ROWS = 64, TS_COLS = 1024, TS_REPS = 20 };
static const char *tile_kernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @tile_softmax(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>, %reps: index) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c8 = arith.constant 8 : index\n"
    "    %c64 = arith.constant 64 : index\n"
    "    %c1024 = arith.constant 1024 : index\n"
    "    %sv = pto.make_tensor_view %src, shape = [%c64, %c1024], strides = [%c1024, %c1] : !pto.tensor_view<64x1024xf32>\n"
    "    %dv = pto.make_tensor_view %dst, shape = [%c64, %c1024], strides = [%c1024, %c1] : !pto.tensor_view<64x1024xf32>\n"
    "    %x = pto.alloc_tile : !pto.tile_buf<vec, 8x1024xf32>\n"
    "    %y = pto.alloc_tile : !pto.tile_buf<vec, 8x1024xf32>\n"
    "    %m = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32, valid=8x1>\n"
    "    %s = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32, valid=8x1>\n"
    "    scf.for %r = %c0 to %reps step %c1 {\n"
    "      scf.for %b = %c0 to %c64 step %c8 {\n"
    "        %sp = pto.partition_view %sv, offsets = [%b, %c0], sizes = [%c8, %c1024] : !pto.tensor_view<64x1024xf32> -> "
    "!pto.partition_tensor_view<8x1024xf32>\n"
    "        %dp = pto.partition_view %dv, offsets = [%b, %c0], sizes = [%c8, %c1024] : !pto.tensor_view<64x1024xf32> -> "
    "!pto.partition_tensor_view<8x1024xf32>\n"
    "        pto.tload ins(%sp : !pto.partition_tensor_view<8x1024xf32>) outs(%x : !pto.tile_buf<vec, 8x1024xf32>)\n"
    "        pto.trowmax ins(%x : !pto.tile_buf<vec, 8x1024xf32>) outs(%m : !pto.tile_buf<vec, 8x8xf32, valid=8x1>)\n"
    "        pto.trowexpandexpdif ins(%x, %m : !pto.tile_buf<vec, 8x1024xf32>, !pto.tile_buf<vec, 8x8xf32, valid=8x1>) "
    "outs(%y : !pto.tile_buf<vec, 8x1024xf32>)\n"
    "        pto.trowsum ins(%y : !pto.tile_buf<vec, 8x1024xf32>) outs(%s : !pto.tile_buf<vec, 8x8xf32, valid=8x1>)\n"
    "        pto.trowexpanddiv ins(%y, %s : !pto.tile_buf<vec, 8x1024xf32>, !pto.tile_buf<vec, 8x8xf32, valid=8x1>) "
    "outs(%y : !pto.tile_buf<vec, 8x1024xf32>)\n"
    "        pto.tstore ins(%y : !pto.tile_buf<vec, 8x1024xf32>) outs(%dp : !pto.partition_tensor_view<8x1024xf32>)\n"
    "      }\n"
    "    }\n"
    "    return\n"
    "  }\n"
    "}\n";

/* The same math in C, in the tile ops' order (docs/semantics.md §14.2): the row maximum; exp(x - max) of the
   exact difference, rounded once to f32 (vexpdif's lane: a binary64 exp rounded to f32); the row sum as a pairwise
   tree over each 64-lane chunk, chunk sums added in order from +0; the quotient. f32 sums, differences and
   quotients in host float arithmetic are the lanes' correctly rounded results. */
__attribute__((noinline)) static void native_tile_softmax(float *restrict out, const float *restrict in, long reps)
{
    for (long r = 0; r < reps; r++) {
        for (int i = 0; i < TS_ROWS; i++) {
            const float *x = in + (size_t)i * TS_COLS;
            float *y = out + (size_t)i * TS_COLS;
            float mx = -3.40282347e38f;
            for (int c = 0; c < TS_COLS; c++) mx = x[c] > mx ? x[c] : mx;
            for (int c = 0; c < TS_COLS; c++) y[c] = (float)exp((double)x[c] - (double)mx);
            float sum = 0.0f;
            for (int c = 0; c < TS_COLS; c += 64) {
                float v[64];
                memcpy(v, y + c, sizeof v);
                for (int n = 64; n > 1; n /= 2)
                    for (int k = 0; k < n / 2; k++) v[k] = v[2 * k] + v[2 * k + 1];
                sum += v[0];
            }
            for (int c = 0; c < TS_COLS; c++) y[c] = y[c] / sum;
        }
        __asm__ __volatile__("" : : "r"(out) : "memory");
    }
}

/* Blocks of equal work: each block loads its 64 KiB slice of GM into UB, adds it to itself `reps` times
   with vadd, and stores it back to its slice. */
static const char *blocks_kernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @blocks_bench(%gm: !pto.ptr<f32, gm>, %reps: index) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c64 = arith.constant 64 : index\n"
    "    %cn = arith.constant 16384 : index\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c16384 = arith.constant 16384 : i64\n"
    "    %c64_i64 = arith.constant 64 : i64\n"
    "    %c1024 = arith.constant 1024 : i64\n"
    "    %b = pto.get_block_idx\n"
    "    %o = arith.muli %b, %c16384 : i64\n"
    "    %g = pto.addptr %gm, %o : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>\n"
    "    %a = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    pto.mte_gm_ub %g, %a, %c0_i64, %c1024 nburst(%c64_i64, %c1024, %c1024)\n"
    "      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.vecscope {\n"
    "      %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "      scf.for %r = %c0 to %reps step %c1 {\n"
    "        scf.for %i = %c0 to %cn step %c64 {\n"
    "          %x = pto.vlds %a[%i] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "          %z = pto.vadd %x, %x, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "          pto.vsts %z, %a[%i], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "    pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.mte_ub_gm %a, %g, %c1024 nburst(%c64_i64, %c1024, %c1024)\n"
    "      : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

/* MAD: a 128x128x64 pto.mad repeated `reps` times on the L0 tiles (their contents do not change the work). */
enum { MM = 128, MN = 128, MK = 64, MAD_REPS = 200 };
static void mad_kernel(char *buf, size_t n, const char *in, const char *acc, const char *clause)
{
    snprintf(buf, n,
             "module attributes {pto.target_arch = \"a5\"} {\n"
             "  func.func @mad_bench(%%reps: index) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
             "    %%c0 = arith.constant 0 : index\n"
             "    %%c1 = arith.constant 1 : index\n"
             "    %%z = arith.constant 0 : i64\n"
             "    %%m = arith.constant %d : i64\n"
             "    %%n = arith.constant %d : i64\n"
             "    %%k = arith.constant %d : i64\n"
             "    %%a = pto.castptr %%z : i64 -> !pto.ptr<%s, l0a>\n"
             "    %%b = pto.castptr %%z : i64 -> !pto.ptr<%s, l0b>\n"
             "    %%c = pto.castptr %%z : i64 -> !pto.ptr<%s, l0c>\n"
             "    scf.for %%r = %%c0 to %%reps step %%c1 {\n"
             "      pto.mad %%a, %%b, %%c, %%m, %%n, %%k%s : !pto.ptr<%s, l0a>, !pto.ptr<%s, l0b>, !pto.ptr<%s, l0c>, i64, i64, i64\n"
             "    }\n"
             "    pto.barrier #pto.pipe<PIPE_ALL>\n"
             "    return\n"
             "  }\n"
             "}\n",
             MM, MN, MK, in, in, acc, clause, in, in, acc);
}

/* The native MAD: the same k-ordered accumulation (each product rounded to f32, then each sum) over plain
   arrays, A [M][K] and B [K][N] already converted, C rows over n (the loop order the compiler vectorises). */
__attribute__((noinline)) static void native_mad_f32(float *restrict c, const float *restrict a, const float *restrict b)
{
    for (int m = 0; m < MM; m++) {
        float *cr = c + m * MN;
        for (int n = 0; n < MN; n++) cr[n] = 0.0f;
        for (int k = 0; k < MK; k++) {
            float av = a[m * MK + k];
            const float *bk = b + k * MN;
            for (int n = 0; n < MN; n++) {
                float p = av * bk[n];
                cr[n] = cr[n] + p;
            }
        }
    }
    __asm__ __volatile__("" : : "r"(c) : "memory");
}

__attribute__((noinline)) static void native_mad_i32(int32_t *restrict c, const int32_t *restrict a, const int32_t *restrict b)
{
    for (int m = 0; m < MM; m++) {
        int32_t *cr = c + m * MN;
        for (int n = 0; n < MN; n++) cr[n] = 0;
        for (int k = 0; k < MK; k++) {
            int32_t av = a[m * MK + k];
            const int32_t *bk = b + k * MN;
            for (int n = 0; n < MN; n++) cr[n] = (int32_t)((uint32_t)cr[n] + (uint32_t)(av * bk[n]));
        }
    }
    __asm__ __volatile__("" : : "r"(c) : "memory");
}

/* Runs `text` with `reps`; `mode` 1: with the performance view recording a trace and a profile, 2: with
   the full sanitizer (races, initcheck, unwritten outputs) as `ptosim run` has it. Returns seconds, or -1
   with diagnostics printed. */
enum { VIEW = 1, SANITIZE = 2 };
static double run_sim_blocks(const char *name, const char *text, void *buf, size_t bufsize, long reps, int mode,
                             unsigned blocks, unsigned jobs)
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
            pto_launch_set_jobs(l, jobs);
            double t0 = now(), c0 = cpu_now();
            int rc = pto_launch_run(l, blocks);
            t = rc == 0 ? now() - t0 : -1;
            last_cpu = cpu_now() - c0;
            pto_launch_free(l);
        }
    }
    for (size_t i = 0; i < pto_diag_count(ctx); i++) {   /* errors only: the sanitizer runs warn by design */
        PtoDiagInfo di;
        if (pto_diag_get(ctx, i, &di) || di.severity < PTO_SEV_ERROR) continue;
        char *s = pto_diag_render(ctx, i, 0);
        fputs(s ? s : "bench: out of memory rendering a diagnostic\n", stderr);
        pto_free(s);
    }
    pto_module_free(m);
    pto_context_free(ctx);
    return t;
}

static double run_sim_view(const char *name, const char *text, void *buf, size_t bufsize, long reps, int mode)
{
    return run_sim_blocks(name, text, buf, bufsize, reps, mode, 1, 1);
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
    if (ts > 0) printf("  -> ratio %.3f (target >= 0.5)\n", tn / ts);
    else printf("  -> ratio n/a\n");
    if (tw < 1e9 && ts > 0)
        printf("        (native loop built for AVX2: %.0f Melem/s -> ratio %.3f)\n", elems / tw / 1e6, tw / ts);

    /* softmax-like */
    {
        float *in = malloc(N * 4);
        uint16_t *h = calloc(2 * N, 2);
        for (int i = 0; i < N; i++) in[i] = (float)((i * 37) % 200 - 100) / 25.0f;   /* -4 .. 3.96 */
        double tsn = 1e9, tss = 1e9;
        for (int k = 0; k < ROUNDS && tss > 0; k++) {
            double t0 = now();
            native_soft(h, in, SOFT_REPS);
            minimise(&tsn, now() - t0);
            minimise(&tss, run_sim("soft_bench.pto", soft_kernel, in, N * 4, SOFT_REPS));
        }
        double rows = (double)N / 64 * SOFT_REPS;
        if (tss > 0)
            printf("vector  softmax-like row (vexp, vcadd, vdup, vdiv, vcvt f32->f16): %.1f Mrow/s simulated, %.1f Mrow/s "
                   "native C -> ratio %.3f (no target; reported)\n", rows / tss / 1e6, rows / tsn / 1e6, tsn / tss);
        else
            fprintf(stderr, "bench: the softmax-like kernel did not run\n");
        free(in);
        free(h);
    }

    /* VMI scale-and-convert */
    {
        float *in = malloc(N * 4), s;
        uint16_t *hs = calloc(N, 2), *hn = calloc(N, 2);
        uint32_t sb = 0x3EBD70A4u;
        memcpy(&s, &sb, 4);
        for (int i = 0; i < N; i++) in[i] = (float)((i * 7919) % 40000 - 20000) * 9.5367431640625e-07f * (float)(1 + i % 97);
        in[5] = 1e30f;    /* saturates */
        in[6] = -1e30f;
        double tvn = 1e9, tvs = 1e9;
        for (int k = 0; k < ROUNDS && tvs > 0; k++) {
            double t0 = now();
            native_vmi(hn, in, s, VMI_REPS);
            minimise(&tvn, now() - t0);
            minimise(&tvs, run_sim2("vmi_bench.pto", vmi_kernel, in, N * 4, hs, N * 2, VMI_REPS, now));
        }
        int diff = -1;
        for (int i = 0; i < N && diff < 0; i++)
            if (hs[i] != hn[i]) diff = i;
        double el = (double)N * VMI_REPS;
        if (tvs > 0 && diff < 0)
            printf("vmi     scale-and-convert 256-lane vectors (vload, vmuls, vcvt f32->f16 SAT, vstore): %.0f Melem/s "
                   "simulated, %.0f Melem/s native C, outputs equal -> ratio %.3f (target >= 0.5)\n",
                   el / tvs / 1e6, el / tvn / 1e6, tvn / tvs);
        else if (tvs > 0)
            fprintf(stderr, "bench: the VMI kernel's output differs from the native loop at element %d (%04x vs %04x)\n",
                    diff, hs[diff], hn[diff]);
        else
            fprintf(stderr, "bench: the VMI kernel did not run\n");
        free(in);
        free(hs);
        free(hn);
    }

    /* tile row softmax */
    {
        size_t n = (size_t)TS_ROWS * TS_COLS;
        float *in = malloc(n * 4), *os = calloc(n, 4), *on = calloc(n, 4);
        for (size_t i = 0; i < n; i++) in[i] = (float)((long)((i * 7919) % 20000) - 10000) * 7.62939453125e-04f;
        double ttn = 1e9, tts = 1e9;
        for (int k = 0; k < ROUNDS && tts > 0; k++) {
            double t0 = cpu_now();
            native_tile_softmax(on, in, TS_REPS);
            minimise(&ttn, cpu_now() - t0);
            minimise(&tts, run_sim2("tile_bench.pto", tile_kernel, in, TS_ROWS * TS_COLS * 4, os, TS_ROWS * TS_COLS * 4, TS_REPS, cpu_now));
        }
        long diff = -1;
        for (size_t i = 0; i < n && diff < 0; i++)
            if (memcmp(&os[i], &on[i], 4)) diff = (long)i;
        double el = (double)n * TS_REPS;
        if (tts > 0 && diff < 0)
            printf("tile    row softmax 64x1024 f32 (tload, trowmax, trowexpandexpdif, trowsum, trowexpanddiv, tstore): "
                   "%.0f Melem/s simulated, %.0f Melem/s native C, outputs equal -> ratio %.3f (target >= 0.5)\n",
                   el / tts / 1e6, el / ttn / 1e6, ttn / tts);
        else if (tts > 0)
            fprintf(stderr, "bench: the tile softmax's output differs from the native loop at element %ld (%a vs %a)\n",
                    diff, (double)os[diff], (double)on[diff]);
        else
            fprintf(stderr, "bench: the tile softmax kernel did not run\n");
        free(in);
        free(os);
        free(on);
    }

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

    /* MAD */
    {
        float *fa = malloc(sizeof(float) * MM * MK), *fb = malloc(sizeof(float) * MK * MN), *fc = malloc(sizeof(float) * MM * MN);
        int32_t *ia = malloc(4 * MM * MK), *ib = malloc(4 * MK * MN), *ic = malloc(4 * MM * MN);
        for (int i = 0; i < MM * MK; i++) { fa[i] = (float)(i % 7) - 3.0f; ia[i] = i % 255 - 127; }
        for (int i = 0; i < MK * MN; i++) { fb[i] = (float)(i % 5) * 0.5f; ib[i] = i % 251 - 125; }
        static const struct { const char *name, *in, *acc, *clause; int integer; } mt[] = {
            {"f16", "f16", "f32", "", 0},
            {"bf16", "bf16", "f32", "", 0},
            {"f32 tf32", "f32", "f32", " tf32_mode(round_even)", 0},
            {"i8", "i8", "i32", "", 1},
        };
        for (size_t t = 0; t < sizeof mt / sizeof mt[0]; t++) {
            char text[2048];
            mad_kernel(text, sizeof text, mt[t].in, mt[t].acc, mt[t].clause);
            double tnm = 1e9, tsm = 1e9;
            for (int k = 0; k < ROUNDS && tsm > 0; k++) {
                double t0 = now();
                for (int r = 0; r < MAD_REPS; r++) {
                    if (mt[t].integer) native_mad_i32(ic, ia, ib);
                    else native_mad_f32(fc, fa, fb);
                }
                minimise(&tnm, now() - t0);
                minimise(&tsm, run_sim("mad_bench.pto", text, NULL, 0, MAD_REPS));
            }
            double macs = (double)MM * MN * MK * MAD_REPS;
            if (tsm > 0)
                printf("mad     %3dx%3dx%2d %-8s: %.2f GMAC/s simulated, %.2f GMAC/s native loop -> ratio %.3f (target >= 0.5)\n", MM, MN,
                       MK, mt[t].name, macs / tsm / 1e9, macs / tnm / 1e9, tnm / tsm);
            else
                fprintf(stderr, "bench: the %s MAD kernel did not run\n", mt[t].name);
        }
        free(fa); free(fb); free(fc); free(ia); free(ib); free(ic);
    }

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

    /* blocks on threads: 2 blocks of equal work, one thread vs two (the result is the same; ideal 2x) */
    enum { BLOCKS = 2, BLOCK_REPS = 10000 };
    size_t gbytes = (size_t)BLOCKS * 65536;
    float *g = malloc(gbytes);
    double t1 = 1e9, t2 = 1e9, c1 = 1e9, c2 = 1e9;
    for (int k = 0; k < ROUNDS && t1 > 0 && t2 > 0; k++) {
        for (size_t i = 0; i < gbytes / 4; i++) g[i] = 1.0f;
        minimise(&t1, run_sim_blocks("blocks_bench.pto", blocks_kernel, g, gbytes, BLOCK_REPS, 0, BLOCKS, 1));
        minimise(&c1, last_cpu);
        minimise(&t2, run_sim_blocks("blocks_bench.pto", blocks_kernel, g, gbytes, BLOCK_REPS, 0, BLOCKS, 2));
        minimise(&c2, last_cpu);
    }
    if (t1 > 0 && t2 > 0)
        printf("blocks  %d blocks of equal work (GM in, vadd, GM out), 1 vs 2 threads: %.1f vs %.1f ms -> speedup %.2fx "
               "(target >= 1.8x; CPU %.1f vs %.1f ms)\n", BLOCKS, t1 * 1e3, t2 * 1e3, t1 / t2, c1 * 1e3, c2 * 1e3);
    else
        fprintf(stderr, "bench: the blocks kernel did not run\n");
    free(g);
    free(a); free(b); free(c); free(src); free(dst);
    return 0;
}

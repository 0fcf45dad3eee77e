/* test_timing.c — the timing model against hand-computed cycle counts (docs/timing.md gives every
 * formula; the arithmetic of each expectation is in the comment next to it). Uses only ptosim.h.
 *
 * Figures of the built-in a5 table used below: clock 1.85 GHz; GM->UB 214 fixed cycles + 247.16 GiB/s,
 * UB->GM 107 fixed cycles + 188.46 GiB/s (flat, no size saturation); vector function startup 23 + drain
 * 12; a front end of 5 instructions per cycle, at most one loop iteration per cycle; 2 compute ports, 2
 * load ports, 1 store port (a cycle issues two loads or a load and a store); vlds latency 9, forwarding 6
 * to a compute op and 2 to a store; vsts latency 9; vabs f32 latency 5, forwarding 3 to a store; vadd f32
 * latency 7, ii 1, forwarding 3 to a compute op and 5 to a store; vbr f32 latency 6; pset: a front-end slot,
 * latency 1; set_flag and wait_flag 1 cycle on their pipe; issuing an op 1 scalar cycle; MAD head 25 + 1
 * cycle per 16x16x16 f16 fractal. A transfer of B bytes at W GiB/s takes fixed + ceil(B * 1.85e9 / (W *
 * 2^30)) cycles. */
#include "ptosim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct Run {
    PtoContext *ctx;
    PtoModule *m;
    PtoLaunch *l;
    unsigned char *buf[2];
} Run;

/* Parses, verifies and runs `text` on `blocks` blocks with `jobs` threads (pointer parameters get 256 KiB
   zeroed buffers). */
static int run_n(Run *r, const char *text, const char *timing, int profile, unsigned blocks, unsigned jobs)
{
    memset(r, 0, sizeof *r);
    r->ctx = pto_context_new();
    r->m = pto_parse(r->ctx, "t.pto", text, strlen(text));
    if (!r->m || pto_error_count(r->ctx) || pto_verify(r->m, PTO_TARGET_DEFAULT)) goto fail;
    r->l = pto_launch_new(r->m, NULL, PTO_TARGET_DEFAULT);
    if (!r->l) goto fail;
    if (timing && pto_launch_set_timing(r->l, "override", timing, strlen(timing))) goto fail;
    pto_launch_set_profile(r->l, profile);
    for (unsigned i = 0; i < pto_launch_num_params(r->l) && i < 2; i++) {
        r->buf[i] = calloc(1, 256 * 1024);
        pto_launch_bind_buffer(r->l, i, r->buf[i], 256 * 1024);
    }
    if (jobs) pto_launch_set_jobs(r->l, jobs);
    if (pto_launch_run(r->l, blocks) != 0) goto fail;
    return 0;
fail:
    for (size_t i = 0; i < pto_diag_count(r->ctx); i++) {
        char *s = pto_diag_render(r->ctx, i, 0);
        printf("%s", s);
        pto_free(s);
    }
    return -1;
}

static int run(Run *r, const char *text, const char *timing, int profile) { return run_n(r, text, timing, profile, 1, 0); }

static void done(Run *r)
{
    pto_launch_free(r->l);
    pto_module_free(r->m);
    pto_context_free(r->ctx);
    free(r->buf[0]);
    free(r->buf[1]);
}

static PtoPipeTime pipe_time(const Run *r, unsigned pipe)
{
    PtoCoreTime ct;
    memset(&ct, 0, sizeof ct);
    pto_launch_core_time(r->l, 0, &ct);
    return ct.pipe[pipe];
}

enum { S = 0, V = 1, MTE2 = 3, MTE3 = 4, M = 5, FIX = 6 };

#define HEAD "module attributes {pto.target_arch = \"a5\"} {\n"
#define CONSTS \
    "    %c0 = arith.constant 0 : i64\n    %c1 = arith.constant 1 : i64\n    %c16 = arith.constant 16 : i64\n" \
    "    %c4096 = arith.constant 4096 : i64\n    %c65536 = arith.constant 65536 : i64\n" \
    "    %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n    %ub2 = pto.castptr %c65536 : i64 -> !pto.ptr<ui8, ub>\n"

/* 1. A lone 64 KiB GM -> UB copy: 214 + ceil(65536 * 1.85e9 / (247.16 * 2^30) = 456.85) = 214 + 457 = 671
   cycles on MTE2. */
static const char *k_dma =
    HEAD "  func.func @k(%src: !pto.ptr<ui8, gm>, %dst: !pto.ptr<ui8, gm>) attributes {pto.kernel} {\n" CONSTS
    "    pto.mte_gm_ub %src, %ub, %c0, %c4096 nburst(%c16, %c4096, %c4096) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 2. The 64 KiB load on MTE2 and a 32 KiB store from other UB bytes on MTE3, no synchronisation: they
   overlap. Store: 107 + ceil(32768 * 1.85e9 / (188.46 * 2^30) = 299.57) = 407 cycles. The store is issued
   one scalar cycle after the load, so it ends 1 + 407 - 671 = -263 cycles from the load's end. */
static const char *k_overlap =
    HEAD "  func.func @k(%src: !pto.ptr<ui8, gm>, %dst: !pto.ptr<ui8, gm>) attributes {pto.kernel} {\n" CONSTS
    "    %c2048 = arith.constant 2048 : i64\n"
    "    pto.mte_gm_ub %src, %ub, %c0, %c4096 nburst(%c16, %c4096, %c4096) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
    "    pto.mte_ub_gm %ub2, %dst, %c2048 nburst(%c16, %c2048, %c2048) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 2b. The same two transfers when the chip's GM carries 300 GiB/s in all (`gm_cap read=0 write=0 total=300`,
   one block: the block's slice is all of it). Bytes per cycle at W GiB/s: W * 2^30 / 1.85e9 (188.46 -> 109.3837,
   52.84 -> 30.6683). The load executes first: its data runs from cycle 214 (after its startup) at 247.16
   (< 300) for 65536 / 143.4522 = 456.850 cycles, to 670.850, busy 671 as before. The store starts at 1; its
   data from 1 + 107 = 108: until 214 the slice is free, 106 cycles at 188.46 move 11594.53 bytes; from 214
   to 670.850 the load holds 247.16, leaving 300 - 247.16 = 52.84: 456.850 * 30.6683 = 14010.85 bytes; the
   remaining 32768 - 11594.53 - 14010.85 = 7162.62 at 188.46 again take 65.482 cycles: the store ends at
   670.850 + 65.482 = 736.332, i.e. ceil(736.332 - 1) = 736 cycles after its start; it ends 1 + 736 - 671
   = 66 cycles after the load. */

/* 3. MTE2 -> V -> MTE3 with flags: each stage starts when the previous one's flag arrives, so the times
   add up. From the end of the load's set_flag (MTE2's last op): wait_flag on V 1, the scope 23 + 12 +
   its straight-line body (pset, vlds, vabs, vsts: vlds issues at 0, vabs when vlds forwards at 6, vsts
   when vabs forwards to a store at 6 + 3 = 9 and retires at 9 + 9 = 18, more than the front end's 4 / 5
   and the ports' 1) = 53, set_flag on V 1, wait_flag on MTE3 1, then the 4 KiB store:
   107 + ceil(4096 * 1.85e9 / (188.46 * 2^30) = 37.45) = 145. MTE3 ends 1 + 53 + 1 + 1 + 145 = 201 cycles
   after MTE2. The load is 214 + ceil(4096 * 1.85e9 / (247.16 * 2^30) = 28.55) = 243 cycles, so MTE2 is
   busy 243 + 1 (set_flag). */
static const char *k_chain =
    HEAD "  func.func @k(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : i64\n    %c1 = arith.constant 1 : i64\n    %c4096 = arith.constant 4096 : i64\n"
    "    %c8192 = arith.constant 8192 : i64\n    %i0 = arith.constant 0 : index\n"
    "    %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>\n    %ub2 = pto.castptr %c8192 : i64 -> !pto.ptr<f32, ub>\n"
    "    pto.mte_gm_ub %src, %ub, %c0, %c4096 nburst(%c1, %c4096, %c4096) : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.vecscope {\n"
    "      %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "      %x = pto.vlds %ub[%i0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "      %y = pto.vabs %x, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "      pto.vsts %y, %ub2[%i0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    }\n"
    "    pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.mte_ub_gm %ub2, %dst, %c4096 nburst(%c1, %c4096, %c4096) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 4. A loop bound by throughput: three loads, an add and a store per iteration. Front end: 5 instructions
   / 5 per cycle = 1 (and at most one iteration per cycle: 1); load/store ports: 1 store cycle (taking one
   load along) + (3 - 1) / 2 = 2; compute: vadd ii 1 / 2 ports = 0.5. II = 2 (load/store ports). One
   iteration's critical path: vlds issues at 0, vadd at 6 (vlds forwards), vsts at 6 + 5 = 11 (vadd forwards
   to a store), retiring at 11 + 9 = 20; the fill 20 - 2 = 18 is charged once. 16 iterations (constant
   bounds): V busy = 35 (startup + drain) + 1 (pset: its own run, latency 1) + 18 + 16 * 2 = 86. */
static const char *k_tput =
    HEAD "  func.func @k(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
    "    %i0 = arith.constant 0 : index\n    %i1 = arith.constant 1 : index\n    %i16 = arith.constant 16 : index\n"
    "    %c0 = arith.constant 0 : i64\n    %c8192 = arith.constant 8192 : i64\n"
    "    %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>\n    %ub2 = pto.castptr %c8192 : i64 -> !pto.ptr<f32, ub>\n"
    "    pto.vecscope {\n"
    "      %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "      scf.for %i = %i0 to %i16 step %i1 {\n"
    "        %x = pto.vlds %ub[%i0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "        %y = pto.vlds %ub[%i0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "        %w = pto.vlds %ub[%i0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "        %z = pto.vadd %x, %y, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "        pto.vsts %z, %ub2[%i0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      }\n"
    "    }\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 5. A loop bound by a dependency chain: acc = acc + x carried through iter_args. Front end: 2 / 5, at
   least 1 per iteration; the chain acc -> vadd -> acc is vadd's forwarding distance 3 (a dependent vadd
   issues 3 cycles after its producer) -> II = 3. Critical path of one iteration: vlds issues at 0, vadd at
   6, retiring at 6 + 7 = 13; the fill 13 - 3 = 10 is charged once. The scope also runs pset and vbr (a
   front-end slot, latency 1; vbr f32 latency 6) as one run before the loop: critical path 6. 10 iterations:
   V busy = 35 + 6 + 10 + 10 * 3 + the final store run (vsts: latency 9) = 90. */
static const char *k_chain_loop =
    HEAD "  func.func @k(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
    "    %i0 = arith.constant 0 : index\n    %i1 = arith.constant 1 : index\n    %i10 = arith.constant 10 : index\n"
    "    %c0 = arith.constant 0 : i64\n    %c8192 = arith.constant 8192 : i64\n    %f0 = arith.constant 0.0 : f32\n"
    "    %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>\n    %ub2 = pto.castptr %c8192 : i64 -> !pto.ptr<f32, ub>\n"
    "    pto.vecscope {\n"
    "      %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "      %z = pto.vbr %f0 : f32 -> !pto.vreg<64xf32>\n"
    "      %r = scf.for %i = %i0 to %i10 step %i1 iter_args(%acc = %z) -> (!pto.vreg<64xf32>) {\n"
    "        %x = pto.vlds %ub[%i0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "        %s = pto.vadd %acc, %x, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "        scf.yield %s : !pto.vreg<64xf32>\n"
    "      }\n"
    "      pto.vsts %r, %ub2[%i0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "    }\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 6. A 32 x 32 x 32 f16 MAD: head 25 + ceil(32/16) * ceil(32/16) * ceil(32/16) fractals * 1 cycle = 33. */
static const char *k_mad =
    HEAD "  func.func @k() attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
    "    %c0 = arith.constant 0 : i64\n    %c32 = arith.constant 32 : i64\n"
    "    %a = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0a>\n    %b = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0b>\n"
    "    %c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>\n"
    "    pto.mad %a, %b, %c, %c32, %c32, %c32 : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 6b. FIXPIPE: a drain of 16 x 24 f32 accumulator elements to GM (pto.mte_l0c_gm, no conversion). a5's
   table: head 343.4, row floor 4.59, 30 bytes per cycle, penalty 0.26. Per row max(4.59, 4 * 24 / 30 = 3.2)
   = 4.59; N1 = ceil(24 / 8) = 3 N-fractals, odd part 3, so + 0.26 * (3 - 1) = 0.52: 5.11 per row;
   343.4 + 16 * 5.11 = 425.16 -> 426 cycles. (Its GM writes, 1536 bytes over 426 - 343.4 = 82.6 cycles, are
   about 34 GiB/s, far below the 1490 GiB/s slice.) */
static const char *k_fix =
    HEAD "  func.func @k(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f32, gm>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
    "    %c0 = arith.constant 0 : i64\n    %c16 = arith.constant 16 : i64\n    %c24 = arith.constant 24 : i64\n"
    "    %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>\n"
    "    pto.mte_l0c_gm %l0c, %dst, %c16, %c24, %c16, %c24, %c0, %c0, nz2nd : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, i64, i64, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 7. Load/store pairing with a fractional II: two loads, an add and a store per iteration. Front end 4 / 5,
   at least 1 per iteration; load/store ports: 1 store cycle (taking one load along) + (2 - 1) / 2 = 1.5;
   compute 0.5. II = 1.5 (load/store ports), carried across the iterations: 16 iterations take 16 * 1.5 =
   24 cycles. Critical path: vlds 0 -> vadd 6 -> vsts 11 -> retired 20; fill 20 - 1.5 = 18.5. The loop:
   ceil(18.5 + 24) = 43 cycles; V busy = 35 + 1 (pset) + 43 = 79; the loop reports ii ceil(1.5) = 2. */
#define BODY2 \
    "        %x = pto.vlds %ub[%i0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n" \
    "        %y = pto.vlds %ub[%i0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n" \
    "        %z = pto.vadd %x, %y, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n" \
    "        pto.vsts %z, %ub2[%i0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
#define PRE2 \
    HEAD "  func.func @k(%src: !pto.ptr<f32, gm>, %dst: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n" \
    "    %i0 = arith.constant 0 : index\n    %i1 = arith.constant 1 : index\n    %i16 = arith.constant 16 : index\n" \
    "    %i4 = arith.constant 4 : index\n    %i8 = arith.constant 8 : index\n" \
    "    %c0 = arith.constant 0 : i64\n    %c8192 = arith.constant 8192 : i64\n" \
    "    %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>\n    %ub2 = pto.castptr %c8192 : i64 -> !pto.ptr<f32, ub>\n" \
    "    pto.vecscope {\n" \
    "      %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
static const char *k_pair =
    PRE2 "      scf.for %i = %i0 to %i16 step %i1 {\n" BODY2 "      }\n"
    "    }\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 8. The same body as an inner loop of 8 iterations inside an outer loop of 4: the fill is charged once for
   the nest: ceil(18.5) = 19; each outer iteration takes max(8 * ceil(1.5) = 16 (ports, whole cycles per
   iteration inside a nest), 8 * 1 + 5 = 13 (front end + the gap between inner-loop instances), 7 (least
   outer iteration)) = 16. V busy = 35 + 1 (pset) + 19 + 4 * 16 = 119. */
static const char *k_nest =
    PRE2 "      scf.for %o = %i0 to %i4 step %i1 {\n"
    "      scf.for %i = %i0 to %i8 step %i1 {\n" BODY2 "      }\n"
    "      }\n"
    "    }\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

/* 10. A reduction on port 0 with at most 7 ops in flight per port: vcadd f32 (latency 22, ii 1) occupies port
   0 max(1, 22 / 7) = 3.142857 cycles, so II = 22 / 7 (execution unit 0; reported rounded up: 4). Critical
   path: vlds 0 -> vcadd 6 -> vsts 6 + 20 (vcadd forwards to a store) = 26 -> retired 35; fill 35 - 22/7 =
   31.857. 16 iterations: ceil(31.857 + 16 * 22/7 = 82.14) = 83; V busy = 35 + 1 (pset) + 83 = 119. */
static const char *k_red =
    PRE2 "      scf.for %i = %i0 to %i16 step %i1 {\n"
    "        %x = pto.vlds %ub[%i0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "        %r = pto.vcadd %x, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "        pto.vsts %r, %ub2[%i0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      }\n"
    "    }\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n    return\n  }\n}\n";

int main(void)
{
    Run r;
    /* 1 */
    if (run(&r, k_dma, NULL, 0) == 0) {
        PtoPipeTime t = pipe_time(&r, MTE2);
        CHECK(t.busy == 671, "64 KiB GM->UB: MTE2 busy %llu, expected 671", (unsigned long long)t.busy);
        CHECK(t.bytes == 65536, "64 KiB moved");
        /* the same copy with a Hill size model: peak 200 GiB/s, half saturation at 65536 bytes -> 100 GiB/s
           effective: 65536 * 1.85e9 / (100 * 2^30) = 1129.15 -> 1130, plus the fixed 214 = 1344 */
        done(&r);
        if (run(&r, k_dma, "path gm_ub peak=200 k=65536\n", 0) == 0)
            CHECK(pipe_time(&r, MTE2).busy == 1344, "Hill model: MTE2 busy %llu, expected 1344",
                  (unsigned long long)pipe_time(&r, MTE2).busy);
        done(&r);
        /* a fixed startup of 50 instead of 214: 457 + 50 */
        if (run(&r, k_dma, "path gm_ub startup=50 # a comment\n", 0) == 0)
            CHECK(pipe_time(&r, MTE2).busy == 507, "startup: MTE2 busy %llu, expected 507",
                  (unsigned long long)pipe_time(&r, MTE2).busy);
    } else {
        CHECK(0, "dma kernel did not run");
    }
    done(&r);
    /* 2 */
    if (run(&r, k_overlap, NULL, 0) == 0) {
        PtoPipeTime a = pipe_time(&r, MTE2), b = pipe_time(&r, MTE3);
        CHECK(a.busy == 671 && b.busy == 407, "busy %llu / %llu, expected 671 / 407", (unsigned long long)a.busy,
              (unsigned long long)b.busy);
        CHECK((long long)b.end - (long long)a.end == 1 + 407 - 671, "store ends %lld cycles after the load's end, expected -263",
              (long long)b.end - (long long)a.end);
    } else {
        CHECK(0, "overlap kernel did not run");
    }
    done(&r);
    /* 2b */
    if (run(&r, k_overlap, "gm_cap read=0 write=0 total=300\n", 0) == 0) {
        PtoPipeTime a = pipe_time(&r, MTE2), b = pipe_time(&r, MTE3);
        CHECK(a.busy == 671 && b.busy == 736, "shared GM: busy %llu / %llu, expected 671 / 736", (unsigned long long)a.busy,
              (unsigned long long)b.busy);
        CHECK((long long)b.end - (long long)a.end == 66, "shared GM: the store ends %lld cycles after the load, expected 66",
              (long long)b.end - (long long)a.end);
    } else {
        CHECK(0, "overlap kernel with a GM cap did not run");
    }
    done(&r);
    /* 2c: 4 blocks of the lone 64 KiB load, the chip's GM 400 GiB/s: each block's slice is 400 / 4 = 100 GiB/s
       (every block of a launch runs from cycle 0, so they transfer at the same time): 214 + ceil(65536 *
       1.85e9 / (100 * 2^30) = 1129.14) = 1344 cycles on every block's MTE2, whatever the number of threads */
    for (unsigned jobs = 1; jobs <= 3; jobs += 2) {
        if (run_n(&r, k_dma, "gm_cap read=0 write=0 total=400\n", 0, 4, jobs) == 0) {
            size_t n = pto_launch_core_count(r.l), ok = 0;
            for (size_t i = 0; i < n; i++) {
                PtoCoreTime ct;
                if (pto_launch_core_time(r.l, i, &ct) == 0 && ct.pipe[MTE2].busy == 1344) ok++;
            }
            CHECK(n == 4 && ok == 4, "4 blocks sharing 400 GiB/s (%u threads): %zu of %zu cores with MTE2 busy 1344", jobs, ok, n);
        } else {
            CHECK(0, "4-block dma kernel did not run");
        }
        done(&r);
    }
    /* 3 */
    if (run(&r, k_chain, NULL, 0) == 0) {
        PtoPipeTime a = pipe_time(&r, MTE2), v = pipe_time(&r, V), b = pipe_time(&r, MTE3);
        CHECK(a.busy == 244, "MTE2 busy %llu, expected 243 + 1", (unsigned long long)a.busy);
        CHECK(v.busy == 1 + 53 + 1, "V busy %llu, expected 55", (unsigned long long)v.busy);
        CHECK(b.end - a.end == 201, "MTE3 ends %llu cycles after MTE2, expected 201", (unsigned long long)(b.end - a.end));
        /* the stall report: V waited for the MTE2 flag, released by the set_flag on line 11 of the kernel
           text; the wait is on line 12. */
        PtoStall st;
        int found = 0;
        for (size_t i = 0; i < pto_launch_stall_count(r.l); i++)
            if (pto_launch_stall(r.l, i, &st) == 0 && st.pipe == V) {
                found = 1;
                CHECK(!strcmp(st.what, "flag PIPE_MTE2 -> PIPE_V, event 0"), "what: %s", st.what);
                CHECK(st.line == 12 && st.setter_line == 11, "wait at line %u, set at line %u; expected 12 and 11", st.line,
                      st.setter_line);
                CHECK(st.cause == PTO_WAIT_FLAG && v.stall[PTO_WAIT_FLAG] == st.cycles, "cause and cycles");
            }
        CHECK(found, "V's wait is in the stall report");
    } else {
        CHECK(0, "chain kernel did not run");
    }
    done(&r);
    /* 4 */
    if (run(&r, k_tput, NULL, 1) == 0) {
        PtoLoopTime lt;
        CHECK(pto_launch_loop_count(r.l) == 1 && pto_launch_loop(r.l, 0, &lt) == 0, "one analysed loop");
        CHECK(lt.ii == 2 && !strcmp(lt.bound, "load/store ports"), "throughput loop: ii %u (%s), expected 2 (load/store ports)",
              lt.ii, lt.bound);
        CHECK(lt.latency == 20 && lt.iterations == 16, "latency %u, iterations %llu", lt.latency,
              (unsigned long long)lt.iterations);
        CHECK(pipe_time(&r, V).busy == 86, "V busy %llu, expected 86", (unsigned long long)pipe_time(&r, V).busy);
    } else {
        CHECK(0, "throughput kernel did not run");
    }
    done(&r);
    /* 4b: a store-port-bound variant through a table override: f32 stores take 4 cycles of the store port
       -> 4 store cycles, each also taking one of the 3 loads: ii = 4 + ceil(0 / 2) = 4 (load/store ports) */
    if (run(&r, k_tput, "vec vsts f32 lat=9 ii=4 unit=store\n", 0) == 0) {
        PtoLoopTime lt;
        CHECK(pto_launch_loop(r.l, 0, &lt) == 0 && lt.ii == 4 && !strcmp(lt.bound, "load/store ports"),
              "store-bound loop: ii %u (%s)", lt.ii, lt.bound);
    }
    done(&r);
    /* 5 */
    if (run(&r, k_chain_loop, NULL, 1) == 0) {
        PtoLoopTime lt;
        CHECK(pto_launch_loop(r.l, 0, &lt) == 0 && lt.ii == 3 && !strcmp(lt.bound, "a loop-carried dependency chain"),
              "chain loop: ii %u (%s), expected 3 (chain)", lt.ii, lt.bound);
        CHECK(pipe_time(&r, V).busy == 90, "V busy %llu, expected 90", (unsigned long long)pipe_time(&r, V).busy);
    } else {
        CHECK(0, "chain loop kernel did not run");
    }
    done(&r);
    /* 6 */
    if (run(&r, k_mad, NULL, 0) == 0) {
        CHECK(pipe_time(&r, M).busy == 33, "MAD: M busy %llu, expected 33", (unsigned long long)pipe_time(&r, M).busy);
        done(&r);
        /* bf16 rate override: 3 cycles per fractal does not change f16 */
        if (run(&r, k_mad, "mad_rate bf16 k0=16 cycles=3\nmad head=10\n", 0) == 0)
            CHECK(pipe_time(&r, M).busy == 18, "MAD head 10: M busy %llu, expected 18", (unsigned long long)pipe_time(&r, M).busy);
    } else {
        CHECK(0, "mad kernel did not run");
    }
    done(&r);
    /* 5b: a forwarding override: a dependent vadd now issues 5 cycles after its producer, so the chain is
       II = 5; critical path vlds 0 -> vadd 6 -> retired 13 (latency unchanged), fill 13 - 5 = 8; V busy =
       35 + 6 + 8 + 10 * 5 + 9 = 108 */
    if (run(&r, k_chain_loop, "vec vadd f32 lat=7 ii=1 fwd=5 unit=exu\n", 0) == 0) {
        PtoLoopTime lt;
        CHECK(pto_launch_loop(r.l, 0, &lt) == 0 && lt.ii == 5, "fwd=5 chain: ii %u, expected 5", lt.ii);
        CHECK(pipe_time(&r, V).busy == 108, "fwd=5 chain: V busy %llu, expected 108", (unsigned long long)pipe_time(&r, V).busy);
    } else {
        CHECK(0, "chain loop kernel with a forwarding override did not run");
    }
    done(&r);
    /* 6b */
    if (run(&r, k_fix, NULL, 0) == 0) {
        CHECK(pipe_time(&r, FIX).busy == 426, "FIXPIPE 16 x 24: busy %llu, expected 426", (unsigned long long)pipe_time(&r, FIX).busy);
        done(&r);
        /* head 10, floor 1, 8 bytes per cycle, penalty 3: max(1, 96 / 8 = 12) + 3 * (3 - 1) = 18 per row:
           10 + 16 * 18 = 298 */
        if (run(&r, k_fix, "fixpipe head=10 row=1 bw=8 penalty=3\n", 0) == 0)
            CHECK(pipe_time(&r, FIX).busy == 298, "FIXPIPE override: busy %llu, expected 298",
                  (unsigned long long)pipe_time(&r, FIX).busy);
        done(&r);
        /* and GM writes capped at 4 GiB/s: the drain's 1536 bytes in 288 cycles (9.19 GiB/s) are slowed to 4:
           its writes take 10 + ceil(1536 * 1.85e9 / (4 * 2^30) = 661.58) = 672 cycles, more than the drain */
        if (run(&r, k_fix, "fixpipe head=10 row=1 bw=8 penalty=3\ngm_cap read=0 write=0 total=4\n", 0) == 0)
            CHECK(pipe_time(&r, FIX).busy == 672, "FIXPIPE under a GM cap: busy %llu, expected 672",
                  (unsigned long long)pipe_time(&r, FIX).busy);
    } else {
        CHECK(0, "fixpipe kernel did not run");
    }
    done(&r);
    /* 7 */
    if (run(&r, k_pair, NULL, 0) == 0) {
        PtoLoopTime lt;
        CHECK(pto_launch_loop(r.l, 0, &lt) == 0 && lt.ii == 2 && !strcmp(lt.bound, "load/store ports"),
              "paired loop: ii %u (%s), expected 2 (load/store ports)", lt.ii, lt.bound);
        CHECK(pipe_time(&r, V).busy == 79, "paired loop: V busy %llu, expected 79", (unsigned long long)pipe_time(&r, V).busy);
    } else {
        CHECK(0, "paired loop kernel did not run");
    }
    done(&r);
    /* 8 */
    if (run(&r, k_nest, NULL, 0) == 0) {
        CHECK(pipe_time(&r, V).busy == 119, "loop nest: V busy %llu, expected 119", (unsigned long long)pipe_time(&r, V).busy);
        done(&r);
        /* the nest's parameters from a table: a gap of 10 -> each outer iteration max(16, 8 * 1 + 10 = 18, 0)
           = 18: 35 + 1 + 19 + 4 * 18 = 127 */
        if (run(&r, k_nest, "loop iter=1 gap=10 outer=0\n", 0) == 0)
            CHECK(pipe_time(&r, V).busy == 127, "loop nest with gap 10: V busy %llu, expected 127",
                  (unsigned long long)pipe_time(&r, V).busy);
        done(&r);
        /* and a least outer iteration of 30: max(16, 13, 30) = 30: 35 + 1 + 19 + 4 * 30 = 175 */
        if (run(&r, k_nest, "loop outer=30\n", 0) == 0)
            CHECK(pipe_time(&r, V).busy == 175, "loop nest with outer 30: V busy %llu, expected 175",
                  (unsigned long long)pipe_time(&r, V).busy);
    } else {
        CHECK(0, "loop nest kernel did not run");
    }
    done(&r);
    /* 9: the a2a3 table is its own: the MAD of 6 on an a2a3 module: head 21 + 8 fractals = 29 */
    {
        char buf[2048];
        const char *at = strstr(k_mad, "\"a5\"");
        snprintf(buf, sizeof buf, "%.*s\"a2a3\"%s", (int)(at - k_mad), k_mad, at + 4);
        if (run(&r, buf, NULL, 0) == 0)
            CHECK(pipe_time(&r, M).busy == 29, "a2a3 MAD: M busy %llu, expected 29", (unsigned long long)pipe_time(&r, M).busy);
        else
            CHECK(0, "a2a3 mad kernel did not run");
        done(&r);
        const char *t2 = pto_timing_default(PTO_TARGET_A2A3), *t5 = pto_timing_default(PTO_TARGET_A5);
        CHECK(t2 && t5 && t2 != t5 && strstr(t2, "mad head=21") && strstr(t5, "mad head=25"), "per-target built-in tables");
    }
    /* 10 */
    if (run(&r, k_red, NULL, 0) == 0) {
        PtoLoopTime lt;
        CHECK(pto_launch_loop(r.l, 0, &lt) == 0 && lt.ii == 4 && !strcmp(lt.bound, "execution unit 0"),
              "vcadd loop: ii %u (%s), expected 4 (execution unit 0)", lt.ii, lt.bound);
        CHECK(pipe_time(&r, V).busy == 119, "vcadd loop: V busy %llu, expected 119", (unsigned long long)pipe_time(&r, V).busy);
        done(&r);
        /* no in-flight cap: port 0 takes 1 cycle, the loop one iteration per cycle; fill 35 - 1 = 34:
           35 + 1 + 34 + 16 = 86 */
        if (run(&r, k_red, "units inflight=0\n", 0) == 0)
            CHECK(pipe_time(&r, V).busy == 86, "vcadd loop without cap: V busy %llu, expected 86",
                  (unsigned long long)pipe_time(&r, V).busy);
    } else {
        CHECK(0, "vcadd loop kernel did not run");
    }
    done(&r);
    /* a malformed table is refused with E-TIMING at its line and column */
    {
        PtoContext *ctx = pto_context_new();
        PtoModule *m = pto_parse(ctx, "t.pto", k_dma, strlen(k_dma));
        pto_verify(m, PTO_TARGET_DEFAULT);
        PtoLaunch *l = pto_launch_new(m, NULL, PTO_TARGET_DEFAULT);
        const char *bad = "clock_ghz 1.85\npath gm_ub peak=-3\n";
        size_t d0 = pto_diag_count(ctx);
        CHECK(l && pto_launch_set_timing(l, "bad.tim", bad, strlen(bad)) != 0, "bad table refused");
        PtoDiagInfo di;
        CHECK(pto_diag_count(ctx) > d0 && pto_diag_get(ctx, d0, &di) == 0 && !strcmp(di.id, "E-TIMING") && di.line == 2 &&
                  di.col == 17,
              "E-TIMING at bad.tim:2:17");
        const char *def = pto_timing_default(PTO_TARGET_A5);
        CHECK(l && pto_launch_set_timing(l, "default", def, strlen(def)) == 0, "the built-in table parses");
        pto_launch_free(l);
        pto_module_free(m);
        pto_context_free(ctx);
    }
    return check_finish();
}

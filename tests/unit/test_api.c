/* test_api.c — drives the library through ptosim.h only: parse, verify, print, launch with buffers
 * bound in memory, run several blocks, read results, inspect traps. Expectations are computed here. */
#include "ptosim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Each block copies its 256-byte slice of src to dst, offset by block index: a DMA-only kernel. */
static const char *kernel =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "  func.func @slices(%src: !pto.ptr<ui8, gm>, %dst: !pto.ptr<ui8, gm>, %bias: i64) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : i64\n"
    "    %c1 = arith.constant 1 : i64\n"
    "    %c256 = arith.constant 256 : i64\n"
    "    %b = pto.get_block_idx\n"
    "    %o = arith.muli %b, %c256 : i64\n"
    "    %oi = arith.index_cast %o : i64 to index\n"
    "    %s = pto.addptr %src, %oi : !pto.ptr<ui8, gm> -> !pto.ptr<ui8, gm>\n"
    "    %d = pto.addptr %dst, %oi : !pto.ptr<ui8, gm> -> !pto.ptr<ui8, gm>\n"
    "    %ub = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n"
    "    pto.mte_gm_ub %s, %ub, %c0, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.mte_ub_gm %ub, %d, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

/* Runs first, before any other launch of the process has freed a GM image (whose gap bytes a fresh one could
   reuse by chance). */
static void gap_probe(PtoContext *ctx)
{
    /* GM gaps (docs/semantics.md §1): the bytes after a buffer read as 0xA5 in every run of a launch, also after
       a run wrote into them (they are filled on first use and refilled after a write). The probe reads 256
       bytes from its 64-byte buffer into out, then stores 256 bytes of src over the buffer (192 into its gap). */
    {
        static const char *probe =
            "module attributes {pto.target_arch = \"a5\"} {\n"
            "  func.func @probe(%buf: !pto.ptr<ui8, gm>, %src: !pto.ptr<ui8, gm>, %out: !pto.ptr<ui8, gm>) attributes {pto.kernel} {\n"
            "    %c0 = arith.constant 0 : i64\n"
            "    %c1 = arith.constant 1 : i64\n"
            "    %c256 = arith.constant 256 : i64\n"
            "    %ua = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n"
            "    %ub = pto.castptr %c256 : i64 -> !pto.ptr<ui8, ub>\n"
            "    pto.mte_gm_ub %buf, %ua, %c0, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
            "    pto.mte_gm_ub %src, %ub, %c0, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
            "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
            "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
            "    pto.mte_ub_gm %ua, %out, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
            "    pto.mte_ub_gm %ub, %buf, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
            "    pto.barrier #pto.pipe<PIPE_ALL>\n"
            "    return\n"
            "  }\n"
            "}\n";
        PtoModule *pm = pto_parse(ctx, "probe.pto", probe, strlen(probe));
        CHECK(pm && pto_verify(pm, PTO_TARGET_DEFAULT) == 0, "gap probe verifies");
        PtoLaunch *pl = pm ? pto_launch_new(pm, NULL, PTO_TARGET_DEFAULT) : NULL;
        unsigned char buf[64], psrc[256], out[256], want[256];
        for (int i = 0; i < 256; i++) psrc[i] = (unsigned char)(i * 7 + 3);
        for (int run = 0; pl && run < 3; run++) {
            for (int i = 0; i < 64; i++) buf[i] = (unsigned char)(200 - i);
            memset(out, 0, sizeof out);
            pto_launch_bind_buffer(pl, 0, buf, sizeof buf);
            pto_launch_bind_buffer(pl, 1, psrc, sizeof psrc);
            pto_launch_bind_buffer(pl, 2, out, sizeof out);
            /* runs 0 and 1: one block, in place; run 2: two blocks on two threads (block 1 sees block 0's
               store: src's first 64 bytes in the buffer, the rest in its gap) */
            pto_launch_set_jobs(pl, run < 2 ? 1 : 2);
            CHECK(pto_launch_run(pl, run < 2 ? 1 : 2) == 0, "gap probe run %d", run);
            for (int i = 0; i < 256; i++) want[i] = run < 2 ? (i < 64 ? (unsigned char)(200 - i) : 0xA5) : psrc[i];
            CHECK(memcmp(out, want, 256) == 0, "gap probe run %d reads the buffer and the gap byte 0xA5", run);
            CHECK(memcmp(buf, psrc, 64) == 0, "gap probe run %d stored src over the buffer", run);
        }
        pto_launch_free(pl);
        pto_module_free(pm);
    }

}

/* Device output (docs/semantics.md §12 "Device output"): each block prints its index and the value given, the
   launch's output is the blocks' text in block order (3 blocks, on 1 and then 3 threads), "" before a run, and a
   run replaces the previous run's text. Expected by hand. */
static void output_probe(void)
{
    static const char *k =
        "module {\n"
        "  func.func @pr(%v: i32) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
        "    %b = pto.get_block_idx\n"
        "    pto.print ins(\"<%lld:\", %b : i64)\n"
        "    pto.print ins(\"%x>\", %v : i32)\n"
        "    return\n"
        "  }\n"
        "}\n";
    PtoContext *ctx = pto_context_new();
    PtoModule *m = ctx ? pto_parse(ctx, "pr.pto", k, strlen(k)) : NULL;
    CHECK(m && pto_verify(m, PTO_TARGET_DEFAULT) == 0, "print probe verifies");
    PtoLaunch *l = m ? pto_launch_new(m, NULL, PTO_TARGET_DEFAULT) : NULL;
    size_t n = 99;
    CHECK(l && !strcmp(pto_launch_output(l, &n), "") && n == 0, "no device output before a run");
    /* %x of an i32 is its bits zero-extended: -0x1a is ffffffe6 */
    static const char *want[2] = {"<0:ff><1:ff><2:ff>", "<0:ffffffe6><1:ffffffe6><2:ffffffe6>"};
    for (int run = 0; l && run < 2; run++) {
        pto_launch_bind_int(l, 0, run ? -0x1a : 0xff);
        pto_launch_set_jobs(l, run ? 3 : 1);
        CHECK(pto_launch_run(l, 3) == 0, "print probe run %d", run);
        const char *o = pto_launch_output(l, &n);
        CHECK(n == strlen(want[run]) && !memcmp(o, want[run], n), "print probe run %d output", run);
    }
    pto_launch_free(l);
    pto_module_free(m);
    pto_context_free(ctx);
}

/* GM buffers accessed in place (docs/internals.md "GM image"): with 16-byte aligned host bytes a run reads and
   writes the caller's memory until an access leaves a buffer, which first copies every buffer into the image.
   The kernel copies a to b, reads 512 bytes from b (256 past its end: the gap byte 0xA5) into out, then copies c
   over b. Expected, by hand: out = a then 256 x 0xA5, b = c, a unchanged — for aligned host bytes (in place), for
   bytes one past an aligned address (copied) and with the reference handlers (copied). */
static void alias_probe(void)
{
    static const char *k =
        "module attributes {pto.target_arch = \"a5\"} {\n"
        "  func.func @ap(%a: !pto.ptr<ui8, gm>, %b: !pto.ptr<ui8, gm>, %c: !pto.ptr<ui8, gm>, %out: !pto.ptr<ui8, gm>) attributes {pto.kernel} {\n"
        "    %c0 = arith.constant 0 : i64\n"
        "    %c1 = arith.constant 1 : i64\n"
        "    %c256 = arith.constant 256 : i64\n"
        "    %c512 = arith.constant 512 : i64\n"
        "    %c1024 = arith.constant 1024 : i64\n"
        "    %u0 = pto.castptr %c0 : i64 -> !pto.ptr<ui8, ub>\n"
        "    %u1 = pto.castptr %c256 : i64 -> !pto.ptr<ui8, ub>\n"
        "    %u2 = pto.castptr %c1024 : i64 -> !pto.ptr<ui8, ub>\n"
        "    pto.mte_gm_ub %a, %u0, %c0, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
        "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
        "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
        "    pto.mte_ub_gm %u0, %b, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
        "    pto.set_flag[\"PIPE_MTE3\", \"PIPE_MTE2\", \"EVENT_ID0\"]\n"
        "    pto.wait_flag[\"PIPE_MTE3\", \"PIPE_MTE2\", \"EVENT_ID0\"]\n"
        "    pto.mte_gm_ub %b, %u1, %c0, %c512 nburst(%c1, %c512, %c512) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
        "    pto.mte_gm_ub %c, %u2, %c0, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
        "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID1\"]\n"
        "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID1\"]\n"
        "    pto.mte_ub_gm %u1, %out, %c512 nburst(%c1, %c512, %c512) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
        "    pto.mte_ub_gm %u2, %b, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
        "    pto.barrier #pto.pipe<PIPE_ALL>\n"
        "    return\n"
        "  }\n"
        "}\n";
    unsigned char *mem = aligned_alloc(64, 4 * 1024);
    for (int v = 0; mem && v < 3; v++) {
        PtoContext *ctx = pto_context_new();
        if (v == 2) pto_context_set_fast_paths(ctx, 0);
        PtoModule *pm = pto_parse(ctx, "alias.pto", k, strlen(k));
        CHECK(pm && pto_verify(pm, PTO_TARGET_DEFAULT) == 0, "alias probe verifies");
        PtoLaunch *pl = pm ? pto_launch_new(pm, NULL, PTO_TARGET_DEFAULT) : NULL;
        size_t off = v == 1 ? 1 : 0;
        unsigned char *a = mem + off, *b = mem + 1024 + off, *c = mem + 2048 + off, *out = mem + 3072 + off;
        for (int i = 0; i < 256; i++) {
            a[i] = (unsigned char)(i * 5 + 1);
            b[i] = 0;
            c[i] = (unsigned char)(250 - i);
        }
        memset(out, 0, 512);
        for (int run = 0; pl && run < 2; run++) {   /* the second run: the same launch, b as the first left it */
            pto_launch_bind_buffer(pl, 0, a, 256);
            pto_launch_bind_buffer(pl, 1, b, 256);
            pto_launch_bind_buffer(pl, 2, c, 256);
            pto_launch_bind_buffer(pl, 3, out, 512);
            pto_launch_set_jobs(pl, 1);
            CHECK(pto_launch_run(pl, 1) == 0, "alias probe %d run %d", v, run);
            int ok = 1;
            for (int i = 0; i < 512; i++) ok &= out[i] == (i < 256 ? (unsigned char)(i * 5 + 1) : 0xA5);
            for (int i = 0; i < 256; i++) ok &= b[i] == (unsigned char)(250 - i) && a[i] == (unsigned char)(i * 5 + 1);
            CHECK(ok, "alias probe %d run %d: out = a and the gap byte, b = c, a unchanged", v, run);
        }
        pto_launch_free(pl);
        pto_module_free(pm);
        pto_context_free(ctx);
    }
    free(mem);
}

int main(void)
{
    PtoContext *ctx = pto_context_new();
    CHECK(ctx != NULL, "context");
    gap_probe(ctx);
    alias_probe();
    output_probe();
    PtoModule *m = pto_parse(ctx, "api.pto", kernel, strlen(kernel));
    CHECK(m != NULL && pto_error_count(ctx) == 0, "parse");
    CHECK(pto_verify(m, PTO_TARGET_DEFAULT) == 0, "verify");
    CHECK(pto_module_target(m) == PTO_TARGET_A5, "target from pto.target_arch");
    char *text = pto_print(m, 0);
    CHECK(text && strstr(text, "pto.mte_gm_ub") != NULL, "print");
    pto_free(text);

    PtoLaunch *l = pto_launch_new(m, NULL, PTO_TARGET_DEFAULT);
    CHECK(l != NULL, "launch");
    CHECK(pto_launch_num_params(l) == 3, "three parameters");
    PtoParamInfo pi;
    CHECK(pto_launch_param(l, 0, &pi) == 0 && pi.kind == PTO_PARAM_PTR && pi.elem_bits == 8 && !strcmp(pi.space, "gm"), "param 0 info");
    CHECK(pto_launch_param(l, 2, &pi) == 0 && pi.kind == PTO_PARAM_INT && pi.elem_bits == 64, "param 2 info");
    enum { BLOCKS = 4, N = 256 * BLOCKS };
    unsigned char *src = malloc(N), *dst = calloc(1, N);
    for (int i = 0; i < N; i++) src[i] = (unsigned char)(i * 37 + 11);
    PtoMemView mv;
    CHECK(pto_launch_mem(l, NULL, "ub", &mv) == -1, "no memory to read before a run");
    CHECK(pto_launch_run(l, 1) == 2, "run refuses unbound parameters");
    CHECK(pto_launch_bind_buffer(l, 0, src, N) == 0, "bind src");
    CHECK(pto_launch_bind_buffer(l, 1, dst, N) == 0, "bind dst");
    CHECK(pto_launch_bind_buffer(l, 2, dst, N) != 0, "a scalar cannot take a buffer");
    CHECK(pto_launch_bind_int(l, 2, 5) == 0, "bind scalar");
    CHECK(pto_launch_run(l, BLOCKS) == 0, "run four blocks");
    CHECK(memcmp(src, dst, N) == 0, "every block copied its slice");
    const PtoStats *st = pto_launch_stats(l);
    CHECK(st->cores == BLOCKS, "one core per block");
    CHECK(st->bytes_moved[3] == N && st->bytes_moved[4] == N, "bytes moved on MTE2 and MTE3");

    /* A smaller destination makes the last block store past its end: in the flat device GM the store lands
       (the byte past the buffer is in its gap, not in the caller's memory) with a warning at the store. */
    size_t before = pto_diag_count(ctx);
    memset(dst, 0, N);
    CHECK(pto_launch_bind_buffer(l, 1, dst, N - 1) == 0, "rebind short");
    CHECK(pto_launch_run(l, BLOCKS) == 0, "a store past the buffer completes");
    CHECK(memcmp(src, dst, N - 1) == 0 && dst[N - 1] == 0, "the buffer's bytes written, the byte after it untouched");
    PtoDiagInfo di;
    int found = 0;
    for (size_t i = before; i < pto_diag_count(ctx); i++)
        if (pto_diag_get(ctx, i, &di) == 0 && !strcmp(di.id, "W-GM-OOB") && di.line == 15 && di.severity == PTO_SEV_WARNING)
            found = 1;
    CHECK(found, "W-GM-OOB at line 15");
    /* Strict GM: the same store is a trap with an ID and location. */
    pto_launch_set_gm_strict(l, 1);
    before = pto_diag_count(ctx);
    CHECK(pto_launch_run(l, BLOCKS) == 3, "trap exit status");
    found = 0;
    for (size_t i = before; i < pto_diag_count(ctx); i++)
        if (pto_diag_get(ctx, i, &di) == 0 && !strcmp(di.id, "T-OOB") && di.line == 15 && di.severity == PTO_SEV_TRAP) found = 1;
    CHECK(found, "T-OOB at line 15");
    /* On-chip memory of the last block that ran, at its trap: block 3 had loaded src[768, 1024) into UB [0, 256). */
    CHECK(pto_launch_mem(l, NULL, "ub", &mv) == 0 && mv.block == BLOCKS - 1 && !strcmp(mv.core, "aiv0") && mv.size == 262144 &&
          memcmp(mv.data, src + 768, 256) == 0, "pto_launch_mem: UB of the trapping block");
    CHECK(pto_launch_mem(l, "aiv0", "ub", &mv) == 0 && mv.data[0] == src[768], "pto_launch_mem: aiv0 named");
    CHECK(pto_launch_mem(l, "aic", "l1", &mv) == -2 && pto_launch_mem(l, "aiv1", "ub", &mv) == -2, "a vector kernel has one AIV");
    CHECK(pto_launch_mem(l, NULL, "gm", &mv) == -3 && pto_launch_mem(l, "aiv2", "ub", &mv) == -3, "unknown space or core");
    pto_launch_set_gm_strict(l, 0);

    /* Buffers whose memory overlaps are one device allocation: dst = src + 256 makes each block copy its
       slice one slice further into the same memory. Blocks run in order, so block b reads what block b-1
       wrote: every slice ends up holding the first one. */
    unsigned char *one = malloc(N + 256), *first = malloc(256);
    for (int i = 0; i < N + 256; i++) one[i] = (unsigned char)(i * 13 + i / 256 * 7 + 5);   /* slices differ */
    memcpy(first, one, 256);
    CHECK(pto_launch_bind_buffer(l, 0, one, N) == 0 && pto_launch_bind_buffer(l, 1, one + 256, N) == 0, "bind overlapping");
    CHECK(pto_launch_run(l, BLOCKS) == 0, "overlapping buffers run");
    int same = 1;
    for (int b = 0; b <= BLOCKS; b++) same &= memcmp(one + 256 * b, first, 256) == 0;
    CHECK(same, "overlapping buffers are one allocation");
    free(one);
    free(first);
    pto_launch_free(l);

    /* Two independent contexts in one process (no global state). */
    PtoContext *ctx2 = pto_context_new();
    PtoModule *m2 = pto_parse(ctx2, "bad.pto", "module { func.func @f() { %x = arith.addi %y, %y : i32\n return } }", 66);
    CHECK(pto_error_count(ctx2) > 0 && pto_error_count(ctx) > 0, "separate diagnostics");
    CHECK(pto_diag_get(ctx2, 0, &di) == 0 && !strcmp(di.id, "E-SSA-UNDEF") && di.line == 1, "undefined value diagnosed");
    pto_module_free(m2);
    pto_context_free(ctx2);

    /* Notes: the access past the end of UB points back at the address computation (line 7). */
    {
        static const char *nk =
            "module attributes {pto.target_arch = \"a5\"} {\n"
            "  func.func @k(%src: !pto.ptr<ui8, gm>) attributes {pto.kernel} {\n"
            "    %c0 = arith.constant 0 : i64\n"
            "    %c1 = arith.constant 1 : i64\n"
            "    %c256 = arith.constant 256 : i64\n"
            "    %end = arith.constant 262144 : i64\n"
            "    %past = pto.castptr %end : i64 -> !pto.ptr<ui8, ub>\n"
            "    pto.mte_gm_ub %src, %past, %c0, %c256 nburst(%c1, %c256, %c256) : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
            "    return\n"
            "  }\n"
            "}\n";
        PtoContext *c4 = pto_context_new();
        PtoModule *m4 = pto_parse(c4, "n.pto", nk, strlen(nk));
        CHECK(m4 && pto_verify(m4, PTO_TARGET_DEFAULT) > 0, "access past UB diagnosed");
        int noted = 0;
        for (size_t i = 0; i < pto_diag_count(c4); i++) {
            PtoDiagInfo d, n;
            if (pto_diag_get(c4, i, &d) || d.line != 8 || !d.nnotes) continue;
            CHECK(pto_diag_note_get(c4, i, d.nnotes, &n) == -1, "note index past the end");
            if (pto_diag_note_get(c4, i, 0, &n) == 0 && n.severity == PTO_SEV_NOTE && !strcmp(n.id, d.id) && n.file &&
                !strcmp(n.file, "n.pto") && n.line == 7 && n.col == 5 && n.message && n.nnotes == 0)
                noted = 1;
        }
        CHECK(noted, "pto_diag_note_get: the note at 7:5");
        CHECK(pto_diag_note_get(c4, pto_diag_count(c4), 0, &di) == -1, "diagnostic index past the end");
        pto_module_free(m4);
        pto_context_free(c4);
    }

    /* Statistics: every executed vector-pipe instruction counts once in vector_ops, whatever its family
       (predicate generation, load, compute, store): 2 iterations x (plt, vlds, vadd, vsts) + pset = 9. */
    {
        static const char *vk =
            "module attributes {pto.target_arch = \"a5\"} {\n"
            "  func.func @v() attributes {pto.kernel} {\n"
            "    %c0 = arith.constant 0 : index\n"
            "    %c2 = arith.constant 2 : index\n"
            "    %c1 = arith.constant 1 : index\n"
            "    %c0_i64 = arith.constant 0 : i64\n"
            "    %n = arith.constant 40 : i32\n"
            "    %p = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
            "    pto.vecscope {\n"
            "      %all = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
            "      scf.for %i = %c0 to %c2 step %c1 {\n"
            "        %m, %rest = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32\n"
            "        %x = pto.vlds %p[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
            "        %y = pto.vadd %x, %x, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
            "        pto.vsts %y, %p[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
            "      }\n"
            "    }\n"
            "    pto.barrier #pto.pipe<PIPE_ALL>\n"
            "    return\n"
            "  }\n"
            "}\n";
        PtoContext *c3 = pto_context_new();
        PtoModule *m3 = pto_parse(c3, "v.pto", vk, strlen(vk));
        CHECK(m3 && pto_error_count(c3) == 0 && pto_verify(m3, PTO_TARGET_DEFAULT) == 0, "vector kernel checks");
        PtoLaunch *l3 = m3 ? pto_launch_new(m3, NULL, PTO_TARGET_DEFAULT) : NULL;
        CHECK(l3 && pto_launch_run(l3, 1) == 0, "vector kernel runs");
        CHECK(l3 && pto_launch_stats(l3)->vector_ops == 9, "vector_ops counts every vector-pipe instruction");
        CHECK(l3 && pto_launch_stats(l3)->bytes_moved[1] == 4 * 256, "V moved two loads and two stores of 256 bytes");
        pto_launch_free(l3);
        pto_module_free(m3);
        pto_context_free(c3);
    }

    pto_module_free(m);
    pto_context_free(ctx);
    free(src);
    free(dst);
    return check_finish();
}

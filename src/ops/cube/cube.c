/* cube.c — the cube family's lowering router and its data movement: GM→L1 (mte_gm_l1 through the DMA
 * family's grouped engine, mte_gm_l1_frac ND/DN→NZ repack), L1→UB of AIV0, L1→L0A/L0B tile loads (with
 * transpose), MX scale loads, L1→BT (f16/bf16 widened to f32) and L1→FB parameter loads. MAD lives in
 * cube_mad.c and FIXPIPE writeback in cube_fix.c. Every op checks its whole footprint (bounds,
 * alignment, field widths) before it writes a byte, so a trap leaves memory untouched.
 * Semantics, units and their evidence: docs/semantics.md §8. */
#include "cube_int.h"
#include "base/alloc.h"
#include "exec/race.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>


/* Formats a message into the program arena (for cube_unsupported). */
static const char *amsg(LowerView *L, const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = lw_alloc(L, NULL, n);
    if (!s) return "out of memory";
    strcpy(s, a);
    strcat(s, b);
    strcat(s, c);
    return s;
}

/* ------------------------------------------------------------------ burst copies (L1->UB, L1->FB) */

typedef struct Burst {
    AddrSpace sas, das;
    Core *dcore;
    uint64_t src, dst, len, n, sstep, dstep;
    int nl;
    uint64_t lc[4], ls[4], ld[4];
} Burst;

static int burst_run(Exec *x, const Instr *in, const Burst *b)
{
    uint64_t rows = b->n;
    for (int i = 0; i < b->nl; i++) if (!b->lc[i]) rows = 0;
    for (int i = 0; i < b->nl; i++) rows = rows > (1ull << 40) ? rows : rows * b->lc[i];   /* counts < 2^21: no overflow */
    if (rows == 0 || b->len == 0) return 0;
    if (rows > (1ull << 24)) {   /* overlapping (zero-stride) bursts could otherwise run for hours */
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "%" PRIu64 " bursts exceed the simulator's limit of 2^24 per copy", rows);
        return -1;
    }
    uint64_t shi = (b->n - 1) * b->sstep + b->len, dhi = (b->n - 1) * b->dstep + b->len;
    for (int i = 0; i < b->nl; i++) {
        shi += (b->lc[i] - 1) * b->ls[i];
        dhi += (b->lc[i] - 1) * b->ld[i];
    }
    uint8_t *s = sim_mem(x, in, b->sas, b->src, shi, 32, ACC_READ, "source");
    if (!s) return -1;
    uint8_t *d = sim_mem_core(x, b->dcore ? b->dcore : x->core, in, b->das, b->dst, dhi, 32, ACC_WRITE, "destination");
    if (!d) return -1;
    uint64_t idx[4] = {0, 0, 0, 0}, so = 0, dof = 0;
    for (;;) {
        for (uint64_t r = 0; r < b->n; r++) memmove(d + dof + r * b->dstep, s + so + r * b->sstep, b->len);
        int i = 0;
        for (; i < b->nl; i++) {
            if (++idx[i] < b->lc[i]) {
                so += b->ls[i];
                dof += b->ld[i];
                break;
            }
            so -= (idx[i] - 1) * b->ls[i];
            dof -= (idx[i] - 1) * b->ld[i];
            idx[i] = 0;
        }
        if (i == b->nl) break;
    }
    sim_transfer(x, b->sas, b->das, rows * b->len);
    return 0;
}

/* Decoded operands of mte_l1_ub (Instr.imm): operand indices, except LU_NLOOPS. Loop group i reads the
   operands imm[LU_LC] + i, imm[LU_LS] + i and imm[LU_LD] + i. */
enum {
    LU_LEN,      /* len_burst */
    LU_N,        /* n_burst */
    LU_SGAP,     /* source gap */
    LU_DGAP,     /* destination gap */
    LU_NLOOPS,   /* number of loop(...) groups, 0..4 */
    LU_LC,       /* loop count of the first group */
    LU_LS,       /* source stride of the first group */
    LU_LD,       /* destination stride of the first group */
};

/* mte_l1_ub: len and nburst gaps in 32-byte blocks (resolutions Q15), advance = (len + gap)·32; loop strides
   in 32-byte blocks, start to start. Writes the UB of AIV0 (subblock 0) of the cluster, or the issuing
   core's own UB when the kernel is not mixed. */
static int p_l1_ub(Exec *x, const Instr *in, const uint64_t *a)
{
    Burst b;
    memset(&b, 0, sizeof b);
    uint64_t len = a[in->imm[LU_LEN]], n = a[in->imm[LU_N]], sg = a[in->imm[LU_SGAP]], dg = a[in->imm[LU_DGAP]];
    if (cube_field(x, in, "len_burst (32-byte blocks)", len, 16) || cube_field(x, in, "n_burst", n, 16) ||
        cube_field(x, in, "source gap (32-byte blocks)", sg, 16) || cube_field(x, in, "destination gap (32-byte blocks)", dg, 16))
        return -1;
    b.sas = AS_L1;
    b.das = AS_UB;
    b.src = a[0];
    b.dst = a[1];
    b.len = len * 32;
    b.n = n;
    b.sstep = (len + sg) * 32;
    b.dstep = (len + dg) * 32;
    b.nl = (int)in->imm[LU_NLOOPS];
    for (int i = 0; i < b.nl; i++) {
        b.lc[i] = a[in->imm[LU_LC] + i];
        b.ls[i] = a[in->imm[LU_LS] + i];
        b.ld[i] = a[in->imm[LU_LD] + i];
        if (cube_field(x, in, "loop count", b.lc[i], 21) || cube_field(x, in, "loop source stride (32-byte blocks)", b.ls[i], 24) ||
            cube_field(x, in, "loop destination stride (32-byte blocks)", b.ld[i], 24))
            return -1;
        b.ls[i] *= 32;
        b.ld[i] *= 32;
    }
    Cluster *cl = x->core->cl;
    if (cl->ncores == 3) b.dcore = &cl->cores[1];
    if (burst_run(x, in, &b)) return -1;
    sim_release(x, RC_BUF, sim_l1ub_key(x->core));   /* a later set on FIX waits for this copy (§8.1) */
    return 0;
}

/* mte_l1_fb, copy_cbuf_to_fbuf: len and gaps in parameter-load units of 64 bytes (resolutions Q51, best reading).
   Instr.imm holds the operand indices of len, n, sg, dg (the two ops write n and len in different orders). */
enum { FB_UNIT = 64 };
static int p_l1_fb(Exec *x, const Instr *in, const uint64_t *a)
{
    return cube_l1_fb_exec(x, in, a[0], a[1], a[in->imm[0]], a[in->imm[1]], a[in->imm[2]], a[in->imm[3]]);
}

int cube_l1_fb_exec(Exec *x, const Instr *in, uint64_t src, uint64_t dst, uint64_t len, uint64_t n, uint64_t sg,
                    uint64_t dg)
{
    Burst b;
    memset(&b, 0, sizeof b);
    if (cube_field(x, in, "len_burst (64-byte parameter-load units)", len, 16) || cube_field(x, in, "n_burst", n, 16) ||
        cube_field(x, in, "source gap (64-byte units)", sg, 16) || cube_field(x, in, "destination gap (64-byte units)", dg, 16))
        return -1;
    b.sas = AS_L1;
    b.das = AS_FB;
    b.src = src;
    b.dst = dst;
    b.len = len * FB_UNIT;
    b.n = n;
    b.sstep = (len + sg) * FB_UNIT;
    b.dstep = (len + dg) * FB_UNIT;
    return burst_run(x, in, &b);
}

/* Decoded operands of mte_l1_bt (Instr.imm). */
enum {
    BT_SRC_FMT,     /* NumFormat of a float source element (-1: an integer) */
    BT_SRC_BYTES,   /* bytes of a source element */
};

/* mte_l1_bt: the bias-load unit is one bias element (isa-notes §4.8; resolutions Q51 leaves the unit open and
   "len 16 for 16 values" fits it). Each burst moves len elements; src advances (len + src_gap) source
   elements, dst (len + dst_gap) 32-bit BT entries. f16/bf16 sources are widened to f32 (exact), f32 and
   32-bit integers are copied. */
static int p_l1_bt(Exec *x, const Instr *in, const uint64_t *a)
{
    return cube_l1_bt_exec(x, in, (int)in->imm[BT_SRC_FMT], (unsigned)in->imm[BT_SRC_BYTES], a[0], a[1], a[2], a[3], a[4],
                           a[5]);
}

int cube_l1_bt_exec(Exec *x, const Instr *in, int sfmt, unsigned se, uint64_t src, uint64_t dst, uint64_t len,
                    uint64_t n, uint64_t sg, uint64_t dg)
{
    if (cube_field(x, in, "len_burst (bias elements)", len, 16) || cube_field(x, in, "n_burst", n, 16) ||
        cube_field(x, in, "source gap (bias elements)", sg, 16) || cube_field(x, in, "destination gap (bias elements)", dg, 16))
        return -1;
    if (!len || !n) return 0;
    uint64_t shi = ((n - 1) * (len + sg) + len) * se, dhi = ((n - 1) * (len + dg) + len) * 4;
    const uint8_t *s = sim_mem(x, in, AS_L1, src, shi, 32, ACC_READ, "source");
    if (!s) return -1;
    uint8_t *d = sim_mem(x, in, AS_BT, dst, dhi, 32, ACC_WRITE, "destination");
    if (!d) return -1;
    for (uint64_t r = 0; r < n; r++)
        for (uint64_t i = 0; i < len; i++) {
            const uint8_t *sp = s + (r * (len + sg) + i) * se;
            uint8_t *dp = d + (r * (len + dg) + i) * 4;
            if (se == 4) {
                memmove(dp, sp, 4);
            } else {
                uint64_t v = 0;
                memcpy(&v, sp, se);
                uint32_t w = (uint32_t)num_convert((NumFormat)sfmt, v, NUM_F32, NUM_RND_R, false);
                memcpy(dp, &w, 4);
            }
        }
    sim_transfer(x, AS_L1, AS_BT, n * len * 4);
    return 0;
}

/* raw_fill_l1 (spec 16-cube-matmul): from dst + off (32-byte aligned), rep repetitions of blk 32-byte blocks,
   gap blocks between repetitions; each block holds the low 16 bits of val repeated (fill_word_bits 16, imm[0])
   or val itself (32), little-endian. */
static int p_raw_fill(Exec *x, const Instr *in, const uint64_t *a)
{
    uint64_t rep = a[3], blk = a[4], gap = a[5];
    if (cube_field(x, in, "repeat_times", rep, 15) || cube_field(x, in, "block_num_32b", blk, 15) ||
        cube_field(x, in, "dst_gap_32b", gap, 15))
        return -1;
    if (a[1] >> 63) {
        sim_trap(x, in, DIAG_T_FIELD, "byte offset %" PRId64 " is negative", (int64_t)a[1]);
        return -1;
    }
    if (!rep || !blk) return 0;
    uint64_t base = sim_index_addr(a[0], (int64_t)a[1], 1);
    uint8_t *d = sim_mem_span(x, x->core, in, AS_L1, base, ((rep - 1) * (blk + gap) + blk) * 32, 32, ACC_WRITE, "destination");
    if (!d) return -1;
    if (sim_watching(x->core, AS_L1)) {   /* the checkers see the blocks written, not the gaps between them */
        SimRun run = {0, 0};
        for (uint64_t r = 0; r < rep; r++) sim_run_add(x, in, x->core, AS_L1, &run, base + r * (blk + gap) * 32, blk * 32, ACC_WRITE);
        sim_run_end(x, in, x->core, AS_L1, &run, ACC_WRITE);
    }
    uint8_t pat[32];
    uint32_t v = (uint32_t)a[2];
    for (unsigned i = 0; i < 32; i++) pat[i] = (uint8_t)(v >> (8 * (i % (in->imm[0] == 16 ? 2u : 4u))));
    for (uint64_t r = 0; r < rep; r++)
        for (uint64_t b = 0; b < blk; b++) memcpy(d + (r * (blk + gap) + b) * 32, pat, 32);
    sim_transfer(x, AS_GM, AS_L1, rep * blk * 32);
    return 0;
}

/* ------------------------------------------------------------------ mte_gm_l1_frac */

typedef struct FracExt { int16_t sn, sd, inner, outer, g, s2, s3, s4, smallc0; uint8_t dn, e; } FracExt;

/* ND (or DN) -> NZ (resolutions Q50): for each group gi < g, row r < R and column block cb < ⌈C/C0⌉ one
   32-byte L1 row at dst + gi·s4·32 + (cb·s3·s2 + r·s2)·32 holds columns cb·C0 .. cb·C0+C0-1 of row r;
   columns >= C are zero (the partial last block is zero-filled). Rows R .. ⌈R/16⌉·16-1 are not written.
   Source element (r, c) of group gi: src + gi·outer + r·inner + c·E (nd2nz) or + c·inner + r·E (dn2nz). */
static int p_frac(Exec *x, const Instr *in, const uint64_t *a)
{
    const FracExt *fe = in->ext;
    if (a[fe->smallc0] & 1) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "small-C0 packing (ctrl(..., true)) is not simulated: its layout is unresolved");
        return -1;
    }
    return cube_frac_exec(x, in, fe->dn, fe->e, a[0], a[1], a[fe->sn], a[fe->sd], a[fe->inner],
                          fe->outer >= 0 ? a[fe->outer] : 0, a[fe->g], a[fe->s2], a[fe->s3], a[fe->s4]);
}

int cube_frac_exec(Exec *x, const Instr *in, int dn, unsigned e, uint64_t src, uint64_t dst, uint64_t R, uint64_t C,
                   uint64_t inner, uint64_t outer, uint64_t g, uint64_t s2, uint64_t s3, uint64_t s4)
{
    if (cube_field(x, in, "shape n", R, 16) || cube_field(x, in, "shape d", C, 16) ||
        cube_field(x, in, "src_layout inner stride (bytes)", inner, 40) || cube_field(x, in, "src_layout outer stride (bytes)", outer, 40) ||
        cube_field(x, in, "dst_group count", g, 16) || cube_field(x, in, "dst_group s2 (32-byte units)", s2, 16) ||
        cube_field(x, in, "dst_group s3 (32-byte units)", s3, 16) || cube_field(x, in, "dst_group s4 (32-byte units)", s4, 16))
        return -1;
    if (!R || !C || !g) return 0;
    unsigned c0 = 32u / e;
    uint64_t nb = ceil_div(C, c0);
    if (g * R * nb > (1ull << 24)) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "%" PRIu64 " NZ rows exceed the simulator's limit of 2^24 per copy", g * R * nb);
        return -1;
    }
    uint64_t dhi = ((g - 1) * s4 + (nb - 1) * s3 * s2 + (R - 1) * s2) * 32 + 32;
    uint64_t shi = (g - 1) * outer + (dn ? (C - 1) * inner + R * e : (R - 1) * inner + C * e);
    /* the spans are checked; the rows (columns) read and the 32-byte rows written are what the checkers see */
    const uint8_t *s = sim_mem_span(x, x->core, in, AS_GM, src, shi, 1, ACC_READ, "source");
    if (!s) return -1;
    uint8_t *d = sim_mem_span(x, x->core, in, AS_L1, dst, dhi, 32, ACC_WRITE, "destination");
    if (!d) return -1;
    if (sim_watching(x->core, AS_GM) || sim_watching(x->core, AS_L1)) {
        SimRun rs = {0, 0}, rd = {0, 0};
        for (uint64_t gi = 0; gi < g; gi++) {
            for (uint64_t k = 0; k < (dn ? C : R); k++)
                sim_run_add(x, in, x->core, AS_GM, &rs, src + gi * outer + k * inner, (dn ? R : C) * e, ACC_READ);
            for (uint64_t cb = 0; cb < nb; cb++)
                for (uint64_t r = 0; r < R; r++)
                    sim_run_add(x, in, x->core, AS_L1, &rd, dst + (gi * s4 + cb * s3 * s2 + r * s2) * 32, 32, ACC_WRITE);
        }
        sim_run_end(x, in, x->core, AS_GM, &rs, ACC_READ);
        sim_run_end(x, in, x->core, AS_L1, &rd, ACC_WRITE);
    }
    for (uint64_t gi = 0; gi < g; gi++)
        for (uint64_t r = 0; r < R; r++)
            for (uint64_t cb = 0; cb < nb; cb++) {
                uint8_t row[32];
                memset(row, 0, sizeof row);
                for (unsigned j = 0; j < c0; j++) {
                    uint64_t c = cb * c0 + j;
                    if (c >= C) break;
                    uint64_t so = gi * outer + (dn ? c * inner + r * e : r * inner + c * e);
                    elem_copy(row + j * e, s + so, e);
                }
                memcpy(d + (gi * s4 + cb * s3 * s2 + r * s2) * 32, row, 32);
            }
    sim_transfer(x, AS_GM, AS_L1, g * R * nb * 32);
    return 0;
}

/* ------------------------------------------------------------------ L1 -> L0A / L0B */

/* Decoded operands of the L1 -> L0A / L0B loads (Instr.imm); the MX scale loads use L0_SIDE only. */
enum {
    L0_E,       /* element bytes */
    L0_TRANS,   /* 1: transpose */
    L0_SR,      /* start_row operand index (-1) */
    L0_SC,      /* start_col operand index (-1) */
    L0_SIDE,    /* 0 L0A, 1 L0B */
};

/* The L0 tile is the NZ matrix [R, K] (R = M for L0A, N for L0B) with pitch ⌈R/16⌉·16, i.e. the hardware
   orders K1 M1 M0 K0 / K1 N1 N0 K0 (isa-notes §4.9). Without transpose the L1 tile has that same layout
   (A [M,K]; B^T [N,K]); with transpose the L1 tile is the [K, R] NZ matrix with pitch ⌈K/16⌉·16 (B [K,N] as
   nd2nz wrote it, resolutions Q35). Logical cells are copied; the padding of the L0 tile is zeroed. */
/* Traps for a non-zero start_row/start_col of an L1 -> L0 load (data or MX scales); returns 1 then. */
static int l0_start_trap(Exec *x, const Instr *in, const uint64_t *a)
{
    if (!(in->imm[L0_SR] >= 0 && a[in->imm[L0_SR]]) && !(in->imm[L0_SC] >= 0 && a[in->imm[L0_SC]])) return 0;
    sim_trap(x, in, DIAG_T_UNSUPPORTED, "non-zero start_row/start_col (%" PRIu64 ", %" PRIu64 ") is not simulated: "
             "the source matrix extent it needs is not an operand (resolutions Q39)",
             in->imm[L0_SR] >= 0 ? a[in->imm[L0_SR]] : 0, in->imm[L0_SC] >= 0 ? a[in->imm[L0_SC]] : 0);
    return 1;
}

static int p_l1_l0(Exec *x, const Instr *in, const uint64_t *a)
{
    if (l0_start_trap(x, in, a)) return -1;
    int side = (int)in->imm[L0_SIDE];
    return cube_l1_l0_exec(x, in, side, (int)in->imm[L0_TRANS], (unsigned)in->imm[L0_E], a[0], a[1], side ? a[3] : a[2],
                           side ? a[2] : a[3], NULL);
}

/* Packed fp4 (e = 0, semantics §8.2): a 32-byte NZ row holds 64 values, two per byte, the even index in the low
   nibble. Without transpose the bytes move as 1-byte elements of K/2 columns; with transpose L1 holds B [K, N] as
   nd2nz of its [K, N/2] bytes wrote it and each L0B byte pairs (k, k+1) of one column n. */
static int l1_l0_fp4(Exec *x, const Instr *in, int side, int tr, uint64_t src, uint64_t dst, uint64_t R, uint64_t K)
{
    uint64_t dp = pad16(R), dlen = ceil_div(K, 64) * dp * 32;
    uint64_t sp = pad16(K), slen = tr ? ceil_div(R, 64) * sp * 32 : dlen;
    const uint8_t *s = sim_mem(x, in, AS_L1, src, slen, 32, ACC_READ, "source");
    if (!s) return -1;
    uint8_t *d = sim_mem(x, in, side ? AS_L0B : AS_L0A, dst, dlen, 32, ACC_WRITE, "destination");
    if (!d) return -1;
    if (!tr) {
        memmove(d, s, dlen);
    } else {
        memset(d, 0, dlen);
        for (uint64_t r = 0; r < R; r++)
            for (uint64_t k = 0; k < K; k++) {
                uint8_t v = s[nz_off(k, r / 2, sp, 1)] >> (4 * (r % 2)) & 0xF;
                d[nz_off(r, k / 2, dp, 1)] |= (uint8_t)(v << (4 * (k % 2)));
            }
    }
    sim_transfer(x, AS_L1, side ? AS_L0B : AS_L0A, dlen);
    return 0;
}

static int l1_l0_frac(Exec *x, const Instr *in, int side, int tr, unsigned e, uint64_t src, uint64_t dst, uint64_t ms,
                      uint64_t ks, uint64_t mst, uint64_t kst, uint64_t ss, uint64_t ds);

/* cube_l1_l0_exec, or its image into the host bytes `img` when given (no L0 access, no transfer counted). */
static int l1_l0(Exec *x, const Instr *in, int side, int tr, unsigned e, uint64_t src, uint64_t dst, uint8_t *img,
                 uint64_t R, uint64_t K, const CubeWin *w)
{
    const char *rn = side ? "n" : "m";
    if (cube_field(x, in, rn, R, 16) || cube_field(x, in, "k", K, 16)) return -1;
    if (!R || !K) return 0;
    uint64_t r0 = w ? w->r0 : 0, k0 = w ? w->k0 : 0, SR = w ? w->sr : R, SK = w ? w->sk : K;
    if (!e) {
        if (w) {   /* the tile layer does not send packed fp4 here (tile_lower_cube_mov) */
            sim_trap(x, in, DIAG_T_UNSUPPORTED, "a window of a packed fp4 source is not simulated");
            return -1;
        }
        return l1_l0_fp4(x, in, side, tr, src, dst, R, K);
    }
    unsigned c0 = 32u / e;
    /* A transposing 1-byte load of the micro shape form runs as the full-control load the compiler expands it to
       (semantics §8.3): 32-row blocks whose destination pitch is the dimension aligned to 32, while a MAD reads L0
       at the pitch aligned to 16. The tile layer's windows and mat-operand images are the logical copy below. */
    if (tr && e == 1 && !w && !img) {
        uint64_t kf = ceil_div(K, 32) * 2, rf = ceil_div(R, 32);
        return l1_l0_frac(x, in, side, 1, 1, src, dst, 0, 0, kf, rf, kf, rf * 2);
    }
    uint64_t dp = pad16(R), dlen = ceil_div(K, c0) * dp * 32;
    /* source: [SR, SK] NZ with pitch pad16(SR), or transposed [SK, SR] NZ with pitch pad16(SK) */
    uint64_t sp = tr ? pad16(SK) : pad16(SR);
    uint64_t slen = tr ? ceil_div(SR, c0) * sp * 32 : ceil_div(SK, c0) * sp * 32;
    if (w && (r0 + R > SR || k0 + K > SK)) {
        sim_trap(x, in, DIAG_T_TILE, "the window of %" PRIu64 "x%" PRIu64 " at (%" PRIu64 ", %" PRIu64 ") leaves the "
                 "%" PRIu64 "x%" PRIu64 " source", side ? K : R, side ? R : K, side ? k0 : r0, side ? r0 : k0,
                 side ? SK : SR, side ? SR : SK);
        return -1;
    }
    /* the load addresses whole fractals: 16 rows by 32 bytes (semantics §14.5 "textract") */
    if (w && (r0 % 16 || (k0 * e) % 32)) {
        sim_trap(x, in, DIAG_T_TILE, "the window start (%" PRIu64 ", %" PRIu64 ") is not on a fractal boundary "
                 "(16 rows, 32 bytes): the L1->L0 load moves whole fractals", side ? k0 : r0, side ? r0 : k0);
        return -1;
    }
    const uint8_t *s = sim_mem(x, in, AS_L1, src, slen, 32, ACC_READ, "source");
    if (!s) return -1;
    uint8_t *d = img ? img : sim_mem(x, in, side ? AS_L0B : AS_L0A, dst, dlen, 32, ACC_WRITE, "destination");
    if (!d) return -1;
    if (!tr && !w) {
        /* whole 512-byte fractals, padding rows and columns included, as the fractal loads the shape form
           expands to (semantics §8.3): for m = 1 a raw row of K elements in L1 reaches L0A unchanged (GEMV) */
        memmove(d, s, dlen);
    } else if (!tr) {
        /* whole fractals of the window: column block j of the destination from block k0/c0 + j of the source,
           rows r0 .. r0 + pad16(R) (the source rows past the window's end, up to a fractal, come along) */
        uint64_t nr = dp;
        if (r0 + nr > sp) nr = sp - r0;
        memset(d, 0, dlen);
        for (uint64_t j = 0; j < ceil_div(K, c0); j++)
            memmove(d + j * dp * 32, s + ((k0 / c0 + j) * sp + r0) * 32, nr * 32);
    } else {
        memset(d, 0, dlen);
        for (uint64_t r = 0; r < R; r++)
            for (uint64_t k = 0; k < K; k++)
                elem_copy(d + nz_off(r, k, dp, e), s + nz_off(k0 + k, r0 + r, sp, e), e);
    }
    if (!img) sim_transfer(x, AS_L1, side ? AS_L0B : AS_L0A, dlen);
    return 0;
}

int cube_l1_l0_exec(Exec *x, const Instr *in, int side, int tr, unsigned e, uint64_t src, uint64_t dst, uint64_t R,
                    uint64_t K, const CubeWin *w)
{
    return l1_l0(x, in, side, tr, e, src, dst, NULL, R, K, w);
}

int cube_l1_l0_image(Exec *x, const Instr *in, int side, int tr, unsigned e, uint64_t src, uint8_t *d, uint64_t R,
                     uint64_t K)
{
    if (!e) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "a packed fp4 operand in a mat tile is not simulated");
        return -1;
    }
    return l1_l0(x, in, side, tr, e, src, 0, d, R, K, NULL);
}

/* Full-control loads (semantics §8.3): a fractal is 16 rows of 32 bytes (512 bytes). For i < m_step, j < k_step the
   source fractal ((k_start + j)·src_stride + m_start + i) is copied to destination fractal (j·dst_stride + i), or
   with transpose, transposed as a 16 x 16 matrix of 2-byte elements, to fractal (i·dst_stride + j). This is how
   the compiler expands the shape form: steps = the fractal counts, strides = the NZ pitches in fractals. */
static int p_l1_l0_full(Exec *x, const Instr *in, const uint64_t *a)
{
    const uint64_t *f = a + in->imm[L0_SR];
    if (cube_field(x, in, "m_start", f[0], 16) || cube_field(x, in, "k_start", f[1], 16) ||
        cube_field(x, in, "m_step", f[2], 8) || cube_field(x, in, "k_step", f[3], 8) ||
        cube_field(x, in, "src_stride", f[4], 16) || cube_field(x, in, "dst_stride", f[5], 16))
        return -1;
    return l1_l0_frac(x, in, (int)in->imm[L0_SIDE], (int)in->imm[L0_TRANS], (unsigned)in->imm[L0_E], a[0], a[1], f[0],
                      f[1], f[2], f[3], f[4], f[5]);
}

/* The fractal engine of the full-control loads, and of the shape form's transposing 1-byte load. A 1-byte
   transpose takes the source fractals in pairs (i, i + 1: 32 rows by 32 bytes), transposes the 32 x 32 bytes and
   writes its two halves (columns 0-15, 16-31 of the source block) to destination fractals (i/2)·dst_stride + 2j
   and + 1; an odd m_step traps (semantics §8.3). */
static int l1_l0_frac(Exec *x, const Instr *in, int side, int tr, unsigned e, uint64_t src, uint64_t dst, uint64_t ms,
                      uint64_t ks, uint64_t mst, uint64_t kst, uint64_t ss, uint64_t ds)
{
    if (!mst || !kst) return 0;
    int b8 = tr && e == 1;
    if (b8 && mst % 2) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "a transposing 1-byte load moves fractals in pairs (32 rows): m_step %"
                 PRIu64 " is odd", mst);
        return -1;
    }
    /* source footprint from the first fractal read to the end of the last */
    uint64_t slo = ks * ss + ms, shi = ((ks + kst - 1) * ss + ms + mst) * 512 - slo * 512;
    uint64_t dhi = (b8 ? (mst / 2 - 1) * ds + 2 * kst : tr ? (mst - 1) * ds + kst : (kst - 1) * ds + mst) * 512;
    const uint8_t *s = sim_mem(x, in, AS_L1, sim_index_addr(src, (int64_t)slo, 512), shi, 32, ACC_READ, "source");
    if (!s) return -1;
    s -= slo * 512;
    uint8_t *d = sim_mem(x, in, side ? AS_L0B : AS_L0A, dst, dhi, 32, ACC_WRITE, "destination");
    if (!d) return -1;
    for (uint64_t j = 0; j < kst; j++)
        for (uint64_t i = 0; i < mst; i += 1 + b8) {
            const uint8_t *sf = s + ((ks + j) * ss + ms + i) * 512;
            if (!tr) {
                memmove(d + (j * ds + i) * 512, sf, 512);
                continue;
            }
            uint8_t t[1024];
            if (b8) {   /* t: the two destination fractals, rows = source columns, bytes = source rows */
                for (unsigned r = 0; r < 32; r++)
                    for (unsigned c = 0; c < 32; c++) t[(c / 16) * 512 + (c % 16) * 32 + r] = sf[r * 32 + c];
                memcpy(d + ((i / 2) * ds + 2 * j) * 512, t, 1024);
                continue;
            }
            for (unsigned r = 0; r < 16; r++)
                for (unsigned c = 0; c < 16; c++) memcpy(t + c * 32 + r * 2, sf + r * 32 + c * 2, 2);
            memcpy(d + (i * ds + j) * 512, t, 512);
        }
    sim_transfer(x, AS_L1, side ? AS_L0B : AS_L0A, mst * kst * 512);
    return 0;
}

/* MX scales (resolutions Q40): one E8M0 byte per 32-element K group. L1 holds them in 32-byte fragments of
   16 rows x 2 groups: scale (r, g) at ((r/16)·⌈G/2⌉ + g/2)·32 + (r%16)·2 + g%2, r = m (left) or n (right);
   for G = 2 this is the [m][g] / [n][g] row-major order of Q40. The load copies those ⌈R/16⌉·16·⌈G/2⌉·2 bytes
   unchanged into the state associated with the L0 data tile at dst (state(dst/32) on), and the MAD reads them
   in that order (cube_mad.c mx_scale_at; a GEMV left operand reads its row's G scales as consecutive bytes). */
static int p_l1_mx(Exec *x, const Instr *in, const uint64_t *a)
{
    int side = (int)in->imm[L0_SIDE];
    uint64_t R = side ? a[3] : a[2], K = side ? a[2] : a[3];
    if (!x->core->sim->tp->fp8) {
        sim_trap(x, in, DIAG_T_UNSUPPORTED, "MX scale loads need the a5 target profile");
        return -1;
    }
    if (l0_start_trap(x, in, a)) return -1;
    if (cube_field(x, in, side ? "n" : "m", R, 16) || cube_field(x, in, "k", K, 16)) return -1;
    if (!R || !K) return 0;
    uint64_t G = ceil_div(K, 32), G2 = ceil_div(G, 2), P = pad16(R);
    const uint8_t *s = sim_mem(x, in, AS_L1, a[0], P * G2 * 2, 32, ACC_READ, "source");
    if (!s) return -1;
    if (a[1] % 32) {
        sim_trap(x, in, DIAG_T_MISALIGNED, "destination address 0x%" PRIx64 " in %s is not 32-byte aligned", a[1],
                 side ? "L0B" : "L0A");
        return -1;
    }
    uint8_t *st = cube_mx_state(x, in, side, a[1], P * G2 * 2);
    if (!st) return -1;
    memmove(st, s, P * G2 * 2);
    sim_transfer(x, AS_L1, side ? AS_L0B : AS_L0A, G * P);
    return 0;
}

int cube_mx_install(Exec *x, const Instr *in, int side, uint64_t l0addr, const uint8_t *src, uint64_t have,
                    uint64_t len)
{
    if (l0addr % 32) {
        sim_trap(x, in, DIAG_T_MISALIGNED, "the %s data tile at 0x%" PRIx64 " is not 32-byte aligned for its MX scales",
                 side ? "L0B" : "L0A", l0addr);
        return -1;
    }
    uint8_t *st = cube_mx_state(x, in, side, l0addr, len);
    if (!st) return -1;
    if (have > len) have = len;
    memmove(st, src, have);
    memset(st + have, 0, len - have);
    return 0;
}

/* ------------------------------------------------------------------ state */

int cube_reset(Core *c)
{
    CubeState *s = c->cube;
    size_t n = (size_t)(c->memsz[AS_L0A] / 32 + c->memsz[AS_L0B] / 32);
    if (s->mx_bytes != n || !s->mx_scale) {   /* (a failed allocation left none, whatever n is) */
        mem_free(s->mx_scale);
        s->mx_scale = mem_alloc(n ? n : 1);
        s->mx_bytes = s->mx_scale ? n : 0;
        if (!s->mx_scale) return -1;
    }
    if (n) memset(s->mx_scale, 0, n);   /* n = 0 when the block's memories could not be mapped */
    return 0;
}

void cube_release(Core *c)
{
    mem_free(c->cube->mx_scale);
    c->cube->mx_scale = NULL;
    c->cube->mx_bytes = 0;
    mem_free(c->cube->scratch);
    c->cube->scratch = NULL;
    c->cube->scratch_bytes = 0;
}

/* ------------------------------------------------------------------ lowering */

/* The six-operand full-control form of the L1 -> L0 loads (spec 16-cube-matmul) selects fractal blocks by start,
   step and stride; its fifth operand (src_stride) is what sets it apart from the shape form. */
static bool full_control(LowerView *L, const Op *op) { return lw_group_index(L, op, "fs", 0) >= 0; }
static const char full_control_msg[] = "the full-control form of the MX scale loads is not simulated: how its block "
                                       "coordinates and strides map to the scale layout is not published";

/* Lowers a full-control L1 -> L0A/L0B load (mte_l1_l0a/b with six operands, load_cbuf_to_ca/cb, their _s4 forms):
   imm[L0_E], imm[L0_TRANS], imm[L0_SIDE] as the shape form, imm[L0_SR] = the operand index of m_start (the six
   control operands follow in order). */
static int lower_l1_l0_full(const Op *op, Instr *in)
{
    CElem e = cube_ptr_elem(op, 1);
    int s4 = op->kind == OP_LOAD_CBUF_TO_CA_S4 || op->kind == OP_LOAD_CBUF_TO_CB_S4;
    if (s4 || e.packed4) return cube_unsupported(in, "L1->L0 loads of packed fp4 tiles are not simulated");
    const Attr *tr = op_attr(op, "transpose");
    in->imm[L0_TRANS] = tr && (tr->kind == AT_INT || tr->kind == AT_BOOL || tr->kind == AT_UNIT) && (tr->kind == AT_UNIT || tr->i);
    if (!e.bytes || e.bytes > 4 || (in->imm[L0_TRANS] && e.bytes == 4))
        return cube_unsupported(in, "the full-control L1->L0 load is simulated for 1-, 2- and 4-byte elements without "
                                    "transpose and 1- and 2-byte elements with it: how the transposing hardware pairs "
                                    "fractals of 4-byte elements is not published");
    in->imm[L0_E] = e.bytes;
    in->imm[L0_SIDE] = op->kind == OP_MTE_L1_L0B || op->kind == OP_LOAD_CBUF_TO_CB;
    in->imm[L0_SR] = 2;
    in->pfn = p_l1_l0_full;
    return 0;
}

int cube_lower(LowerView *L, const Op *op, Instr *in)
{
    switch (op->kind) {
    case OP_MAD: case OP_MAD_ACC: case OP_MAD_BIAS: case OP_MAD_MX: case OP_MAD_MX_ACC: case OP_MAD_MX_BIAS:
        return cube_lower_mad(L, op, in);
    case OP_MTE_L0C_L1: case OP_MTE_L0C_GM: case OP_MTE_L0C_UB: case OP_COPY_MATRIX_CC_TO_UB:
        return cube_lower_fix(L, op, in);
    case OP_MTE_GM_L1: case OP_COPY_GM_TO_CBUF_NB:
        return dma_lower_grouped(L, op, in);
    case OP_MTE_GM_L1_FRAC: {
        FracExt *fe = lw_alloc(L, op, sizeof(FracExt));
        if (!fe) return -1;
        fe->sn = (int16_t)lw_group_index(L, op, "sn", 0);
        fe->sd = (int16_t)lw_group_index(L, op, "sd", 0);
        fe->inner = (int16_t)lw_group_index(L, op, "inner", 0);
        fe->outer = (int16_t)lw_group_index(L, op, "outer", 0);
        fe->g = (int16_t)lw_group_index(L, op, "g", 0);
        fe->s2 = (int16_t)lw_group_index(L, op, "s2", 0);
        fe->s3 = (int16_t)lw_group_index(L, op, "s3", 0);
        fe->s4 = (int16_t)lw_group_index(L, op, "s4", 0);
        fe->smallc0 = (int16_t)lw_group_index(L, op, "smallc0", 0);
        fe->dn = op_has_unit(op, "dn2nz");
        CElem e = cube_ptr_elem(op, 1);
        fe->e = e.bytes;
        if (fe->sn < 0 || fe->sd < 0 || fe->inner < 0 || fe->g < 0 || fe->s2 < 0 || fe->s3 < 0 || fe->s4 < 0 ||
            fe->smallc0 < 0 || !e.bytes || e.bytes > 4)
            return cube_unsupported(in, "this form of pto.mte_gm_l1_frac is not simulated");
        /* packed fp4: shape d and the strides count fp4x2 containers, i.e. bytes (semantics §8.2) */
        in->ext = fe;
        in->pfn = p_frac;
        return 0;
    }
    case OP_MTE_L1_UB: {
        int g = sig_group(lw_sig(L, op), "lc");
        in->imm[LU_LEN] = lw_group_index(L, op, "len", 0);
        in->imm[LU_N] = lw_group_index(L, op, "n", 0);
        in->imm[LU_SGAP] = lw_group_index(L, op, "ss", 0);
        in->imm[LU_DGAP] = lw_group_index(L, op, "ds", 0);
        in->imm[LU_NLOOPS] = g >= 0 && op->segs ? op->segs[g] : 0;
        in->imm[LU_LC] = lw_group_index(L, op, "lc", 0);
        in->imm[LU_LS] = lw_group_index(L, op, "ls", 0);
        in->imm[LU_LD] = lw_group_index(L, op, "ld", 0);
        if (in->imm[LU_NLOOPS] > 4) return cube_unsupported(in, "more than four loop(...) groups");
        in->pfn = p_l1_ub;
        return 0;
    }
    case OP_MTE_L1_FB: case OP_COPY_CBUF_TO_FBUF:
        in->imm[0] = lw_group_index(L, op, "len", 0);
        in->imm[1] = lw_group_index(L, op, "n", 0);
        in->imm[2] = lw_group_index(L, op, "sg", 0);
        in->imm[3] = lw_group_index(L, op, "dg", 0);
        in->pfn = p_l1_fb;
        return 0;
    case OP_RAW_FILL_L1: {
        const Attr *w = op_attr(op, "fill_word_bits");
        in->imm[0] = w && w->kind == AT_INT ? w->i : 16;
        in->pfn = p_raw_fill;
        return 0;
    }
    case OP_MTE_L1_BT: {
        CElem s = cube_ptr_elem(op, 0), d = cube_ptr_elem(op, 1);
        if (d.bytes != 4 || !(s.bytes == 4 || (s.bytes == 2 && (s.fmt == NUM_F16 || s.fmt == NUM_BF16) && d.fmt == NUM_F32)))
            return cube_unsupported(in, amsg(L, "pto.mte_l1_bt from ", cube_elem_name(s),
                                             d.bytes == 4 ? " is not simulated (pairs f32->f32, i32->i32, f16->f32, bf16->f32)"
                                                          : " into a bias table of non-32-bit entries is not simulated"));
        in->imm[BT_SRC_FMT] = s.fmt;
        in->imm[BT_SRC_BYTES] = s.bytes;
        in->pfn = p_l1_bt;
        return 0;
    }
    case OP_LOAD_CBUF_TO_CA: case OP_LOAD_CBUF_TO_CB: case OP_LOAD_CBUF_TO_CA_S4: case OP_LOAD_CBUF_TO_CB_S4:
        return lower_l1_l0_full(op, in);
    case OP_MTE_L1_L0A: case OP_MTE_L1_L0B: {
        if (full_control(L, op)) return lower_l1_l0_full(op, in);
        CElem e = cube_ptr_elem(op, 1);
        if (!e.bytes || e.bytes > 4) return cube_unsupported(in, "this L1->L0 element type is not simulated");
        in->imm[L0_E] = e.packed4 ? 0 : e.bytes;   /* 0: packed fp4 (cube_l1_l0_exec) */
        const Attr *tr = op_attr(op, "transpose");   /* {transpose = true}: an integer slot (AT_INT 0/1) */
        in->imm[L0_TRANS] =
            tr && (tr->kind == AT_INT || tr->kind == AT_BOOL || tr->kind == AT_UNIT) && (tr->kind == AT_UNIT || tr->i);
        in->imm[L0_SR] = lw_group_index(L, op, "sr", 0);
        in->imm[L0_SC] = lw_group_index(L, op, "sc", 0);
        in->imm[L0_SIDE] = op->kind == OP_MTE_L1_L0B;
        in->pfn = p_l1_l0;
        return 0;
    }
    case OP_MTE_L1_L0A_MX: case OP_MTE_L1_L0B_MX:
        if (full_control(L, op)) return cube_unsupported(in, full_control_msg);
        in->imm[L0_SR] = lw_group_index(L, op, "sr", 0);
        in->imm[L0_SC] = lw_group_index(L, op, "sc", 0);
        in->imm[L0_SIDE] = op->kind == OP_MTE_L1_L0B_MX;
        in->pfn = p_l1_mx;
        return 0;
    default:
        return 0;
    }
}

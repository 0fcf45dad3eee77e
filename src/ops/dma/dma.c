/* dma.c — the DMA family: grouped v0.6 copies (mte_gm_ub, mte_ub_gm, mte_ub_ub, mte_ub_l1), the legacy
 * copies with their per-pipe loop registers, padding, and atomic stores. One engine (dma_run) executes
 * a burst plan: nested loops (the first textual loop(...) innermost, resolutions Q10) around n_burst rows
 * of `len` bytes, start-to-start strides, optional row padding (Q11). The whole footprint of both sides
 * is bounds- and alignment-checked before any byte moves, so a trap leaves memory untouched. In a mixed
 * kernel the cluster has one L1, the AIC's: every L1 side of a copy reaches it, whichever core issues it. */
#include "exec/sim.h"
#include "exec/race.h"
#include "base/num.h"
#include <inttypes.h>
#include <string.h>

typedef struct DmaLoop { uint64_t count, ss, ds; } DmaLoop;

typedef struct DmaPlan {
    AddrSpace sas, das;
    Core *score, *dcore;       /* cores owning the source / destination buffers (NULL = this core) */
    uint64_t src, dst, len, n, ss, ds;
    DmaLoop loop[4];           /* loop[0] wraps the bursts directly */
    int nloops;
    int pad;                   /* 0 none, 1 fill [len, ds) of each row, 2 [left][data][right] */
    uint64_t lpad, rpad;       /* bytes, mode 2 */
    uint8_t pat[32];           /* pad pattern, repeated */
    unsigned patlen;
    int atomic;                /* atomic store mode (MTE3 into GM), see set_atomic_* */
} DmaPlan;

/* Atomic store mode: low byte = element kind, next byte = operation. */
enum { AT_NONE, AT_S32, AT_S16, AT_S8, AT_F32, AT_F16, AT_BF16 };
enum { AO_ADD = 1, AO_MAX = 2, AO_MIN = 3 };

static int field(Exec *x, const Instr *in, const char *what, uint64_t v, unsigned bits)
{
    if (bits >= 64 || v < (1ull << bits)) return 0;
    sim_trap(x, in, DIAG_T_FIELD, "%s = %" PRIu64 " does not fit its %u-bit field", what, v, bits);
    return 1;
}

static void fill_pattern(uint8_t *d, uint64_t n, const DmaPlan *p)
{
    for (uint64_t i = 0; i < n; i++) d[i] = p->pat[i % p->patlen];
}

static void atomic_row(uint8_t *d, const uint8_t *s, uint64_t len, int mode)
{
    int kind = mode & 0xff, op = (mode >> 8) & 0xff;
    unsigned e = kind == AT_S32 || kind == AT_F32 ? 4 : kind == AT_S8 ? 1 : 2;
    for (uint64_t i = 0; i + e <= len; i += e) {
        uint64_t a = 0, b = 0, r = 0;
        memcpy(&a, d + i, e);
        memcpy(&b, s + i, e);
        if (kind == AT_S32 || kind == AT_S16 || kind == AT_S8) {
            unsigned w = e * 8;
            uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1, sb = 1ull << (w - 1);
            int64_t sa = (int64_t)((a ^ sb) - sb), sbv = (int64_t)((b ^ sb) - sb);
            if (op == AO_ADD) r = (a + b) & m;
            else if (op == AO_MAX) r = (uint64_t)(sa > sbv ? sa : sbv) & m;
            else r = (uint64_t)(sa < sbv ? sa : sbv) & m;
        } else {
            NumFormat f = kind == AT_F32 ? NUM_F32 : kind == AT_F16 ? NUM_F16 : NUM_BF16;
            if (op == AO_ADD) r = num_arith(f, NUM_OP_ADD, a, b, NUM_RND_R);
            else {
                double da = num_bits_to_f64(num_convert(f, a, NUM_F64, NUM_RND_R, false));
                double db = num_bits_to_f64(num_convert(f, b, NUM_F64, NUM_RND_R, false));
                if (num_is_nan(f, a) || num_is_nan(f, b)) r = num_canonical_nan(f);
                /* equal values have equal bits except +0/-0, where +0 > -0 (the scalar maximumf and
                   vmax/vmin reading): max keeps the sign only if both are -0, min if either is */
                else if (da == db) r = op == AO_MAX ? (a & b) : (a | b);
                else r = (op == AO_MAX ? da > db : da < db) ? a : b;
            }
        }
        memcpy(d + i, &r, e);
    }
}

/* The atomic mode an MTE3 store into GM uses: it combines only while both an element type and an
   operation are set (a type alone, or an operation alone, leaves plain stores). */
static int store_atomic(const Core *c)
{
    int m = c->atomic_mode;
    return (m & 0xff) && ((m >> 8) & 0xff) ? m : 0;
}

/* Executes a plan. Returns 0, or -1 after a trap. */
static int dma_run(Exec *x, const Instr *in, DmaPlan *p)
{
    uint64_t rows = p->n;
    for (int i = 0; i < p->nloops; i++) rows *= p->loop[i].count;
    if (rows == 0) return 0;
    uint64_t drow = p->len;
    if (p->pad == 1 && p->ds > p->len) drow = p->ds;
    if (p->pad == 2) drow = p->lpad + p->len + p->rpad;
    if (drow == 0) return 0;
    /* footprints: every count and stride is unsigned, so the last row of every loop reaches the top */
    uint64_t shi = (p->n - 1) * p->ss + p->len, dhi = (p->n - 1) * p->ds + drow;
    for (int i = 0; i < p->nloops; i++) {
        shi += (p->loop[i].count - 1) * p->loop[i].ss;
        dhi += (p->loop[i].count - 1) * p->loop[i].ds;
    }
    Core *sc = p->score ? p->score : x->core, *dc = p->dcore ? p->dcore : x->core;
    unsigned salign = p->sas == AS_GM ? 1 : 32, dalign = p->das == AS_GM ? 1 : 32;
    /* the footprint check covers the gaps between rows; the race detector gets the exact rows below */
    x->race_quiet = 1;
    uint8_t *sb = p->len ? sim_mem_core(x, sc, in, p->sas, p->src, shi, salign, "source") : NULL;
    uint8_t *db = (p->len && !sb) ? NULL : sim_mem_core(x, dc, in, p->das, p->dst, dhi, dalign, "destination");
    x->race_quiet = 0;
    if (!db) return -1;
    int race = x->core->cl->race != NULL;
    uint64_t idx[4] = {0, 0, 0, 0};
    uint64_t soff = 0, doff = 0, bytes = 0;
    int contiguous = !p->pad && !p->atomic && p->ss == p->len && p->ds == p->len;
    for (;;) {
        uint8_t *s = sb ? sb + soff : NULL, *d = db + doff;
        if (contiguous) {
            memmove(d, s, p->n * p->len);
            bytes += p->n * p->len;
            if (race) {
                race_access(x, in, sc, p->sas, p->src + soff, p->n * p->len, 0);
                race_access(x, in, dc, p->das, p->dst + doff, p->n * p->len, 1);
            }
        } else {
            for (uint64_t r = 0; r < p->n; r++) {
                uint8_t *dr = d + r * p->ds;
                const uint8_t *sr = s ? s + r * p->ss : NULL;
                if (p->pad == 2) {
                    fill_pattern(dr, p->lpad, p);
                    dr += p->lpad;
                }
                if (p->len) {
                    if (p->atomic) atomic_row(dr, sr, p->len, p->atomic);
                    else memmove(dr, sr, p->len);
                }
                if (p->pad == 2) fill_pattern(dr + p->len, p->rpad, p);
                if (p->pad == 1 && p->ds > p->len) fill_pattern(dr + p->len, p->ds - p->len, p);
                bytes += p->len;
                if (race) {
                    if (p->len) race_access(x, in, sc, p->sas, p->src + soff + r * p->ss, p->len, 0);
                    race_access(x, in, dc, p->das, p->dst + doff + r * p->ds, drow, 1);
                    if (p->atomic) race_access(x, in, dc, p->das, p->dst + doff + r * p->ds, drow, 0);
                }
            }
        }
        /* advance the loop nest, innermost first */
        int i = 0;
        for (; i < p->nloops; i++) {
            if (++idx[i] < p->loop[i].count) {
                soff += p->loop[i].ss;
                doff += p->loop[i].ds;
                break;
            }
            soff -= (idx[i] - 1) * p->loop[i].ss;
            doff -= (idx[i] - 1) * p->loop[i].ds;
            idx[i] = 0;
        }
        if (i == p->nloops) break;
    }
    sim_count(x, x->pipe, bytes);
    x->extra_cost += bytes / 64;
    return 0;
}

/* ------------------------------------------------------------------ grouped v0.6 copies */

/* imm layout: 0 = first loop operand index (counts, then src strides, then dst strides), 1 = loops,
   2 = pad value index (-1), 3/4 = left/right pad index (-1), 5 = pad element bytes, 6 = n index,
   7 = len index */
static int p_grouped(Exec *x, const Instr *in, const uint64_t *a)
{
    DmaPlan p;
    memset(&p, 0, sizeof p);
    const OpInfo *oi = &op_info[in->kind];
    (void)oi;
    int ni = (int)in->imm[6];
    p.src = a[0];
    p.dst = a[1];
    p.len = a[in->imm[7]];
    p.n = a[ni];
    p.ss = a[ni + 1];
    p.ds = a[ni + 2];
    switch (in->kind) {
    case OP_MTE_GM_UB: p.sas = AS_GM; p.das = AS_UB; break;
    case OP_MTE_UB_GM: p.sas = AS_UB; p.das = AS_GM; p.atomic = store_atomic(x->core); break;
    case OP_MTE_GM_L1: p.sas = AS_GM; p.das = AS_L1; break;
    default: break;
    }
    int gm_src = p.sas == AS_GM;
    if (field(x, in, "len_burst", p.len, 21) || field(x, in, "n_burst", p.n, 21) ||
        field(x, in, "source stride", p.ss, gm_src ? 40 : 24) || field(x, in, "destination stride", p.ds, gm_src ? 24 : 40))
        return -1;
    int nl = (int)in->imm[1];
    if (nl > 4) nl = 4;
    for (int i = 0; i < nl; i++) {
        int b = (int)in->imm[0];
        p.loop[i].count = a[b + i];
        p.loop[i].ss = a[b + (int)in->imm[1] + i];
        p.loop[i].ds = a[b + 2 * (int)in->imm[1] + i];
        if (field(x, in, "loop count", p.loop[i].count, 21) || field(x, in, "loop source stride", p.loop[i].ss, 40) ||
            field(x, in, "loop destination stride", p.loop[i].ds, 40))
            return -1;
    }
    p.nloops = nl;
    if (in->imm[2] >= 0) {
        unsigned e = (unsigned)in->imm[5];
        uint64_t v = a[in->imm[2]];
        p.patlen = e;
        for (unsigned i = 0; i < e; i++) p.pat[i] = (uint8_t)(v >> (8 * i));
        if (in->imm[3] >= 0) {
            p.pad = 2;
            p.lpad = a[in->imm[3]] * e;
            p.rpad = a[in->imm[4]] * e;
            if (field(x, in, "left padding", a[in->imm[3]], 8) || field(x, in, "right padding", a[in->imm[4]], 8)) return -1;
        } else {
            p.pad = 1;
        }
    }
    return dma_run(x, in, &p);
}

/* 32-byte-unit copies with gaps: len, n, gaps in blocks; advance = (len + gap) * 32 (Q14). */
static int p_gap32(Exec *x, const Instr *in, const uint64_t *a)
{
    DmaPlan p;
    memset(&p, 0, sizeof p);
    uint64_t len32, n, sg, dg;
    if (in->kind == OP_MTE_UB_UB || in->kind == OP_MTE_UB_L1) {
        len32 = a[2]; n = a[3]; sg = a[4]; dg = a[5];
    } else {   /* legacy: src, dst, sid|subblock, n, len, src gap, dst gap */
        n = a[3]; len32 = a[4]; sg = a[5]; dg = a[6];
    }
    if (field(x, in, "len_burst", len32, 16) || field(x, in, "n_burst", n, 16) || field(x, in, "source gap", sg, 16) ||
        field(x, in, "destination gap", dg, 16))
        return -1;
    p.src = a[0];
    p.dst = a[1];
    p.len = len32 * 32;
    p.n = n;
    p.ss = (len32 + sg) * 32;
    p.ds = (len32 + dg) * 32;
    Cluster *cl = x->core->cl;
    switch (in->kind) {
    case OP_MTE_UB_UB: case OP_COPY_UBUF_TO_UBUF: p.sas = AS_UB; p.das = AS_UB; break;
    case OP_MTE_UB_L1: case OP_COPY_UBUF_TO_CBUF:
        p.sas = AS_UB; p.das = AS_L1;
        if (cl->ncores == 3) p.dcore = &cl->cores[0];   /* the cluster's AIC owns L1 */
        break;
    case OP_COPY_CBUF_TO_UBUF:
        /* explicit subblock operand (Q15): 0 -> AIV0, 1 -> AIV1 of a mixed kernel; outside one only 0 (the
           issuing core's own UB) exists, as for mte_l0c_ub dst_mode(k). The source is the AIC's L1. */
        if (a[2] > 1 || (a[2] == 1 && cl->ncores != 3)) {
            sim_trap(x, in, DIAG_T_FIELD, "subblock %" PRId64 " does not exist%s", (int64_t)a[2],
                     cl->ncores != 3 ? " (not a mixed cube+vector kernel)" : " (0 = AIV0, 1 = AIV1)");
            return -1;
        }
        p.sas = AS_L1; p.das = AS_UB;
        if (cl->ncores == 3) {
            p.score = &cl->cores[0];
            p.dcore = &cl->cores[1 + a[2]];
        }
        break;
    default: break;
    }
    return dma_run(x, in, &p);
}

/* ------------------------------------------------------------------ legacy copies with loop registers */

static int p_legacy_in(Exec *x, const Instr *in, const uint64_t *a)
{
    /* gm, ub, sid, n, len, left_pad, right_pad, data_select, l2, src_stride(GM), dst_stride(UB) */
    Core *c = x->core;
    DmaPlan p;
    memset(&p, 0, sizeof p);
    p.sas = AS_GM;
    p.das = in->kind == OP_COPY_GM_TO_CBUF ? AS_L1 : AS_UB;
    if (p.das == AS_L1 && c->cl->ncores == 3) p.dcore = &c->cl->cores[0];   /* the cluster's AIC owns L1 */
    p.src = a[0];
    p.dst = a[1];
    p.n = a[3];
    p.len = a[4];
    p.ss = a[9];
    p.ds = a[10];
    if (field(x, in, "sid", a[2], 4) || field(x, in, "n_burst", p.n, 21) || field(x, in, "len_burst", p.len, 21) ||
        field(x, in, "left_padding", a[5], 6) || field(x, in, "right_padding", a[6], 6) ||
        field(x, in, "l2_cache_ctl", a[8], 4) || field(x, in, "GM stride", p.ss, 40) ||
        field(x, in, p.das == AS_L1 ? "L1 stride" : "UB stride", p.ds, 24))
        return -1;
    if (a[7] & 1) {
        p.patlen = 8;
        for (unsigned i = 0; i < 8; i++) p.pat[i] = (uint8_t)(c->pad_val >> (8 * i));
        p.patlen = (unsigned)(in->imm[5] ? in->imm[5] : 1);
        if (a[5] || a[6]) {
            p.pad = 2;
            p.lpad = a[5];
            p.rpad = a[6];
        } else {
            p.pad = 1;
        }
    }
    if (p.das == AS_UB) {
        /* loop1 is the inner loop, loop2 the outer (seed 004, resolutions Q10) */
        p.nloops = 2;
        p.loop[0] = (DmaLoop){c->loop_outtoub[0], c->loop1_outtoub[0], c->loop1_outtoub[1]};
        p.loop[1] = (DmaLoop){c->loop_outtoub[1], c->loop2_outtoub[0], c->loop2_outtoub[1]};
    }
    return dma_run(x, in, &p);
}

static int p_legacy_out(Exec *x, const Instr *in, const uint64_t *a)
{
    /* ub, gm, sid, n, len, reserved, dst_stride(GM), src_stride(UB) */
    Core *c = x->core;
    DmaPlan p;
    memset(&p, 0, sizeof p);
    p.sas = AS_UB;
    p.das = AS_GM;
    p.src = a[0];
    p.dst = a[1];
    p.n = a[3];
    p.len = a[4];
    p.ds = a[6];
    p.ss = a[7];
    p.atomic = store_atomic(c);
    if (field(x, in, "sid", a[2], 4) || field(x, in, "n_burst", p.n, 21) || field(x, in, "len_burst", p.len, 21) ||
        field(x, in, "GM stride", p.ds, 40) || field(x, in, "UB stride", p.ss, 24))
        return -1;
    p.nloops = 2;
    p.loop[0] = (DmaLoop){c->loop_ubtoout[0], c->loop1_ubtoout[0], c->loop1_ubtoout[1]};
    p.loop[1] = (DmaLoop){c->loop_ubtoout[1], c->loop2_ubtoout[0], c->loop2_ubtoout[1]};
    return dma_run(x, in, &p);
}

/* Configuration ops run on the DMA queue they configure, so they take effect in program order
   relative to the copies of that direction. */
static int p_config(Exec *x, const Instr *in, const uint64_t *a)
{
    Core *c = x->core;
    switch (in->kind) {
    case OP_SET_LOOP_SIZE_OUTTOUB: case OP_SET_LOOP_SIZE_UBTOOUT:
        if (field(x, in, "loop1 count", a[0], 21) || field(x, in, "loop2 count", a[1], 21)) return -1;
        break;
    default: break;
    }
    switch (in->kind) {
    case OP_SET_LOOP_SIZE_OUTTOUB: c->loop_outtoub[0] = a[0]; c->loop_outtoub[1] = a[1]; break;
    case OP_SET_LOOP1_STRIDE_OUTTOUB: c->loop1_outtoub[0] = a[0]; c->loop1_outtoub[1] = a[1]; break;
    case OP_SET_LOOP2_STRIDE_OUTTOUB: c->loop2_outtoub[0] = a[0]; c->loop2_outtoub[1] = a[1]; break;
    case OP_SET_LOOP_SIZE_UBTOOUT: c->loop_ubtoout[0] = a[0]; c->loop_ubtoout[1] = a[1]; break;
    case OP_SET_LOOP1_STRIDE_UBTOOUT: c->loop1_ubtoout[0] = a[0]; c->loop1_ubtoout[1] = a[1]; break;
    case OP_SET_LOOP2_STRIDE_UBTOOUT: c->loop2_ubtoout[0] = a[0]; c->loop2_ubtoout[1] = a[1]; break;
    case OP_SET_MOV_PAD_VAL: c->pad_val = a[0]; break;
    case OP_SET_ATOMIC_S32: c->atomic_mode = (c->atomic_mode & ~0xff) | AT_S32; break;
    case OP_SET_ATOMIC_S16: c->atomic_mode = (c->atomic_mode & ~0xff) | AT_S16; break;
    case OP_SET_ATOMIC_S8: c->atomic_mode = (c->atomic_mode & ~0xff) | AT_S8; break;
    case OP_SET_ATOMIC_F32: c->atomic_mode = (c->atomic_mode & ~0xff) | AT_F32; break;
    case OP_SET_ATOMIC_F16: c->atomic_mode = (c->atomic_mode & ~0xff) | AT_F16; break;
    case OP_SET_ATOMIC_BF16: c->atomic_mode = (c->atomic_mode & ~0xff) | AT_BF16; break;
    case OP_SET_ATOMIC_ADD: c->atomic_mode = (c->atomic_mode & 0xff) | (AO_ADD << 8); break;
    case OP_SET_ATOMIC_MAX: c->atomic_mode = (c->atomic_mode & 0xff) | (AO_MAX << 8); break;
    case OP_SET_ATOMIC_MIN: c->atomic_mode = (c->atomic_mode & 0xff) | (AO_MIN << 8); break;
    case OP_SET_ATOMIC_NONE: c->atomic_mode = 0; break;
    default: break;
    }
    /* the type and the operation are kept separately; a store combines only once both are set (store_atomic) */
    return 0;
}

/* ------------------------------------------------------------------ lowering */

static const int queue_of_pipe[] = {
    [PIPE_NONE] = PQ_S, [PIPE_S_] = PQ_S, [PIPE_V_] = PQ_V, [PIPE_MTE1_] = PQ_MTE1, [PIPE_MTE2_] = PQ_MTE2,
    [PIPE_MTE3_] = PQ_MTE3, [PIPE_M_] = PQ_M, [PIPE_FIX_] = PQ_FIX, [PIPE_DYN] = PQ_S,
};

int lower_grouped_dma(LowerCtx *L, const Op *op, Instr *in);
int lower_grouped_dma(LowerCtx *L, const Op *op, Instr *in)
{
    int lc = lw_group_index(L, op, "lc", 0);
    const OpSig *sig = lw_sig(L, op);
    int g = sig_group(sig, "lc");
    in->imm[0] = lc;
    in->imm[1] = g >= 0 ? op->segs[g] : 0;
    in->imm[2] = lw_group_index(L, op, "pv", 0);
    in->imm[3] = lw_group_index(L, op, "pl", 0);
    in->imm[4] = lw_group_index(L, op, "pr", 0);
    in->imm[5] = in->imm[2] >= 0 ? ty_bytes(op->operands[in->imm[2]]->type) : 0;
    in->imm[6] = lw_group_index(L, op, "n", 0);
    in->imm[7] = lw_group_index(L, op, "len", 0);
    if (in->imm[1] > 4) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "more than four loop(...) groups");
        return -1;
    }
    if (in->imm[3] >= 0 && in->imm[4] < 0) {
        lw_error(L, op, DIAG_V_CLAUSE, "pad(...) takes one or three operands");
        return -1;
    }
    in->pfn = p_grouped;
    return 0;
}

int lower_family_dma(LowerCtx *L, const Op *op, Instr *in)
{
    in->pipe = (uint8_t)queue_of_pipe[op_info[op->kind].pipe];
    in->cost = 40;
    switch (op->kind) {
    case OP_MTE_GM_UB: case OP_MTE_UB_GM:
        return lower_grouped_dma(L, op, in);
    case OP_MTE_UB_UB: case OP_MTE_UB_L1: case OP_COPY_UBUF_TO_UBUF: case OP_COPY_UBUF_TO_CBUF: case OP_COPY_CBUF_TO_UBUF:
        in->pfn = p_gap32;
        return 0;
    case OP_COPY_GM_TO_UBUF: case OP_COPY_GM_TO_CBUF:
        in->pfn = p_legacy_in;
        in->imm[5] = ty_bytes(op->operands[1]->type->elem);
        return 0;
    case OP_COPY_UBUF_TO_GM:
        in->pfn = p_legacy_out;
        return 0;
    default:
        if (op_info[op->kind].fam == FAM_DMA_CFG) {
            in->pfn = p_config;
            in->cost = 1;
            return 0;
        }
        return 0;
    }
}

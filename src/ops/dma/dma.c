/* dma.c — the DMA family: grouped v0.6 copies (mte_gm_ub, mte_ub_gm, mte_ub_ub, mte_ub_l1), the legacy
 * copies with their per-pipe loop registers, padding, and atomic stores. One engine (dma_run) executes
 * a burst plan: nested loops (the first textual loop(...) innermost, resolutions Q10) around n_burst rows
 * of `len` bytes, start-to-start strides, optional row padding (Q11). The whole footprint of both sides
 * is bounds- and alignment-checked before any byte moves, so a trap leaves memory untouched. In a mixed
 * kernel the cluster has one L1, the AIC's: every L1 side of a copy reaches it, whichever core issues it. */
#include "dma.h"
#include "base/bits.h"
#include "base/num.h"
#include "exec/race.h"
#include <inttypes.h>
#include <string.h>

/* Decoded operands of a copy (Instr.ext): operand indices (-1 = absent) and the address spaces of the
   source and destination pointers, read from the operand types (the verifier checked them against the
   op table's signature). */
typedef struct DmaOps {
    int8_t loop0, nloops;      /* first loop operand (counts, then source strides, then destination strides) */
    int8_t pv, pl, pr;         /* pad value, left and right pad counts */
    int8_t n, len, ss, ds;     /* nburst count, burst length, source and destination stride */
    uint8_t padb;              /* pad element bytes (grouped), destination element bytes (legacy) */
    uint8_t sas, das;          /* AddrSpace of source and destination */
} DmaOps;

#define OPS_OF(in) ((const DmaOps *)(in)->ext)

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
            uint64_t m = bits_mask(w);
            int64_t sa = bits_sext(a, w), sbv = bits_sext(b, w);
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
    int m = c->dma->atomic_mode;
    return (m & 0xff) && ((m >> 8) & 0xff) ? m : 0;
}

/* Executes a plan. Returns 0, or -1 after a trap. */
static int dma_run(Exec *x, const Instr *in, DmaPlan *p)
{
    /* Every product and sum sizing the transfer is checked: one that wraps around 2^64 would make the copy look
       empty or small, so it is a trap (T-WRAP), never a silent skip (docs/semantics.md "Checked sizes"). */
    uint64_t rows = p->n;
    bool wrap = false;
    for (int i = 0; i < p->nloops; i++) if (p->loop[i].count == 0) rows = 0;
    for (int i = 0; i < p->nloops && rows; i++) wrap |= __builtin_mul_overflow(rows, p->loop[i].count, &rows);
    if (!wrap && rows == 0) return 0;
    wrap |= p->wrap != 0;   /* a stride or size the plan's maker found wrapping (tile_dma.c) */
    uint64_t drow = p->len;
    if (p->pad == 1 && p->ds > p->len) drow = p->ds;
    if (p->pad == 2) wrap |= __builtin_add_overflow(p->lpad, p->len, &drow) || __builtin_add_overflow(drow, p->rpad, &drow);
    if (!wrap && drow == 0) return 0;
    /* footprints: every count and stride is unsigned, so the last row of every loop reaches the top */
    uint64_t shi, dhi, t;
    wrap |= __builtin_mul_overflow(p->n - 1, p->ss, &shi) || __builtin_add_overflow(shi, p->len, &shi);
    wrap |= __builtin_mul_overflow(p->n - 1, p->ds, &dhi) || __builtin_add_overflow(dhi, drow, &dhi);
    for (int i = 0; i < p->nloops; i++) {
        wrap |= __builtin_mul_overflow(p->loop[i].count - 1, p->loop[i].ss, &t) || __builtin_add_overflow(shi, t, &shi);
        wrap |= __builtin_mul_overflow(p->loop[i].count - 1, p->loop[i].ds, &t) || __builtin_add_overflow(dhi, t, &dhi);
    }
    wrap |= p->src + shi < p->src || p->dst + dhi < p->dst;
    if (wrap) {
        sim_trap(x, in, DIAG_T_WRAP, "the transfer's row count or footprint wraps around 2^64 (rows %" PRIu64
                 " x loops, row %" PRIu64 " bytes)", p->n, drow);
        return -1;
    }
    /* a single transfer's work (one step per row, and per 4 KiB moved) counts against the step limit, so
       --steps bounds a run whose one DMA has field-maximum counts (docs/semantics.md "Checked sizes") */
    uint64_t work = rows, moved;
    if (__builtin_mul_overflow(rows, drow, &moved) || __builtin_add_overflow(work, moved / 4096, &work) ||
        work > x->core->sim->step_limit) {
        sim_trap(x, in, DIAG_T_STEP_LIMIT, "this transfer of %" PRIu64 " rows of %" PRIu64 " bytes exceeds the step "
                 "limit of %llu (a step per row and per 4 KiB); raise it with --steps", rows, drow,
                 (unsigned long long)x->core->sim->step_limit);
        return -1;
    }
    Core *sc = p->score ? p->score : x->core, *dc = p->dcore ? p->dcore : x->core;
    unsigned salign = p->sas == AS_GM ? 1 : 32, dalign = p->das == AS_GM ? 1 : 32;
    /* the footprint check covers the gaps between rows; the race detector gets the exact rows below */
    x->race_quiet = 1;
    uint8_t *sb = p->len ? sim_mem_core(x, sc, in, p->sas, p->src, shi, salign, ACC_READ, "source") : NULL;
    uint8_t *db = (p->len && !sb) ? NULL : sim_mem_core(x, dc, in, p->das, p->dst, dhi, dalign, ACC_WRITE, "destination");
    x->race_quiet = 0;
    if (!db) return -1;
    /* exact rows for the checkers, and for a block's private GM view (the footprint above was not logged) */
    int race = x->core->cl->watch || (x->core->cl->gm_watch && (p->sas == AS_GM || p->das == AS_GM));
    uint64_t idx[4] = {0, 0, 0, 0};
    uint64_t soff = 0, doff = 0, bytes = 0;
    int contiguous = !p->pad && !p->atomic && p->ss == p->len && p->ds == p->len;
    for (;;) {
        uint8_t *s = sb ? sb + soff : NULL, *d = db + doff;
        if (contiguous) {
            memmove(d, s, p->n * p->len);
            bytes += p->n * p->len;
            if (race) {
                sim_access(x, in, sc, p->sas, p->src + soff, p->n * p->len, ACC_READ);
                sim_access(x, in, dc, p->das, p->dst + doff, p->n * p->len, ACC_WRITE);
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
                bytes += drow;
                if (race) {
                    if (p->len) sim_access(x, in, sc, p->sas, p->src + soff + r * p->ss, p->len, ACC_READ);
                    sim_access(x, in, dc, p->das, p->dst + doff + r * p->ds, drow, p->atomic ? ACC_ATOMIC : ACC_WRITE);
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
    sim_transfer(x, p->sas, p->das, bytes);
    return 0;
}

int dma_run_plan(Exec *x, const Instr *in, DmaPlan *p) { return dma_run(x, in, p); }

/* ------------------------------------------------------------------ grouped v0.6 copies */

static int p_grouped(Exec *x, const Instr *in, const uint64_t *a)
{
    const DmaOps *o = OPS_OF(in);
    DmaPlan p;
    memset(&p, 0, sizeof p);
    p.src = a[0];
    p.dst = a[1];
    p.len = a[o->len];
    p.n = a[o->n];
    p.ss = a[o->ss];
    p.ds = a[o->ds];
    p.sas = (AddrSpace)o->sas;
    p.das = (AddrSpace)o->das;
    if (p.das == AS_GM) p.atomic = store_atomic(x->core);
    int gm_src = p.sas == AS_GM;
    if (field(x, in, "len_burst", p.len, 21) || field(x, in, "n_burst", p.n, 21) ||
        field(x, in, "source stride", p.ss, gm_src ? 40 : 24) || field(x, in, "destination stride", p.ds, gm_src ? 24 : 40))
        return -1;
    int nl = o->nloops;
    for (int i = 0; i < nl; i++) {
        p.loop[i].count = a[o->loop0 + i];
        p.loop[i].ss = a[o->loop0 + nl + i];
        p.loop[i].ds = a[o->loop0 + 2 * nl + i];
        if (field(x, in, "loop count", p.loop[i].count, 21) || field(x, in, "loop source stride", p.loop[i].ss, 40) ||
            field(x, in, "loop destination stride", p.loop[i].ds, 40))
            return -1;
    }
    p.nloops = nl;
    if (o->pv >= 0) {
        unsigned e = o->padb;
        uint64_t v = a[o->pv];
        p.patlen = e;
        for (unsigned i = 0; i < e; i++) p.pat[i] = (uint8_t)(v >> (8 * i));
        if (o->pl >= 0) {
            p.pad = 2;
            p.lpad = a[o->pl] * e;
            p.rpad = a[o->pr] * e;
            if (field(x, in, "left padding", a[o->pl], 8) || field(x, in, "right padding", a[o->pr], 8)) return -1;
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
    if (!(op_info[in->kind].flags & F_LEGACY)) {   /* v0.6 form: src, dst, len, n, gaps */
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
    p.sas = (AddrSpace)OPS_OF(in)->sas;
    p.das = (AddrSpace)OPS_OF(in)->das;
    if (in->kind == OP_COPY_CBUF_TO_UBUF) {
        /* explicit subblock operand (Q15): 0 -> AIV0, 1 -> AIV1 of a mixed kernel; outside one only 0 (the
           issuing core's own UB) exists, as for mte_l0c_ub dst_mode(k). The source is the AIC's L1. */
        if (a[2] > 1 || (a[2] == 1 && cl->ncores != 3)) {
            sim_trap(x, in, DIAG_T_FIELD, "subblock %" PRId64 " does not exist%s", (int64_t)a[2],
                     cl->ncores != 3 ? " (not a mixed cube+vector kernel)" : " (0 = AIV0, 1 = AIV1)");
            return -1;
        }
        if (cl->ncores == 3) p.dcore = &cl->cores[1 + a[2]];
    }
    /* the cluster's AIC owns L1 */
    if (cl->ncores == 3 && p.sas == AS_L1) p.score = &cl->cores[0];
    if (cl->ncores == 3 && p.das == AS_L1) p.dcore = &cl->cores[0];
    if (dma_run(x, in, &p)) return -1;
    if (in->kind == OP_COPY_CBUF_TO_UBUF) sim_release(x, RC_BUF, sim_l1ub_key(x->core));   /* semantics §8.1 */
    return 0;
}

/* ------------------------------------------------------------------ legacy copies with loop registers */

static int p_legacy_in(Exec *x, const Instr *in, const uint64_t *a)
{
    /* gm, ub, sid, n, len, left_pad, right_pad, data_select, l2, src_stride(GM), dst_stride(UB) */
    Core *c = x->core;
    DmaPlan p;
    memset(&p, 0, sizeof p);
    p.sas = (AddrSpace)OPS_OF(in)->sas;
    p.das = (AddrSpace)OPS_OF(in)->das;
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
        for (unsigned i = 0; i < 8; i++) p.pat[i] = (uint8_t)(c->dma->pad_val >> (8 * i));
        p.patlen = OPS_OF(in)->padb ? OPS_OF(in)->padb : 1;
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
        p.loop[0] = (DmaLoop){c->dma->loop_outtoub[0], c->dma->loop1_outtoub[0], c->dma->loop1_outtoub[1]};
        p.loop[1] = (DmaLoop){c->dma->loop_outtoub[1], c->dma->loop2_outtoub[0], c->dma->loop2_outtoub[1]};
    }
    return dma_run(x, in, &p);
}

static int p_legacy_out(Exec *x, const Instr *in, const uint64_t *a)
{
    /* ub, gm, sid, n, len, reserved, dst_stride(GM), src_stride(UB) */
    Core *c = x->core;
    DmaPlan p;
    memset(&p, 0, sizeof p);
    p.sas = (AddrSpace)OPS_OF(in)->sas;
    p.das = (AddrSpace)OPS_OF(in)->das;
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
    p.loop[0] = (DmaLoop){c->dma->loop_ubtoout[0], c->dma->loop1_ubtoout[0], c->dma->loop1_ubtoout[1]};
    p.loop[1] = (DmaLoop){c->dma->loop_ubtoout[1], c->dma->loop2_ubtoout[0], c->dma->loop2_ubtoout[1]};
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
    case OP_SET_LOOP_SIZE_OUTTOUB: c->dma->loop_outtoub[0] = a[0]; c->dma->loop_outtoub[1] = a[1]; break;
    case OP_SET_LOOP1_STRIDE_OUTTOUB: c->dma->loop1_outtoub[0] = a[0]; c->dma->loop1_outtoub[1] = a[1]; break;
    case OP_SET_LOOP2_STRIDE_OUTTOUB: c->dma->loop2_outtoub[0] = a[0]; c->dma->loop2_outtoub[1] = a[1]; break;
    case OP_SET_LOOP_SIZE_UBTOOUT: c->dma->loop_ubtoout[0] = a[0]; c->dma->loop_ubtoout[1] = a[1]; break;
    case OP_SET_LOOP1_STRIDE_UBTOOUT: c->dma->loop1_ubtoout[0] = a[0]; c->dma->loop1_ubtoout[1] = a[1]; break;
    case OP_SET_LOOP2_STRIDE_UBTOOUT: c->dma->loop2_ubtoout[0] = a[0]; c->dma->loop2_ubtoout[1] = a[1]; break;
    case OP_SET_MOV_PAD_VAL: c->dma->pad_val = a[0]; break;
    case OP_SET_ATOMIC_S32: c->dma->atomic_mode = (c->dma->atomic_mode & ~0xff) | AT_S32; break;
    case OP_SET_ATOMIC_S16: c->dma->atomic_mode = (c->dma->atomic_mode & ~0xff) | AT_S16; break;
    case OP_SET_ATOMIC_S8: c->dma->atomic_mode = (c->dma->atomic_mode & ~0xff) | AT_S8; break;
    case OP_SET_ATOMIC_F32: c->dma->atomic_mode = (c->dma->atomic_mode & ~0xff) | AT_F32; break;
    case OP_SET_ATOMIC_F16: c->dma->atomic_mode = (c->dma->atomic_mode & ~0xff) | AT_F16; break;
    case OP_SET_ATOMIC_BF16: c->dma->atomic_mode = (c->dma->atomic_mode & ~0xff) | AT_BF16; break;
    case OP_SET_ATOMIC_ADD: c->dma->atomic_mode = (c->dma->atomic_mode & 0xff) | (AO_ADD << 8); break;
    case OP_SET_ATOMIC_MAX: c->dma->atomic_mode = (c->dma->atomic_mode & 0xff) | (AO_MAX << 8); break;
    case OP_SET_ATOMIC_MIN: c->dma->atomic_mode = (c->dma->atomic_mode & 0xff) | (AO_MIN << 8); break;
    case OP_SET_ATOMIC_NONE: c->dma->atomic_mode = 0; break;
    default: break;
    }
    /* the type and the operation are kept separately; a store combines only once both are set (store_atomic) */
    return 0;
}

/* ------------------------------------------------------------------ lowering */

int dma_reset(Core *c)
{
    DmaState *d = c->dma;
    memset(d, 0, sizeof *d);
    /* the legacy loop registers reset to counts (1, 1) and strides (0, 0) (resolutions Q10) */
    d->loop_outtoub[0] = d->loop_outtoub[1] = 1;
    d->loop_ubtoout[0] = d->loop_ubtoout[1] = 1;
    return 0;
}

static const Type *ptr_type(const Op *op, int i) { return i >= 0 && (uint32_t)i < op->noperands ? op->operands[i]->type : NULL; }

/* The decoded-operand record of a copy whose source and destination pointers are operands 0 and 1. */
static DmaOps *dma_ops(LowerView *L, const Op *op)
{
    DmaOps *o = lw_alloc(L, op, sizeof *o);
    if (!o) return NULL;
    const Type *s = ptr_type(op, 0), *d = ptr_type(op, 1);
    o->sas = (uint8_t)(s && s->kind == TY_PTR ? s->space : AS_GM);
    o->das = (uint8_t)(d && d->kind == TY_PTR ? d->space : AS_GM);
    o->pv = o->pl = o->pr = o->n = o->len = o->ss = o->ds = o->loop0 = -1;
    return o;
}

int dma_lower_grouped(LowerView *L, const Op *op, Instr *in)
{
    DmaOps *o = dma_ops(L, op);
    if (!o) return -1;
    int g = sig_group(lw_sig(L, op), "lc");
    unsigned nl = g >= 0 ? op->segs[g] : 0;
    if (nl > 4) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "more than four loop(...) groups");
        return -1;
    }
    o->loop0 = (int8_t)lw_group_index(L, op, "lc", 0);
    o->nloops = (int8_t)nl;
    o->pv = (int8_t)lw_group_index(L, op, "pv", 0);
    o->pl = (int8_t)lw_group_index(L, op, "pl", 0);
    o->pr = (int8_t)lw_group_index(L, op, "pr", 0);
    o->padb = (uint8_t)(o->pv >= 0 ? ty_bytes(op->operands[o->pv]->type) : 0);
    o->n = (int8_t)lw_group_index(L, op, "n", 0);
    o->len = (int8_t)lw_group_index(L, op, "len", 0);
    o->ss = (int8_t)lw_group_index(L, op, "ss", 0);
    o->ds = (int8_t)lw_group_index(L, op, "ds", 0);
    if (o->pl >= 0 && o->pr < 0) {
        lw_error(L, op, DIAG_V_CLAUSE, "pad(...) takes one or three operands");
        return -1;
    }
    in->ext = o;
    in->pfn = p_grouped;
    return 0;
}

/* set_mov_pad_val inside a vector scope (the compiler places it there too): the V pipe writes the register
   when it reaches the op; copies read it when their MTE2 job runs, so order the two with flags. */
static const Instr *x_set_pad_val(Exec *x, const Instr *in)
{
    x->core->dma->pad_val = fr_u64(x, in->arg[0]);
    return in + 1;
}

int dma_lower(LowerView *L, const Op *op, Instr *in)
{
    if (op_info[op->kind].fam == FAM_DMA_CFG) {
        in->pfn = p_config;
        if (op->kind == OP_SET_MOV_PAD_VAL) in->fn = x_set_pad_val;
        return 0;
    }
    if (op->kind == OP_MTE_GM_UB || op->kind == OP_MTE_UB_GM) return dma_lower_grouped(L, op, in);
    DmaOps *o = dma_ops(L, op);
    if (!o) return -1;
    in->ext = o;
    switch (op->kind) {
    case OP_MTE_UB_UB: case OP_MTE_UB_L1: case OP_COPY_UBUF_TO_UBUF: case OP_COPY_UBUF_TO_CBUF: case OP_COPY_CBUF_TO_UBUF:
        in->pfn = p_gap32;
        return 0;
    case OP_COPY_GM_TO_UBUF: case OP_COPY_GM_TO_CBUF:
        in->pfn = p_legacy_in;
        o->padb = (uint8_t)ty_bytes(op->operands[1]->type->elem);
        return 0;
    case OP_COPY_UBUF_TO_GM:
        in->pfn = p_legacy_out;
        return 0;
    default:
        return 0;
    }
}

/* simt_ops.c — what one workitem executes (docs/simt.md): thread and lane queries, scalar memory with
 * element offsets (pto.load/pto.store inside SIMT code, pto.ldg/pto.stg), atomics (also on the scalar
 * unit), integer and float scalar math, conversions, fences, keep/resume slots and the llvm.* subset.
 * Packed vector<NxT> values live in the low bits of their frame slot, lane 0 lowest. */
#include "simt_int.h"
#include "base/alloc.h"
#include <stdlib.h>
#include <string.h>

#define NEXT return in + 1


/* Shape of a scalar or packed value into SO_FMT (-1: integer elements), SO_LANES and SO_EBITS. */
static void set_shape(Instr *in, const Type *t)
{
    const Type *e = t && t->kind == TY_VEC ? t->elem : t;
    in->imm[SO_LANES] = t && t->kind == TY_VEC ? t->lanes : 1;
    in->imm[SO_EBITS] = e ? ty_bits(e) : 64;
    in->imm[SO_FMT] = e && e->kind == TY_FLOAT ? (int64_t)fk_format((FloatKind)e->fk) : -1;
}

/* ------------------------------------------------------------------ queries */

static uint32_t lanemask(unsigned lane, int kind)
{
    uint64_t below = (1ull << lane) - 1, upto = (2ull << lane) - 1;
    switch (kind) {
    case OP_GET_LANEMASK_EQ: return 1u << lane;
    case OP_GET_LANEMASK_LT: return (uint32_t)below;
    case OP_GET_LANEMASK_LE: return (uint32_t)upto;
    case OP_GET_LANEMASK_GE: return (uint32_t)~below;
    default: return (uint32_t)~upto;
    }
}

static const Instr *x_query(Exec *x, const Instr *in)
{
    SimtItem *it = simt_item(x, in);
    if (!it) return NULL;
    const SimtState *st = x->core->simt;
    const Core *c = x->core;
    uint64_t v = 0;
    int k = (int)in->imm[SO_OP];
    switch (k) {
    case OP_GET_TID_X: case OP_GET_TID_Y: case OP_GET_TID_Z: v = it->t[k - OP_GET_TID_X]; break;
    case OP_GET_BLOCK_DIM_X: case OP_GET_BLOCK_DIM_Y: case OP_GET_BLOCK_DIM_Z: v = st->dim[k - OP_GET_BLOCK_DIM_X]; break;
    case OP_GET_GRID_DIM_X: case OP_GET_GRID_DIM_Y: case OP_GET_GRID_DIM_Z: v = 0; break;
    case OP_GET_BLOCK_IDX_X: case OP_GET_BLOCK_IDX_Y: case OP_GET_BLOCK_IDX_Z: v = 0; break;
    case OP_GET_VECCOREID: v = c->block_idx * (c->cl->ncores == 3 ? 2u : 1u) + (uint64_t)c->subblock; break;
    case OP_GET_CLOCK32: v = (st->t0 + it->cycles) & 0xFFFFFFFFu; break;
    case OP_GET_CLOCK64: v = st->t0 + it->cycles; break;
    case OP_GET_LANEID: v = it->tid % SIMT_WARP; break;
    default: v = lanemask(it->tid % SIMT_WARP, k); break;
    }
    fr_set_u64(x, in->res[0], v);
    NEXT;
}

/* ------------------------------------------------------------------ scalar memory */

/* Decoded memory operands (Instr.imm beyond the shape): SO_BYTES access bytes, SO_SPACE the address
   space, SO_AUX the width of the element offset (0: none), SO_SIGNED reused as the required alignment. */

static uint64_t elem_addr(const Exec *x, const Instr *in, unsigned base)
{
    uint64_t a = ARG(x, in, base);
    if (in->imm[SO_AUX] && in->arg[base + 1] >= 0)
        a = sim_index_addr(a, bits_sext(ARG(x, in, base + 1), in->imm[SO_AUX]), (uint64_t)in->imm[SO_BYTES]);
    return a;
}

static const Instr *x_load(Exec *x, const Instr *in)
{
    unsigned n = (unsigned)in->imm[SO_BYTES];
    AddrSpace as = (AddrSpace)in->imm[SO_SPACE];
    uint64_t a = elem_addr(x, in, 0);
    uint8_t *p = sim_mem(x, in, as, a, n, (unsigned)in->imm[SO_ALIGN], ACC_READ, "source");
    if (!p) return NULL;
    simt_race_access(x, in, as, a, n, 0, 0);
    fr_set_u64(x, in->res[0], 0);
    memcpy(x->frame + in->res[0], p, n);   /* little-endian host (x86-64, aarch64) */
    NEXT;
}

static const Instr *x_store(Exec *x, const Instr *in)
{
    unsigned n = (unsigned)in->imm[SO_BYTES];
    AddrSpace as = (AddrSpace)in->imm[SO_SPACE];
    uint64_t a = elem_addr(x, in, 1);
    uint8_t *p = sim_mem(x, in, as, a, n, (unsigned)in->imm[SO_ALIGN], ACC_WRITE, "destination");
    if (!p) return NULL;
    simt_race_access(x, in, as, a, n, 1, 0);
    memcpy(p, x->frame + in->arg[0], n);
    NEXT;
}

/* ------------------------------------------------------------------ atomics */

static uint64_t atomic_lane(int op, int fmt, bool sgn, unsigned bits, uint64_t o, uint64_t v)
{
    if (fmt >= 0) {
        NumFormat f = (NumFormat)fmt;
        switch (op) {
        case OP_ATOMIC_ADD: return simt_math(SM_ADD, f, o, v, 0);
        case OP_ATOMIC_SUB: return simt_math(SM_SUB, f, o, v, 0);
        case OP_ATOMIC_MIN: return simt_math(SM_MIN, f, o, v, 0);
        case OP_ATOMIC_MAX: return simt_math(SM_MAX, f, o, v, 0);
        default: return v;
        }
    }
    bool lt = sgn ? bits_sext(o, bits) < bits_sext(v, bits) : o < v;
    switch (op) {
    case OP_ATOMIC_ADD: return (o + v) & bits_mask(bits);
    case OP_ATOMIC_SUB: return (o - v) & bits_mask(bits);
    case OP_ATOMIC_MIN: return lt ? o : v;
    case OP_ATOMIC_MAX: return lt ? v : o;
    case OP_ATOMIC_AND: return o & v;
    case OP_ATOMIC_OR: return o | v;
    case OP_ATOMIC_XOR: return o ^ v;
    default: return v;
    }
}

/* One read-modify-write; on workitems, in the order the scheduler runs them (docs/semantics.md). */
static const Instr *x_atomic(Exec *x, const Instr *in)
{
    int op = (int)in->imm[SO_OP], fmt = (int)in->imm[SO_FMT];
    unsigned n = (unsigned)in->imm[SO_BYTES], lanes = (unsigned)in->imm[SO_LANES], bits = (unsigned)in->imm[SO_EBITS];
    AddrSpace as = (AddrSpace)in->imm[SO_SPACE];
    uint64_t a = ARG(x, in, 0);
    uint8_t *p = sim_mem(x, in, as, a, n, n, ACC_WRITE, "destination");
    if (!p) return NULL;
    simt_race_access(x, in, as, a, n, 1, 1);
    uint64_t old = 0, nv = 0, v = ARG(x, in, op == OP_ATOMIC_CAS ? 2 : 1) & bits_mask(8 * n);
    memcpy(&old, p, n);
    if (op == OP_ATOMIC_CAS) {
        nv = old == (ARG(x, in, 1) & bits_mask(8 * n)) ? v : old;   /* bit patterns compared */
    } else {
        for (unsigned l = 0; l < lanes; l++)
            nv |= atomic_lane(op, fmt, in->imm[SO_SIGNED] != 0, bits, simt_lane(old, l, bits), simt_lane(v, l, bits))
                  << (l * bits);
    }
    memcpy(p, &nv, n);
    fr_set_u64(x, in->res[0], old);
    NEXT;
}

/* ------------------------------------------------------------------ integer math */

/* prmt: result byte k is byte (selector nibble k & 7) of b:a, where a = %lhs supplies bytes 4..7 and
   b = %rhs bytes 0..3 (docs/semantics.md, SIMT). */
static const Instr *x_prmt(Exec *x, const Instr *in)
{
    uint64_t src = (ARG(x, in, 1) & 0xFFFFFFFFu) | (ARG(x, in, 0) & 0xFFFFFFFFu) << 32;
    uint64_t sel = ARG(x, in, 2), r = 0;
    for (unsigned k = 0; k < 4; k++) r |= ((src >> (8 * ((sel >> (4 * k)) & 7))) & 0xFF) << (8 * k);
    fr_set_u64(x, in->res[0], r);
    NEXT;
}

/* High half of the double-width product (mulhi) or the full 64-bit product of two i32 (mul_i32toi64). */
static const Instr *x_mulhi(Exec *x, const Instr *in)
{
    unsigned w = (unsigned)in->imm[SO_EBITS];
    bool sgn = in->imm[SO_SIGNED] != 0;
    uint64_t a = ARG(x, in, 0) & bits_mask(w), b = ARG(x, in, 1) & bits_mask(w), r;
    if (in->imm[SO_OP] == OP_MUL_I32TOI64) {
        r = sgn ? (uint64_t)(bits_sext(a, 32) * bits_sext(b, 32)) : a * b;
    } else if (w <= 32) {
        r = sgn ? (uint64_t)(bits_sext(a, w) * bits_sext(b, w)) >> w : (a * b) >> w;
    } else {
        /* 64 x 64 -> high 64 from 32-bit limbs; the signed result corrects the unsigned one */
        uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
        uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
        uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
        r = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
        if (sgn) {
            if (a >> 63) r -= b;
            if (b >> 63) r -= a;
        }
    }
    fr_set_u64(x, in->res[0], r & bits_mask(in->imm[SO_OP] == OP_MUL_I32TOI64 ? 64 : w));
    NEXT;
}

/* ------------------------------------------------------------------ float math */

static const Instr *x_math(Exec *x, const Instr *in)
{
    SimtMath op = (SimtMath)in->imm[SO_OP];
    NumFormat f = (NumFormat)in->imm[SO_FMT];
    unsigned lanes = (unsigned)in->imm[SO_LANES], bits = (unsigned)in->imm[SO_EBITS];
    uint64_t a = ARG(x, in, 0), b = in->nargs > 1 ? ARG(x, in, 1) : 0, c = in->nargs > 2 ? ARG(x, in, 2) : 0, r = 0;
    for (unsigned l = 0; l < lanes; l++)
        r |= simt_math(op, f, simt_lane(a, l, bits), simt_lane(b, l, bits), simt_lane(c, l, bits)) << (l * bits);
    fr_set_u64(x, in->res[0], r);
    NEXT;
}

/* pto.sqrt of one f32 (the fast path; x_math is its reference): num_f32_arith_rn, bit-identical */
static const Instr *x_sqrt_f32(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], num_f32_arith_rn(NUM_OP_SQRT, (uint32_t)ARG(x, in, 0), 0));
    NEXT;
}

/* ------------------------------------------------------------------ convert */

typedef struct CvtInfo {
    int sfmt, dfmt;            /* NumFormat of float elements, -1 integer */
    unsigned sbits, dbits, lanes;
    bool sgn, sat;
    NumRound rm;
} CvtInfo;

static uint64_t cvt_lane(const CvtInfo *k, uint64_t v)
{
    NumFormat s = (NumFormat)k->sfmt, d = (NumFormat)k->dfmt;
    if (k->sfmt < 0) {
        uint64_t r = num_from_int(v, k->sbits, k->sgn, d, k->rm);
        /* sat: an overflow to inf clamps to the largest finite value (a same-format saturating copy) */
        return k->sat ? num_convert(d, r, d, NUM_RND_Z, true) : r;
    }
    if (k->dfmt < 0) return num_to_int(s, v, k->rm, k->dbits, k->sgn, true);
    /* sat clamps finite overflow; inf and NaN convert as themselves */
    bool special = num_is_nan(s, v) || num_convert(s, v, s, NUM_RND_Z, true) != v;
    uint64_t r = num_convert(s, v, d, k->rm, k->sat && !special);
    return num_is_nan(d, r) ? num_canonical_nan(d) : r;
}

static const Instr *x_convert(Exec *x, const Instr *in)
{
    const CvtInfo *k = in->ext;
    uint64_t v = ARG(x, in, 0), r = 0;
    for (unsigned l = 0; l < k->lanes; l++) r |= cvt_lane(k, simt_lane(v, l, k->sbits)) << (l * k->dbits);
    fr_set_u64(x, in->res[0], r);
    NEXT;
}

/* ------------------------------------------------------------------ fences, keep, resume */

static const Instr *x_fence(Exec *x, const Instr *in)
{
    /* workitems run one at a time and every access is performed when executed: a fence orders nothing
       further (it does not order workitems against each other: that is pto.syncthreads) */
    return simt_item(x, in) ? in + 1 : NULL;
}

static uint32_t *slot_words(Exec *x, const Instr *in, SimtItem *it)
{
    SimtState *st = x->core->simt;
    if (!st->slots && !(st->slots = mem_calloc((size_t)SIMT_MAX_ITEMS * SIMT_SLOTS, sizeof *st->slots))) {
        sim_trap(x, in, DIAG_T_OOM, "out of host memory for the keep/resume slots");
        return NULL;
    }
    return st->slots + (size_t)it->tid * SIMT_SLOTS + in->imm[SO_AUX];
}

static const Instr *x_keep(Exec *x, const Instr *in)
{
    SimtItem *it = simt_item(x, in);
    uint32_t *w = it ? slot_words(x, in, it) : NULL;
    if (!w) return NULL;
    uint64_t v = ARG(x, in, 0) & bits_mask(in->imm[SO_EBITS]);
    w[0] = (uint32_t)v;
    if (in->imm[SO_EBITS] > 32) w[1] = (uint32_t)(v >> 32);
    NEXT;
}

static const Instr *x_resume(Exec *x, const Instr *in)
{
    SimtItem *it = simt_item(x, in);
    uint32_t *w = it ? slot_words(x, in, it) : NULL;
    if (!w) return NULL;
    uint64_t v = w[0];
    if (in->imm[SO_EBITS] > 32) v |= (uint64_t)w[1] << 32;
    fr_set_u64(x, in->res[0], v & bits_mask(in->imm[SO_EBITS]));
    NEXT;
}

/* ------------------------------------------------------------------ llvm */

/* llvm.alloca: SO_BYTES = element bytes, SO_AUX = 1 for {pto.persistent} (outside SIMT code). */
static const Instr *x_alloca(Exec *x, const Instr *in)
{
    uint64_t n = ARG(x, in, 0) & bits_mask(in->imm[SO_EBITS]), eb = (uint64_t)in->imm[SO_BYTES];
    uint64_t al = eb < 8 ? eb : 8, bytes = n * eb;
    if (in->imm[SO_AUX]) {
        SimtState *st = x->core->simt;
        uint64_t at = (st->persist_top + al - 1) & ~(al - 1);
        if (n > SIMT_PERSIST_BYTES || at + bytes > SIMT_PERSIST_BYTES) {
            sim_trap(x, in, DIAG_T_OOB, "persistent per-workitem memory of %d bytes exhausted", SIMT_PERSIST_BYTES);
            return NULL;
        }
        if (!st->persist && !(st->persist = mem_calloc(SIMT_MAX_ITEMS, SIMT_PERSIST_BYTES))) {
            sim_trap(x, in, DIAG_T_OOM, "out of host memory for persistent per-workitem memory");
            return NULL;
        }
        st->persist_top = (uint32_t)(at + bytes);
        fr_set_u64(x, in->res[0], SIMT_PERSIST_BASE + at);
        NEXT;
    }
    SimtItem *it = simt_item(x, in);
    if (!it) return NULL;
    uint64_t at = (it->priv_top + al - 1) & ~(al - 1);
    if (n > SIMT_PRIV_BYTES || at + bytes > SIMT_PRIV_BYTES) {
        sim_trap(x, in, DIAG_T_OOB, "private memory of workitem %u (%d bytes) exhausted", it->tid, SIMT_PRIV_BYTES);
        return NULL;
    }
    if (!it->priv && !(it->priv = mem_calloc(1, SIMT_PRIV_BYTES))) {
        sim_trap(x, in, DIAG_T_OOM, "out of host memory for private workitem memory");
        return NULL;
    }
    it->priv_top = (uint32_t)(at + bytes);
    fr_set_u64(x, in->res[0], at);
    NEXT;
}

/* GEP: p + sext(i) * element bytes (SO_BYTES; SO_AUX = index bits). */
static const Instr *x_gep(Exec *x, const Instr *in)
{
    int64_t i = in->nargs < 2 ? in->imm[SO_AUX] : bits_sext(ARG(x, in, 1), in->imm[SO_AUX]);   /* or const_index */
    fr_set_u64(x, in->res[0], sim_index_addr(ARG(x, in, 0), i, (uint64_t)in->imm[SO_BYTES]));
    NEXT;
}

/* Host bytes behind an !llvm.ptr<N> (SO_SPACE = N): 0 is the workitem's private or persistent memory,
   1..8 the PTO address spaces in the compiler's numbering (gm, l1, l0a, l0b, l0c, ub, bias, scaling). */
static uint8_t *llvm_mem(Exec *x, const Instr *in, uint64_t a, unsigned n, int write)
{
    static const AddrSpace map[9] = {AS_GM, AS_GM, AS_L1, AS_L0A, AS_L0B, AS_L0C, AS_UB, AS_BT, AS_FB};
    int64_t sp = in->imm[SO_SPACE];
    if (sp > 0 && sp <= 8) {
        uint8_t *p = sim_mem(x, in, map[sp], a, n, 1, write ? ACC_WRITE : ACC_READ, write ? "destination" : "source");
        if (p) simt_race_access(x, in, map[sp], a, n, write, 0);
        return p;
    }
    SimtItem *it = simt_item(x, in);
    if (!it) return NULL;
    SimtState *st = x->core->simt;
    if (a >= SIMT_PERSIST_BASE) {
        uint64_t off = a - SIMT_PERSIST_BASE;
        if (st->persist && off <= SIMT_PERSIST_BYTES && n <= SIMT_PERSIST_BYTES - off)
            return st->persist + (size_t)it->tid * SIMT_PERSIST_BYTES + off;
    } else if (it->priv && a <= SIMT_PRIV_BYTES && n <= SIMT_PRIV_BYTES - a) {
        return it->priv + a;
    }
    sim_trap(x, in, DIAG_T_OOB, "private access [0x%llx, +%u) of workitem %u is outside its allocations",
             (unsigned long long)a, n, it->tid);
    return NULL;
}

static const Instr *x_llload(Exec *x, const Instr *in)
{
    unsigned n = (unsigned)in->imm[SO_BYTES];
    uint8_t *p = llvm_mem(x, in, ARG(x, in, 0), n, 0);
    if (!p) return NULL;
    memset(x->frame + in->res[0], 0, (n + 7) & ~7u);
    memcpy(x->frame + in->res[0], p, n);
    NEXT;
}

static const Instr *x_llstore(Exec *x, const Instr *in)
{
    unsigned n = (unsigned)in->imm[SO_BYTES];
    uint8_t *p = llvm_mem(x, in, ARG(x, in, 1), n, 1);
    if (!p) return NULL;
    memcpy(p, x->frame + in->arg[0], n);
    NEXT;
}

/* extractelement: lane i of the vector (an index outside the lanes reads 0). */
static const Instr *x_extract(Exec *x, const Instr *in)
{
    unsigned bits = (unsigned)in->imm[SO_EBITS], lanes = (unsigned)in->imm[SO_LANES];
    uint64_t i = ARG(x, in, 1) & bits_mask(in->imm[SO_AUX]), v = 0;
    if (i < lanes) memcpy(&v, x->frame + in->arg[0] + i * bits / 8, bits / 8);
    fr_set_u64(x, in->res[0], v);
    NEXT;
}

/* Bit-preserving copies: llvm.bitcast, llvm.inttoptr (SO_BYTES = the value's bytes). */
static const Instr *x_bits(Exec *x, const Instr *in)
{
    unsigned n = (unsigned)in->imm[SO_BYTES];
    uint8_t tmp[16] = {0};
    memcpy(tmp, x->frame + in->arg[0], n);
    memset(x->frame + in->res[0], 0, (n + 7) & ~7u);
    memcpy(x->frame + in->res[0], tmp, n);
    NEXT;
}

/* ------------------------------------------------------------------ lowering */

static int lower_mem(LowerView *L, const Op *op, Instr *in)
{
    bool st = op->kind == OP_STORE_SCALAR || op->kind == OP_STG;
    const Type *pt = op->operands[st]->type;
    in->fn = st ? x_store : x_load;
    in->imm[SO_BYTES] = ty_bytes(pt->elem);
    in->imm[SO_SPACE] = pt->space;
    int off = lw_group_index(L, op, "off", 0);
    in->imm[SO_AUX] = off >= 0 ? ty_bits(op->operands[off]->type) : 0;
    /* ldg/stg are naturally aligned accesses (at most 8 bytes); pto.load/pto.store follow the scalar unit */
    in->imm[SO_ALIGN] = op->kind == OP_LDG || op->kind == OP_STG ? (in->imm[SO_BYTES] < 8 ? in->imm[SO_BYTES] : 8) : 1;
    return 0;
}

static int lower_convert(LowerView *L, const Op *op, Instr *in)
{
    static const NumRound rm[] = {NUM_RND_R, NUM_RND_A, NUM_RND_F, NUM_RND_C, NUM_RND_Z, NUM_RND_O};
    const Type *s = op->operands[0]->type, *d = op->results[0]->type;
    CvtInfo *k = lw_alloc(L, op, sizeof *k);
    if (!k) return -1;
    const Type *se = s->kind == TY_VEC ? s->elem : s, *de = d->kind == TY_VEC ? d->elem : d;
    k->sfmt = se->kind == TY_FLOAT ? (int)fk_format((FloatKind)se->fk) : -1;
    k->dfmt = de->kind == TY_FLOAT ? (int)fk_format((FloatKind)de->fk) : -1;
    k->sbits = ty_bits(se);
    k->dbits = ty_bits(de);
    k->lanes = s->kind == TY_VEC ? s->lanes : 1;
    k->sgn = op_attr(op, "signed") != NULL;
    k->sat = op_attr(op, "sat") != NULL;
    int r = op_token_id(op, "rnd");
    int ord = r < 0 ? 0 : tok_ordinal(r);
    if (ord >= 6) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "pto.convert round(h) (the target's cast-ceil mode) is not simulated");
        return -1;
    }
    k->rm = rm[ord];
    in->ext = k;
    in->fn = x_convert;
    return 0;
}

static const struct { OpKind op; SimtMath m; } math_ops[] = {
    {OP_ABSF, SM_ABS}, {OP_SQRT, SM_SQRT}, {OP_EXP, SM_EXP}, {OP_LOG, SM_LOG}, {OP_SIN, SM_SIN}, {OP_COS, SM_COS},
    {OP_CEIL, SM_CEIL}, {OP_FLOOR, SM_FLOOR}, {OP_RINT, SM_RINT}, {OP_ROUND, SM_ROUND}, {OP_POW, SM_POW},
    {OP_FMIN, SM_MIN}, {OP_FMAX, SM_MAX}, {OP_FMA, SM_FMA},
};

int simt_lower(LowerView *L, const Op *op, Instr *in)
{
    int r = simt_lower_launch(L, op, in);
    if (r <= 0) return r;
    const Type *t0 = op->noperands ? op->operands[0]->type : NULL;
    for (unsigned i = 0; i < sizeof math_ops / sizeof math_ops[0]; i++)
        if (math_ops[i].op == op->kind) {
            set_shape(in, t0);
            in->imm[SO_OP] = math_ops[i].m;
            in->fn = x_math;
            if (math_ops[i].m == SM_SQRT && in->imm[SO_FMT] == NUM_F32 && in->imm[SO_LANES] == 1 && !L->ctx->reference)
                in->fn = x_sqrt_f32;
            return 0;
        }
    in->imm[SO_OP] = op->kind;
    in->imm[SO_SIGNED] = op_attr(op, "signed") != NULL;
    if (op->kind >= OP_GET_TID_X && op->kind <= OP_GET_LANEMASK_GT) {
        in->fn = x_query;
        return 0;
    }
    if (op->kind >= OP_ATOMIC_EXCH && op->kind <= OP_ATOMIC_CAS) {
        const Type *vt = op->results[0]->type;
        set_shape(in, vt);
        in->imm[SO_BYTES] = ty_bytes(vt);
        in->imm[SO_SPACE] = t0->space;
        in->fn = x_atomic;
        return 0;
    }
    switch (op->kind) {
    case OP_LOAD_SCALAR: case OP_STORE_SCALAR: case OP_LDG: case OP_STG:
        return lower_mem(L, op, in);
    case OP_PRMT: in->fn = x_prmt; return 0;
    case OP_MULHI: case OP_MUL_I32TOI64:
        in->imm[SO_EBITS] = ty_bits(t0);
        in->fn = x_mulhi;
        return 0;
    case OP_CONVERT: return lower_convert(L, op, in);
    case OP_THREADFENCE: case OP_THREADFENCE_BLOCK: in->fn = x_fence; return 0;
    case OP_KEEP: case OP_RESUME: {
        const Attr *s = op_attr(op, "slot");
        in->imm[SO_AUX] = s ? s->i : 0;
        in->imm[SO_EBITS] = ty_bits(op->kind == OP_KEEP ? t0 : op->results[0]->type);
        in->fn = op->kind == OP_KEEP ? x_keep : x_resume;
        return 0;
    }
    case OP_LLVM_ALLOCA: {
        const Attr *e = op_attr(op, "elem_type");
        in->imm[SO_BYTES] = e && e->ty ? ty_bytes(e->ty) : 1;
        in->imm[SO_EBITS] = ty_bits(t0);
        in->imm[SO_AUX] = !simt_inside(op);
        in->fn = x_alloca;
        return 0;
    }
    case OP_LLVM_GEP: {
        const Attr *e = op_attr(op, "elem_type");
        in->imm[SO_BYTES] = e && e->ty ? ty_bytes(e->ty) : 1;
        const Attr *ci = op_attr(op, "const_index");
        in->imm[SO_AUX] = op->noperands < 2 ? (ci ? ci->i : 0) : ty_bits(op->operands[1]->type);
        in->fn = x_gep;
        return 0;
    }
    case OP_LLVM_LOAD: case OP_LLVM_STORE: {
        bool st = op->kind == OP_LLVM_STORE;
        const Type *v = st ? t0 : op->results[0]->type;
        in->imm[SO_BYTES] = ty_bytes(v);
        in->imm[SO_SPACE] = op->operands[st]->type->space;
        in->fn = st ? x_llstore : x_llload;
        return 0;
    }
    case OP_LLVM_EXTRACTELEMENT:
        set_shape(in, t0);
        in->imm[SO_AUX] = ty_bits(op->operands[1]->type);
        in->fn = x_extract;
        return 0;
    case OP_LLVM_BITCAST: case OP_LLVM_INTTOPTR:
        in->imm[SO_BYTES] = ty_bytes(t0) < 16 ? ty_bytes(t0) : 16;
        in->fn = x_bits;
        return 0;
    default:
        return 0;   /* stays "not simulated" */
    }
}

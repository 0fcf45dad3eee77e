/* tile_pow.c — tpow / tpows, one V job over the destination's valid region (docs/semantics.md §14.7):
 *   integer tiles (si8..si32, ui8..ui32): dst = base ^ exp by square-and-multiply at the element width (wrapping),
 *     with base^0 = 1 and 1^exp = 1, and for signed types a negative exponent giving 0 unless the base is -1 (then
 *     +-1 by the exponent's parity);
 *   f32, f16 and bf16 tiles (the default algorithm; pto-isa a5 TPow.hpp TPowFloat): each lane in f32 (f16/bf16 widened
 *     exactly), exp(e * ln|b|) through the vln / vmul / vexp lanes, then the special cases in the template's order
 *     (pow_f32 below), an f16/bf16 result rounded to nearest-even without saturation; with precisionType =
 *     high_precision the template's head/tail log and compensated exp (pow_f32_hp), also on bf16, which the
 *     default algorithm does not take. */
#include "tile_int.h"

static uint64_t sext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : (uint64_t)((int64_t)(v << (64 - bits)) >> (64 - bits));
}

/* One lane: b, e the element bits; the result's low `bits` bits. */
static uint64_t ipow(uint64_t b, uint64_t e, unsigned bits, int is_signed)
{
    uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    b &= m;
    e &= m;
    if (e == 0 || b == 1) return 1;
    if (is_signed && (sext(e, bits) >> 63)) return b == m ? (e & 1 ? m : 1) : 0;   /* b == m: b is -1 */
    uint64_t d = 1;
    for (; e; e >>= 1) {
        if (e & 1) d = (d * b) & m;
        b = (b * b) & m;
    }
    return d;
}

#define F32_V(op, a, b) valu_eval(VOP_##op, EK_F32, a, b, 0)
#define F32_CMP(tok, a, b) lane_cmp(T_CMP_##tok, EK_F32, a, b)
enum { F_ONE = 0x3F800000u, F_MONE = 0xBF800000u, F_HALF = 0x3F000000u, F_MTWO = 0xC0000000u, F_NAN = 0x7FC00000u };

static int f_isnan(uint64_t v) { return (v & 0x7FFFFFFFu) > 0x7F800000u; }
static int f_isinf(uint64_t v) { return (v & 0x7FFFFFFFu) == 0x7F800000u; }
static uint64_t f_floor(uint64_t v) { return num_round_integral(NUM_F32, v, NUM_RND_F); }   /* vtrc ROUND_F */

/* The special cases of both algorithms, applied to d (the core's result) for base b and exponent e, in the template's
   order (each step only on the lanes no earlier step settled):
     1. e == 0 or b == 1: 1;
     2. b or e NaN: NaN;
     3. b = +-inf or +-0: b with its exponent field flipped (inf <-> 0, the sign kept) when e < 0, else b; then
        that value when e is an odd integer, its magnitude otherwise;
     4. b < 0: NaN when e is no integer, the result negated when e is odd; and (-1)^(+-inf) = 1.
   "e is odd" is fma(-2, floor(0.5 e), e) == 1 (vmuls, vtrc floor, vmadd), as the template computes it. */
static uint64_t pow_special(uint64_t d, uint64_t b, uint64_t e)
{
    if (F32_CMP(EQ, e, 0) || F32_CMP(EQ, b, F_ONE)) return F_ONE;
    if (f_isnan(b) || f_isnan(e)) return F_NAN;
    int odd = F32_CMP(EQ, valu_eval(VOP_MADD, EK_F32, f_floor(F32_V(MUL, e, F_HALF)), F_MTWO, e), F_ONE);
    if (f_isinf(b) || F32_CMP(EQ, b, 0)) {
        uint64_t t = F32_CMP(LT, e, 0) ? b ^ 0x7F800000u : b;
        return odd ? t : t & 0x7FFFFFFFu;
    }
    if (F32_CMP(LT, b, 0)) d = F32_CMP(NE, e, f_floor(e)) ? F_NAN : odd ? d ^ 0x80000000u : d;
    if (f_isinf(e) && F32_CMP(EQ, b, F_MONE)) d = F_ONE;
    return d;
}

/* One f32 lane of the default algorithm, b the base and e the exponent (bits): vabs, vln, vmul, vexp. */
static uint64_t pow_f32(uint64_t b, uint64_t e)
{
    return pow_special(F32_V(EXP, F32_V(MUL, e, F32_V(LN, F32_V(ABS, b, 0), 0)), 0), b, e);
}

/* The high-precision algorithm's f32 constants (pto-isa a5 TPow.hpp namespace PowF, as bits). */
enum {
    HP_TINY = 0x00800000u,        /* 1.175494351e-38: the smallest normal; below it the exponent starts at -23 */
    HP_M23 = 0xC1B80000u,         /* -23.0 */
    HP_SQRT_HALF = 0x3F3504F3u,   /* 0.70710678: the mantissa is reduced into [sqrt(1/2), sqrt(2)) */
    HP_EXP_MASK = 0xFF800000u,
    HP_ULP1 = 0x34000000u,        /* 1.19209290e-7 = 2^-23 */
    HP_C1 = 0x3E048000u,          /* 0.129394531: the log polynomial, highest first */
    HP_C2 = 0x3E115D4Cu,          /* 0.141957462 */
    HP_C3 = 0x3E4CD0ECu,          /* 0.200015724 */
    HP_C4 = 0x3EAAAAA8u,          /* 0.333333254 */
    HP_LN2_HI = 0x3F317218u,      /* 6.93147182e-1 */
    HP_LN2_HI_NEG = 0xBF317218u,
    HP_LN2_LO = 0xB102E308u,      /* -1.90465421e-9 */
    HP_UNFL = 0xC2D00000u,        /* -104.0 */
    HP_OVFL = 0x42B17218u,        /* 88.7228390 */
    HP_THREE = 0x40400000u, HP_MTWO = 0xC0000000u,
};

/* One f32 lane of the high-precision algorithm (pto-isa a5 TPow.hpp TPowFloatHighPrecisionImpl): ln|b| as a
   head/tail pair (GetLogFExtStepOne/Two), then exp of e times it with the product's rounding error carried
   (GetExpCore), then the special cases. Each line is one micro op of the template, through the same lane
   functions (valu_eval): vmula(acc, a, b) = acc + a b, vmadd(acc, a, b) = acc a + b, vaxpy(a, b, s) = s a + b, each
   fused. As the template does, a subnormal |b| is not rescaled (its 2^23 product is computed and unused); only the
   exponent head starts at -23 for it. */
static uint64_t pow_f32_hp(uint64_t b, uint64_t e)
{
    /* GetLogFExtStepOne */
    uint64_t a = F32_V(ABS, b, 0);
    uint64_t hi = F32_CMP(LT, a, HP_TINY) ? HP_M23 : 0;
    uint64_t ex = (a - HP_SQRT_HALF) & HP_EXP_MASK & 0xFFFFFFFFu;      /* vsub, vand on s32 lanes */
    uint64_t lo = (a - ex) & 0xFFFFFFFFu;                              /* the mantissa in [sqrt(1/2), sqrt(2)) */
    hi = valu_eval(VOP_AXPY, EK_F32, lane_cvt(EK_S32, EK_F32, ex, NUM_RND_A, false), hi, HP_ULP1);
    uint64_t p = F32_V(ADD, lo, F_ONE);
    lo = F32_V(ADD, lo, F_MONE);
    uint64_t r = F32_V(DIV, F_ONE, p);
    /* GetLogFExtStepTwo */
    uint64_t qhi = F32_V(MUL, lo, r);
    uint64_t t = F32_V(ADD, F32_V(MUL, qhi, HP_MTWO), lo);
    uint64_t t2 = valu_eval(VOP_MADD, EK_F32, F32_V(NEG, lo, 0), qhi, t);
    uint64_t qlo = F32_V(MUL, r, t2);
    uint64_t sq = F32_V(MUL, qhi, qhi);
    uint64_t pr = valu_eval(VOP_AXPY, EK_F32, sq, HP_C2, HP_C1);
    pr = valu_eval(VOP_MADD, EK_F32, pr, sq, HP_C3);
    pr = valu_eval(VOP_MADD, EK_F32, pr, sq, HP_C4);
    pr = F32_V(MUL, pr, sq);
    qhi = F32_V(ADD, qhi, qhi);
    qlo = F32_V(ADD, qlo, qlo);
    uint64_t fhi = F32_V(ADD, F32_V(MUL, hi, HP_LN2_HI), qhi);
    uint64_t flo = F32_V(SUB, qhi, valu_eval(VOP_AXPY, EK_F32, hi, fhi, HP_LN2_HI_NEG));
    qhi = valu_eval(VOP_MADD, EK_F32, qhi, pr, flo);
    qlo = valu_eval(VOP_MULA, EK_F32, qlo, F32_V(MUL, qlo, HP_THREE), pr);
    qlo = valu_eval(VOP_AXPY, EK_F32, hi, qlo, HP_LN2_LO);
    qlo = F32_V(ADD, qlo, qhi);
    uint64_t lhi = F32_V(ADD, fhi, qlo);
    uint64_t llo = F32_V(ADD, F32_V(SUB, fhi, lhi), qlo);
    /* GetExpCore */
    uint64_t phi = F32_V(MUL, lhi, e);
    uint64_t plo = valu_eval(VOP_MULA, EK_F32, F32_V(NEG, phi, 0), lhi, e);
    plo = valu_eval(VOP_MULA, EK_F32, plo, llo, e);
    uint64_t d = F32_V(EXP, phi, 0);
    d = valu_eval(VOP_MULA, EK_F32, d, plo, d);
    if (F32_CMP(GE, phi, HP_OVFL) || F32_CMP(LT, phi, HP_UNFL)) d = F32_CMP(GE, phi, 0) ? 0x7F800000u : 0;
    return pow_special(d, b, e);
}

static int p_pow(Exec *x, const Instr *in, const uint64_t *args)
{
    const TileJob *j = TJ(in);
    for (int i = 0; i < j->n; i++)
        if (j->ty[i]->kind == TY_TILE_BUF &&
            tile_check_valid(x, in, j->ty[i], tj_tile(j, args, i), i == j->dst ? "destination" : "source"))
            return -1;
    TileRt d = tj_tile(j, args, j->dst);
    const ElemKind k = (ElemKind)j->ek;
    unsigned e = (unsigned)ty_bytes(j->ty[(int)j->dst]->elem), bits = e * 8;
    uint64_t sc = j->scal >= 0 ? tj_scalar(j, args, j->scal) : 0;
    if (j->scal >= 0 && j->sbits < 64) sc &= (1ull << j->sbits) - 1;
    if (j->scal >= 0 && ek_float(k)) {   /* tpows: the scalar as the element type (T exp), then an f32 lane (vdup) */
        ElemKind sk = elem_kind(j->ty[(int)j->scal]);
        if (sk != k) sc = lane_cvt(sk, k, sc, NUM_RND_R, false);
        if (k == EK_F16 || k == EK_BF16) sc = lane_cvt(k, EK_F32, sc, NUM_RND_R, false);
    }
    const Type *dt = j->ty[(int)j->dst], *bt = j->ty[(int)j->src0], *et = j->src1 >= 0 ? j->ty[(int)j->src1] : NULL;
    uint64_t da = tj_tile(j, args, j->dst).addr, ba = tj_tile(j, args, j->src0).addr;
    uint64_t ea = j->src1 >= 0 ? tj_tile(j, args, j->src1).addr : 0;
    for (uint64_t r = 0; r < d.vr && d.vc; r++) {
        const uint8_t *pb = sim_mem(x, in, (AddrSpace)bt->space, ba + r * (uint64_t)bt->dims[1] * e, d.vc * e, 1,
                                    ACC_READ, "tile source");
        const uint8_t *pe = !pb || !et ? NULL : sim_mem(x, in, (AddrSpace)et->space, ea + r * (uint64_t)et->dims[1] * e,
                                                        d.vc * e, 1, ACC_READ, "tile source");
        uint8_t *pd = !pb || (et && !pe) ? NULL : sim_mem(x, in, (AddrSpace)dt->space, da + r * (uint64_t)dt->dims[1] * e,
                                                          d.vc * e, 1, ACC_WRITE, "tile destination");
        if (!pd) return -1;
        for (uint64_t c = 0; c < d.vc; c++) {
            uint64_t bv = lane_get(pb, e, (unsigned)c), ev = pe ? lane_get(pe, e, (unsigned)c) : sc, rv;
            if (k == EK_F32) rv = j->hp ? pow_f32_hp(bv, ev) : pow_f32(bv, ev);
            else if (k == EK_F16 || k == EK_BF16)   /* UNPK_B16 + vcvt up (exact), the f32 lane, vcvt down (R, no
                                                       saturation) */
            {
                uint64_t bf = lane_cvt(k, EK_F32, bv, NUM_RND_R, false), ef = pe ? lane_cvt(k, EK_F32, ev, NUM_RND_R, false) : ev;
                rv = lane_cvt(EK_F32, k, j->hp ? pow_f32_hp(bf, ef) : pow_f32(bf, ef), NUM_RND_R, false);
            }
            else rv = ipow(bv, ev, bits, ek_signed(k));
            lane_set(pd, e, (unsigned)c, rv);
        }
    }
    if (ek_float(k)) {   /* per 64 f32 lanes: the core (4 ops) and the special cases (~30 compares, selects, ...) */
        static const OpKind mf[] = {OP_VLDS, OP_VLDS, OP_VABS, OP_VLN, OP_VMUL, OP_VEXP, OP_VCMPS, OP_VCMPS, OP_VCMP,
                                    OP_VCMP, OP_VAND, OP_VCMPS, OP_VCMPS, OP_VCMPS, OP_VXOR, OP_VSEL, OP_VAND,
                                    OP_VMULS, OP_VTRC, OP_VMADD, OP_VCMPS, OP_VSEL, OP_VSEL, OP_VNEG, OP_VSEL, OP_VTRC,
                                    OP_VCMP, OP_VCMPS, OP_VSEL, OP_VAND, OP_VCMPS, OP_VCMPS, OP_VSTS};
        /* high precision adds the head/tail log (GetLogFExtStepOne/Two) and the compensated exp (GetExpCore); the
           default core's 4 ops stay counted (an overcount of 4 of ~94 ops) */
        static const OpKind mh[] = {OP_VABS, OP_VCMPS, OP_VMULS, OP_VSEL, OP_VSUB, OP_VAND, OP_VSUB, OP_VCVT, OP_VAXPY,
                                    OP_VADDS, OP_VADDS, OP_VDIV, OP_VMUL, OP_VMULS, OP_VADD, OP_VNEG, OP_VMADD, OP_VMUL,
                                    OP_VMUL, OP_VAXPY, OP_VMADD, OP_VMADD, OP_VMUL, OP_VADD, OP_VADD, OP_VMULS, OP_VADD,
                                    OP_VAXPY, OP_VSUB, OP_VMADD, OP_VMULS, OP_VMULA, OP_VAXPY, OP_VADD, OP_VADD, OP_VSUB,
                                    OP_VADD, OP_VMUL, OP_VNEG, OP_VMULA, OP_VMULA, OP_VMULA, OP_VCMPS, OP_VDUP,
                                    OP_VCMPS, OP_VCMPS, OP_POR, OP_VSEL};
        uint64_t reps = (uint64_t)d.vr * ((d.vc + 63) / 64);
        x->extra_cost += tile_vec_cost(x, mf, sizeof mf / sizeof mf[0], EK_F32, EK_F32, reps);
        if (j->hp) x->extra_cost += tile_vec_cost(x, mh, sizeof mh / sizeof mh[0], EK_F32, EK_F32, reps);
        sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * e);
        return 0;
    }
    /* per bit of the (widened) element: vand, vcmps, vmul, vsel, vshrs, vmul */
    OpKind m[8] = {OP_VLDS, OP_VLDS, OP_VMUL, OP_VMUL, OP_VSEL, OP_VSHRS, OP_VSTS};
    unsigned lanes = VREG_BYTES / (e < 2 ? 2 : e), w = e < 2 ? 16 : bits;
    x->extra_cost += tile_vec_cost(x, m, 7, k, k, (uint64_t)d.vr * ((d.vc + lanes - 1) / lanes) * w);
    sim_count(x, PQ_V, (uint64_t)d.vr * d.vc * e);
    return 0;
}

static void foot_pow(const Instr *in, const uint64_t *args, AsFoot *f)
{
    const TileJob *j = TJ(in);
    tile_foot_whole(j, args, f, 1u << j->dst);
}

int tile_lower_pow(LowerView *L, const Op *op, Instr *in)
{
    const char *name = op_info[op->kind].name;
    for (uint32_t i = 0; i < op->noperands; i++) {
        const Type *t = op->operands[i]->type;
        if (t->kind == TY_TILE_BUF && (t->blayout != TBL_ROW_MAJOR || t->slayout != TSL_NONE_BOX)) {
            lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' runs on row-major tiles (blayout=row_major, slayout=none_box) only",
                     name);
            return -1;
        }
    }
    int d = lw_group_index(L, op, "dst", 0);
    ElemKind k = elem_kind(op->operands[d]->type->elem);
    if ((!ek_int(k) && k != EK_F32 && k != EK_F16 && k != EK_BF16) || k == EK_S64 || k == EK_U64) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' on %s tiles is not executable yet (integer tiles up to 32 bits, f32, "
                 "f16 and bf16 run, docs/tile.md)", name, ek_name(k));
        return -1;
    }
    const Attr *pt = op_token(op, "precisionType");
    int hp = ek_float(k) && pt && pt->s && strcmp(pt->s, "high_precision") == 0;
    if (k == EK_BF16 && !hp) {   /* pto-isa a5 PowCheckType: the default algorithm takes no bf16 */
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' on bf16 tiles runs with precisionType = high_precision only (the "
                 "A5 default algorithm has no bf16 form, docs/semantics.md 14.7)", name);
        return -1;
    }
    TileJob *j = tile_job(L, op, in);
    if (!j) return -1;
    in->foot = foot_pow;
    in->cost = 1;
    j->dst = (int8_t)d;
    j->ek = j->sek = (uint8_t)k;
    j->hp = (uint8_t)hp;
    if (op->kind == OP_TPOW) {
        j->src0 = (int8_t)lw_group_index(L, op, "base", 0);
        j->src1 = (int8_t)lw_group_index(L, op, "exp", 0);
    } else {
        j->src0 = (int8_t)lw_group_index(L, op, "src", 0);
        j->scal = (int8_t)lw_group_index(L, op, "scalar", 0);
        j->sbits = (uint8_t)ty_bits(op->operands[j->scal]->type);
    }
    in->pfn = p_pow;
    return 0;
}

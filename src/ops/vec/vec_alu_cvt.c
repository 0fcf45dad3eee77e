/* vec_alu_cvt.c — conversions: vcvt (rnd/sat/part, resolutions Q26 and §2.4), vtrc (Q27), vci
 * (§2.6), vbitcast, and the converting SFU ops vaddreluconv, vmulconv and vexpdif (Q32).
 * All value conversions go through num.h (one exact rounding in the requested mode). */
#include "vec_alu_int.h"

NumRound lane_rnd(int tok)
{
    switch (tok) {
    case T_RND_A: return NUM_RND_A;
    case T_RND_F: return NUM_RND_F;
    case T_RND_C: return NUM_RND_C;
    case T_RND_Z: return NUM_RND_Z;
    case T_RND_O: return NUM_RND_O;
    default: return NUM_RND_R;
    }
}

/* ------------------------------------------------------------------ one lane */

/* Converts a value of kind s (raw bits) to kind d. Float->int and int->int clamp with sat, else keep the low
   bits (a signed source widened to an unsigned kind clamps at 0); widening float conversions are exact. */
uint64_t lane_cvt(ElemKind s, ElemKind d, uint64_t v, NumRound rm, bool sat)
{
    if (ek_float(s) && ek_float(d)) {
        /* f32 -> f16/bf16, nearest-even, no saturation: the f32 value is exact in a double, and fenc rounds
           it once with the same overflow (inf), NaN (canonical) and subnormal rules as num_convert */
        if (s == EK_F32 && (d == EK_F16 || d == EK_BF16) && rm == NUM_RND_R) {
            uint64_t r = fenc(d, fdec(s, v));
            if (!sat) return r;
            /* num_convert's saturation: NaN -> +0, inf and overflow (which nearest-even rounds to inf) -> max */
            uint64_t mag = r & 0x7FFF, inf = d == EK_F16 ? 0x7C00 : 0x7F80;
            if (mag > inf) return 0;
            return mag == inf ? (r & 0x8000) | (inf - 1) : r;
        }
        if ((s == EK_F16 || s == EK_BF16) && d == EK_F32) {   /* exact widening */
            if (fisnan(s, v)) return 0x7FC00000u;
            return s == EK_BF16 ? (v & 0xFFFF) << 16 : fenc(EK_F32, fdec(s, v));
        }
        bool narrowing = ek_bits(d) < ek_bits(s) || ek_packed4(d) || (s == EK_BF16 && d == EK_F16);
        return num_convert(ek_fmt(s), v, ek_fmt(d), rm, narrowing && sat);
    }
    /* float -> int: rounded, then saturated with sat (NaN -> 0, +-inf -> the range ends), else the low bits of the
       integer (NaN and +-inf -> 0); docs/semantics.md §7.5 */
    if (ek_float(s)) {
        if (!sat && num_is_inf(ek_fmt(s), v)) return 0;
        return num_to_int(ek_fmt(s), v, rm, ek_bits(d), ek_signed(d), sat);
    }
    if (ek_float(d)) return num_from_int(v, ek_bits(s), ek_signed(s), ek_fmt(d), rm);
    /* int -> int; widening a signed source to an unsigned destination keeps values and takes negatives to 0
       (§7.5, the A5 tcvt i16 -> ui32 evidence) */
    if (!sat && !(ek_signed(s) && !ek_signed(d) && ek_bits(d) > ek_bits(s)))
        return (uint64_t)(ek_signed(s) ? (uint64_t)ek_sext(s, v) : v) & ek_mask(d);
    unsigned wd = ek_bits(d);
    if (ek_signed(s)) {
        int64_t x = ek_sext(s, v);
        int64_t lo, hi;
        if (ek_signed(d)) {
            lo = wd >= 64 ? INT64_MIN : -(int64_t)(1ull << (wd - 1));
            hi = wd >= 64 ? INT64_MAX : (int64_t)((1ull << (wd - 1)) - 1);
        } else {
            lo = 0;
            hi = wd >= 64 ? INT64_MAX : (int64_t)((1ull << wd) - 1);
        }
        if (x < lo) x = lo;
        if (x > hi) x = hi;
        return (uint64_t)x & ek_mask(d);
    }
    uint64_t hi = ek_signed(d) ? (1ull << (wd - 1)) - 1 : ek_mask(d);
    return (v > hi ? hi : v) & ek_mask(d);
}

/* f32 -> f16, nearest-even, on the bits (what fenc(EK_F16, ...) computes: canonical NaN 0x7E00, overflow to
   inf, subnormals kept); sat: NaN -> +0, inf -> the largest finite. A branch-light form the compiler
   vectorises, for lane_cvt_run. */
static inline uint16_t f32_f16_rne(uint32_t x, int sat)
{
    uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return sat ? 0 : 0x7E00u;
    if (a >= 0x477FF000u) return (uint16_t)(sign | (sat ? 0x7BFFu : 0x7C00u));   /* from 65520 on: inf */
    if (a >= 0x38800000u) {                                                     /* normal: 2^-14 and up */
        uint32_t m = a - 0x38000000u;
        return (uint16_t)(sign | ((m + 0xFFFu + ((m >> 13) & 1u)) >> 13));
    }
    uint32_t e = a >> 23;
    if (e < 102) return (uint16_t)sign;                                         /* at most 2^-25: 0 */
    uint32_t mant = (a & 0x7FFFFFu) | 0x800000u, sh = 126 - e;                  /* 14..24 */
    return (uint16_t)(sign | ((mant + ((1u << (sh - 1)) - 1) + ((mant >> sh) & 1u)) >> sh));
}

void lane_cvt_run(ElemKind s, ElemKind d, uint8_t *dst, const uint8_t *src, unsigned n, NumRound rm, bool sat)
{
    const unsigned es = ek_bytes(s), ed = ek_bytes(d);
    if (s == EK_F32 && d == EK_F16 && rm == NUM_RND_R) {
        for (unsigned i = 0; i < n; i++) {
            uint32_t x;
            memcpy(&x, src + 4 * i, 4);
            uint16_t r = f32_f16_rne(x, sat);
            memcpy(dst + 2 * i, &r, 2);
        }
        return;
    }
    if (s == EK_BF16 && d == EK_F32) {
        for (unsigned i = 0; i < n; i++) {
            uint16_t x;
            memcpy(&x, src + 2 * i, 2);
            uint32_t r = (x & 0x7FFFu) > 0x7F80u ? 0x7FC00000u : (uint32_t)x << 16;
            memcpy(dst + 4 * i, &r, 4);
        }
        return;
    }
    for (unsigned i = 0; i < n; i++) lane_set(dst, ed, i, lane_cvt(s, d, lane_get(src, es, i), rm, sat));
}

/* ------------------------------------------------------------------ vcvt */

enum { SH_SAME, SH_WIDEN, SH_NARROW, SH_F4_WIDEN, SH_F4_NARROW };

/* Decoded operands of vcvt (Instr.imm). */
enum {
    VC_SRC,     /* source ElemKind */
    VC_DST,     /* result ElemKind */
    VC_MASK,    /* mask operand index (-1) */
    VC_RND,     /* NumRound */
    VC_SAT,     /* 1: saturate */
    VC_PART,    /* part, 0..3 */
    VC_SHAPE,   /* SH_* */
    VC_RATIO,   /* lane ratio of a widening or narrowing shape (2 or 4) */
};

static const Instr *x_vcvt(Exec *x, const Instr *in)
{
    const ElemKind s = (ElemKind)in->imm[VC_SRC], d = (ElemKind)in->imm[VC_DST];
    const uint8_t *m = in->imm[VC_MASK] >= 0 ? FR(x, in->arg[in->imm[VC_MASK]]) : NULL;
    const NumRound rm = (NumRound)in->imm[VC_RND];
    const bool sat = in->imm[VC_SAT] != 0;
    const unsigned p = (unsigned)in->imm[VC_PART], r = (unsigned)in->imm[VC_RATIO];
    const uint8_t *a = FR(x, in->arg[0]);
    const unsigned es = ek_bytes(s), ed = ek_bytes(d);
    uint8_t out[VREG_BYTES];
    memset(out, 0, sizeof out);
    switch ((int)in->imm[VC_SHAPE]) {
    case SH_SAME:
        for (unsigned i = 0; i < VREG_BYTES / es; i++)
            if (mask_on(m, es, i)) lane_set(out, ed, i, lane_cvt(s, d, lane_get(a, es, i), rm, sat));
        break;
    case SH_WIDEN:   /* destination lane j from source lane r*j + p */
        for (unsigned j = 0; j < VREG_BYTES / ed; j++) {
            unsigned i = r * j + p;
            if (mask_on(m, es, i)) lane_set(out, ed, j, lane_cvt(s, d, lane_get(a, es, i), rm, sat));
        }
        break;
    case SH_NARROW:  /* source lane j to destination lane r*j + p; the other lanes stay 0 */
        for (unsigned j = 0; j < VREG_BYTES / es; j++)
            if (mask_on(m, es, j)) lane_set(out, ed, r * j + p, lane_cvt(s, d, lane_get(a, es, j), rm, sat));
        break;
    case SH_F4_WIDEN:   /* byte 4j+p holds two f4 values: low nibble -> bf16 lane 2j, high -> 2j+1 */
        for (unsigned j = 0; j < 64; j++) {
            unsigned i = 4 * j + p;
            if (!mask_on(m, 1, i)) continue;
            uint64_t b = a[i];
            lane_set(out, 2, 2 * j, lane_cvt(s, d, b & 0xF, rm, sat));
            lane_set(out, 2, 2 * j + 1, lane_cvt(s, d, b >> 4, rm, sat));
        }
        break;
    case SH_F4_NARROW:  /* bf16 lanes 2j, 2j+1 -> low, high nibble of byte 4j+p */
        for (unsigned j = 0; j < 64; j++) {
            uint64_t lo = mask_on(m, 2, 2 * j) ? lane_cvt(s, d, lane_get(a, 2, 2 * j), rm, sat) & 0xF : 0;
            uint64_t hi = mask_on(m, 2, 2 * j + 1) ? lane_cvt(s, d, lane_get(a, 2, 2 * j + 1), rm, sat) & 0xF : 0;
            out[4 * j + p] = (uint8_t)(lo | hi << 4);
        }
        break;
    }
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

static int part_index(int tok)
{
    switch (tok) {
    case T_PART_ODD: case T_PART_P1: return 1;
    case T_PART_P2: return 2;
    case T_PART_P3: return 3;
    default: return 0;
    }
}

static int lower_vcvt(LowerView *L, const Op *op, Instr *in)
{
    ElemKind s = valu_vreg_ek(op->operands[0]), d = valu_vreg_ek(op->nresults ? op->results[0] : NULL);
    if (!op_cvt(OP_VCVT, s, d)) {   /* the op table's CVT rows, as the verifier checks them */
        char a[64] = "?", b[64] = "?";
        ty_format(op->operands[0]->type, a, sizeof a);
        if (op->nresults) ty_format(op->results[0]->type, b, sizeof b);
        lw_error(L, op, DIAG_V_ELEM_TYPE, "pto.vcvt has no conversion from %s to %s", a, b);
        return -1;
    }
    int part = op_token_id(op, "part");
    int pi = part_index(part);
    unsigned ws = ek_bits(s), wd = ek_bits(d);
    int shape, ratio = 1;
    if (ek_packed4(s)) { shape = SH_F4_WIDEN; ratio = 4; }
    else if (ek_packed4(d)) { shape = SH_F4_NARROW; ratio = 4; }
    else if (ws == wd) shape = SH_SAME;
    else if (wd > ws) { shape = SH_WIDEN; ratio = (int)(wd / ws); }
    else { shape = SH_NARROW; ratio = (int)(ws / wd); }
    if (shape != SH_SAME && pi >= ratio) {
        lw_error(L, op, DIAG_V_TOKEN, "part %s does not fit a 1:%d conversion", tok_spelling(part), ratio);
        return -1;
    }
    if (shape == SH_SAME) pi = 0;
    in->imm[VC_SRC] = s;
    in->imm[VC_DST] = d;
    in->imm[VC_MASK] = valu_operand(L, op, "m");
    in->imm[VC_RND] = lane_rnd(op_token_id(op, "rnd"));
    in->imm[VC_SAT] = op_token_id(op, "sat") == T_SAT_SAT;
    in->imm[VC_PART] = pi;
    in->imm[VC_SHAPE] = shape;
    in->imm[VC_RATIO] = ratio;
    in->fn = x_vcvt;
    return 0;
}

/* ------------------------------------------------------------------ vtrc, vci, vbitcast */

/* Decoded operands of vtrc (Instr.imm). */
enum {
    TR_EK,     /* ElemKind */
    TR_MASK,   /* mask operand index (-1) */
    TR_RND,    /* NumRound */
};

static const Instr *x_vtrc(Exec *x, const Instr *in)
{
    const ElemKind k = (ElemKind)in->imm[TR_EK];
    const unsigned e = ek_bytes(k), n = VREG_BYTES / e;
    const uint8_t *m = in->imm[TR_MASK] >= 0 ? FR(x, in->arg[in->imm[TR_MASK]]) : NULL;
    const uint8_t *a = FR(x, in->arg[0]);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++)
        lane_set(out, e, i, mask_on(m, e, i) ? num_round_integral(ek_fmt(k), lane_get(a, e, i), (NumRound)in->imm[TR_RND]) : 0);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* Decoded operands of vci (Instr.imm). */
enum {
    CI_EK,     /* ElemKind */
    CI_DESC,   /* 1: descending order */
};

/* Lane i = base + i (base - i): integers wrap, floats are the exact value rounded once to nearest-even. */
uint64_t lane_ci(ElemKind k, uint64_t base, uint64_t i, int desc)
{
    if (ek_int(k)) return (desc ? base - i : base + i) & ek_mask(k);
    double fb = fdec(k, base & ek_mask(k));
    return fenc(k, desc ? fb - (double)i : fb + (double)i);
}

static const Instr *x_vci(Exec *x, const Instr *in)
{
    const ElemKind k = (ElemKind)in->imm[CI_EK];
    const unsigned e = ek_bytes(k), n = VREG_BYTES / e;
    const int desc = (int)in->imm[CI_DESC];
    uint64_t base = ARG(x, in, 0) & ek_mask(k);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) lane_set(out, e, i, lane_ci(k, base, i, desc));
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

static const Instr *x_vbitcast(Exec *x, const Instr *in)
{
    memmove(FR(x, in->res[0]), FR(x, in->arg[0]), VREG_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ converting SFU ops */

/* Decoded operands of vaddreluconv and vmulconv (Instr.imm). */
enum {
    OC_SRC,    /* source ElemKind */
    OC_DST,    /* result ElemKind */
    OC_MASK,   /* mask operand index (-1) */
    OC_MUL,    /* 0 add+relu, 1 mul */
};

/* vaddreluconv / vmulconv: lane i < N_src of the result = convert(op(a[i], b[i])); the upper lanes are 0.
   The intermediate is rounded to the source type; float->float narrowing rounds to nearest-even without
   saturation (IEEE overflow and NaN), float->int rounds to nearest-even and saturates. */
static const Instr *x_opconv(Exec *x, const Instr *in)
{
    const ElemKind s = (ElemKind)in->imm[OC_SRC], d = (ElemKind)in->imm[OC_DST];
    const unsigned es = ek_bytes(s), ed = ek_bytes(d), n = VREG_BYTES / es;
    const uint8_t *m = in->imm[OC_MASK] >= 0 ? FR(x, in->arg[in->imm[OC_MASK]]) : NULL;
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]);
    uint8_t out[VREG_BYTES];
    memset(out, 0, sizeof out);
    for (unsigned i = 0; i < n; i++) {
        if (!mask_on(m, es, i)) continue;
        uint64_t t = valu_eval(in->imm[OC_MUL] ? VOP_MUL : VOP_ADDRELU, s, lane_get(a, es, i), lane_get(b, es, i), 0);
        lane_set(out, ed, i, lane_cvt(s, d, t, NUM_RND_R, !ek_float(d)));
    }
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* Decoded operands of vexpdif (Instr.imm). */
enum {
    ED_SRC,    /* source ElemKind (f16 or f32) */
    ED_MASK,   /* mask operand index (-1) */
    ED_ODD,    /* part: 0 EVEN, 1 ODD */
};

/* vexpdif: f32 lane j = exp(x[l] - max[l]) with l = j (f32) or 2j + part (f16); the difference is exact in
   double and the exponential is rounded once to f32. */
uint64_t lane_expdif(ElemKind s, uint64_t a, uint64_t mx)
{
    if (s == EK_F32) return lane_expdif_f32((uint32_t)a, f32_val((uint32_t)mx));   /* the same, inline (lane.h) */
    return fenc(EK_F32, exp(fdec(s, a) - fdec(s, mx)));
}

const Instr *valu_x_vexpdif(Exec *x, const Instr *in)
{
    const ElemKind s = (ElemKind)in->imm[ED_SRC];
    const unsigned es = ek_bytes(s);
    const uint8_t *m = in->imm[ED_MASK] >= 0 ? FR(x, in->arg[in->imm[ED_MASK]]) : NULL;
    const uint8_t *a = FR(x, in->arg[0]), *mx = FR(x, in->arg[1]);
    uint8_t out[VREG_BYTES];
    for (unsigned j = 0; j < 64; j++) {
        unsigned l = es == 4 ? j : 2 * j + (unsigned)in->imm[ED_ODD];
        uint64_t r = 0;
        if (mask_on(m, es, l)) r = lane_expdif(s, lane_get(a, es, l), lane_get(mx, es, l));
        lane_set(out, 4, j, r);
    }
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* Decoded operands of vmulscvt (Instr.imm). */
enum {
    MS_DST,    /* result ElemKind (f16 or bf16) */
    MS_MASK,   /* mask operand index (-1) */
    MS_S,      /* scalar operand index */
    MS_RND,    /* NumRound */
    MS_ODD,    /* part: 0 EVEN, 1 ODD */
};

/* vmulscvt: f32 source lane j goes to destination lane 2j + part: the exact product a[j] * scalar (exact in
   double) rounded once to the destination by rnd, without saturation; an inactive source lane gives 0, and
   so does every lane the part does not write. */
static const Instr *x_vmulscvt(Exec *x, const Instr *in)
{
    const ElemKind d = (ElemKind)in->imm[MS_DST];
    const uint8_t *m = in->imm[MS_MASK] >= 0 ? FR(x, in->arg[in->imm[MS_MASK]]) : NULL;
    const uint8_t *a = FR(x, in->arg[0]);
    const double sc = fdec(EK_F32, ARG(x, in, (unsigned)in->imm[MS_S]) & 0xFFFFFFFFu);
    uint8_t out[VREG_BYTES];
    memset(out, 0, sizeof out);
    for (unsigned j = 0; j < 64; j++) {
        if (!mask_on(m, 4, j)) continue;
        double p = fdec(EK_F32, lane_get(a, 4, j)) * sc;
        lane_set(out, 2, 2 * j + (unsigned)in->imm[MS_ODD],
                 num_convert(NUM_F64, num_f64_to_bits(p), ek_fmt(d), (NumRound)in->imm[MS_RND], false));
    }
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ lowering */

int lower_valu_cvt(LowerView *L, const Op *op, Instr *in)
{
    const Value *res = op->nresults ? op->results[0] : NULL;
    switch (op->kind) {
    case OP_VCVT:
        return lower_vcvt(L, op, in);
    case OP_VTRC: {
        ElemKind k = valu_vreg_ek(op->operands[0]);
        if (!ek_arith_float(k)) return valu_bad_type(L, op, "f16, bf16 or f32 elements only", op->operands[0]->type);
        in->imm[TR_EK] = k;
        in->imm[TR_MASK] = valu_operand(L, op, "m");
        in->imm[TR_RND] = lane_rnd(op_token_id(op, "rnd"));
        in->fn = x_vtrc;
        return 0;
    }
    case OP_VCI: {
        ElemKind k = valu_vreg_ek(res);
        if (!(ek_int(k) || ek_arith_float(k)))
            return valu_bad_type(L, op, "integer, f16, bf16 or f32 elements", res ? res->type : NULL);
        in->imm[CI_EK] = k;
        in->imm[CI_DESC] = op_token_id(op, "order") == T_ORDER_DESC;
        in->fn = x_vci;
        return 0;
    }
    case OP_VBITCAST:
        in->fn = x_vbitcast;
        return 0;
    case OP_VADDRELUCONV: case OP_VMULCONV: {
        ElemKind s = valu_vreg_ek(op->operands[0]), d = valu_vreg_ek(res);
        if (!op_cvt(op->kind, s, d))
            return valu_bad_type(L, op, op->kind == OP_VADDRELUCONV ? "f32 -> f16 or f16 -> i8/ui8 only" : "f16 -> i8/ui8 only",
                                 res ? res->type : NULL);
        in->imm[OC_SRC] = s;
        in->imm[OC_DST] = d;
        in->imm[OC_MASK] = valu_operand(L, op, "m");
        in->imm[OC_MUL] = op->kind == OP_VMULCONV;
        in->fn = x_opconv;
        return 0;
    }
    case OP_VEXPDIF: {
        ElemKind s = valu_vreg_ek(op->operands[0]), d = valu_vreg_ek(res);
        if (!(s == EK_F16 || s == EK_F32) || d != EK_F32)
            return valu_bad_type(L, op, "f16 or f32 inputs and an f32 result", op->operands[0]->type);
        in->imm[ED_SRC] = s;
        in->imm[ED_MASK] = valu_operand(L, op, "m");
        in->imm[ED_ODD] = op_token_id(op, "part") == T_PART_ODD;
        in->fn = valu_x_vexpdif;
        ExecFn f = L->ctx->reference ? NULL : valu_vexpdif_fast(s);
        if (f) in->fn = f;
        return 0;
    }
    case OP_VMULSCVT: {
        ElemKind s = valu_vreg_ek(op->operands[0]), d = valu_vreg_ek(res);
        if (!op_cvt(op->kind, s, d))
            return valu_bad_type(L, op, "f32 -> f16 (or bf16) only", res ? res->type : NULL);
        int part = op_token_id(op, "part");
        if (part >= 0 && part != T_PART_EVEN && part != T_PART_ODD) {
            lw_error(L, op, DIAG_V_TOKEN, "pto.vmulscvt takes EVEN or ODD, not %s", tok_spelling(part));
            return -1;
        }
        in->imm[MS_DST] = d;
        in->imm[MS_MASK] = valu_operand(L, op, "m");
        in->imm[MS_S] = valu_operand(L, op, "s");
        in->imm[MS_RND] = lane_rnd(op_token_id(op, "rnd"));
        in->imm[MS_ODD] = part == T_PART_ODD;
        if (in->imm[MS_S] < 0) return valu_bad_type(L, op, "a scalar multiplier", NULL);
        in->fn = x_vmulscvt;
        return 0;
    }
    default:
        return 0;
    }
}

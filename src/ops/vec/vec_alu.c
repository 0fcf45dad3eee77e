/* vec_alu.c — the vector compute families: materialization (vbr, vdup), unary, binary and
 * vector-scalar ops, carry chains, compare and select, the element-wise SFU ops, and vmull. The
 * conversions live in vec_alu_cvt.c, reductions in vec_alu_red.c, the UB-to-UB sorters in
 * vec_alu_sort.c and the tight loops for the common (op, type) pairs in vec_alu_fast.c.
 *
 * Lowering decodes the element kind, tokens and operand positions into Instr.imm and picks a handler;
 * the generic handler evaluates one lane at a time through valu_eval. Every register result is zeroed
 * in inactive lanes (resolutions Q48). The readings are recorded with their evidence in
 * docs/semantics.md §7. */
#include "vec_alu_int.h"
#include <stdio.h>

int lower_vec_alu(LowerView *L, const Op *op, Instr *in);

/* ------------------------------------------------------------------ element kinds */

ElemKind ek_of(const Type *t)
{
    if (!t) return EK_BAD;
    if (t->kind == TY_INT) {
        int u = t->sign == SIGN_U;
        switch (t->bits) {
        case 8: return u ? EK_U8 : EK_S8;
        case 16: return u ? EK_U16 : EK_S16;
        case 32: return u ? EK_U32 : EK_S32;
        case 64: return u ? EK_U64 : EK_S64;
        default: return EK_BAD;
        }
    }
    if (t->kind == TY_FLOAT) {
        switch ((FloatKind)t->fk) {
        case FK_F16: return EK_F16;
        case FK_BF16: return EK_BF16;
        case FK_F32: return EK_F32;
        case FK_E4M3FN: return EK_E4M3;
        case FK_E5M2: return EK_E5M2;
        case FK_HIF8: return EK_HIF8;
        case FK_F4E2M1X2: return EK_F4E2M1;
        case FK_F4E1M2X2: return EK_F4E1M2;
        case FK_E8M0: return EK_E8M0;
        default: return EK_BAD;
        }
    }
    return EK_BAD;
}

const char *ek_name(ElemKind k)
{
    static const char *const n[] = {"si8", "ui8", "si16", "ui16", "si32", "ui32", "si64", "ui64", "f16", "bf16",
                                    "f32", "f8E4M3FN", "f8E5M2", "hif8", "f4E2M1x2", "f4E1M2x2", "f8E8M0", "?"};
    return n[k];
}

ElemKind valu_vreg_ek(const Value *v)
{
    if (!v || !v->type || v->type->kind != TY_VREG) return EK_BAD;
    return ek_of(v->type->elem);
}

int valu_operand(LowerView *L, const Op *op, const char *group) { return lw_group_index(L, op, group, 0); }

int valu_bad_type(LowerView *L, const Op *op, const char *what, const Type *t)
{
    char buf[96] = "?";
    if (t) ty_format(t, buf, sizeof buf);
    lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' does not accept %s (%s)", op_info[op->kind].name, buf, what);
    return -1;
}

/* ------------------------------------------------------------------ exact fused multiply-add */

/* a*b + c rounded once to the element format. a*b is exact in double (at most 48 significant bits,
   far inside the exponent range); the sum is formed exactly as s + e (TwoSum) and rounded to odd in
   double, which a second rounding to any format of at most 51 bits turns into the correctly rounded
   result (round-to-odd needs 53 >= p + 2). */
uint64_t fused_madd(ElemKind k, double a, double b, double c)
{
    double p = a * b;
    if (!isfinite(p) || !isfinite(c)) return fenc(k, p + c);
    double s = p + c;
    double bb = s - p;
    double e = (p - (s - bb)) + (c - bb);
    if (e != 0) {
        uint64_t sb = num_f64_to_bits(s);
        if ((sb & 1) == 0) s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
    }
    return fenc(k, s);
}

/* ------------------------------------------------------------------ element-wise evaluation */

static unsigned popcount64(uint64_t v)
{
    unsigned n = 0;
    while (v) { v &= v - 1; n++; }
    return n;
}

static unsigned bitlen64(uint64_t v)
{
    unsigned n = 0;
    while (v) { v >>= 1; n++; }
    return n;
}

static uint64_t int_eval(ValuOp op, ElemKind k, uint64_t a, uint64_t b, uint64_t c)
{
    const uint64_t M = ek_mask(k);
    const unsigned W = ek_bits(k);
    const bool sg = ek_signed(k);
    const int64_t sa = ek_sext(k, a), sb = ek_sext(k, b);
    /* lanes arrive zero-extended; b may be a shift count wider than the element */
    switch (op) {
    case VOP_ADD: return (a + b) & M;
    case VOP_SUB: return (a - b) & M;
    case VOP_MUL: return (a * b) & M;
    case VOP_MAX: return (sg ? sa > sb : a > b) ? a : b;
    case VOP_MIN: return (sg ? sa < sb : a < b) ? a : b;
    case VOP_AND: return a & b;
    case VOP_OR: return a | b;
    case VOP_XOR: return a ^ b;
    case VOP_SHL: return b >= W ? 0 : (a << b) & M;
    case VOP_SHR:
        if (!sg) return b >= W ? 0 : a >> b;
        if (b >= W) return sa < 0 ? M : 0;
        return (sa < 0 ? ~(~(uint64_t)sa >> b) : (uint64_t)sa >> b) & M;
    case VOP_ABS: return sg && sa < 0 ? (0 - a) & M : a;
    case VOP_NEG: return (0 - a) & M;
    case VOP_RELU: return sg && sa < 0 ? 0 : a;
    case VOP_NOT: return ~a & M;
    case VOP_BCNT: return popcount64(a);
    case VOP_CLS: {
        /* leading bits after the sign bit that equal it (the bit pattern read as signed) */
        int64_t v = ek_sext(k, a);
        uint64_t u = v < 0 ? ~(uint64_t)v : (uint64_t)v;
        return W - bitlen64(u & M) - 1;
    }
    case VOP_MOV: return a;
    case VOP_ADDRELU: { uint64_t r = (a + b) & M; return sg && ek_sext(k, r) < 0 ? 0 : r; }
    case VOP_SUBRELU: { uint64_t r = (a - b) & M; return sg && ek_sext(k, r) < 0 ? 0 : r; }
    case VOP_MULA: return (a + b * c) & M;
    case VOP_MADD: return (a * b + c) & M;
    case VOP_AXPY: return (c * a + b) & M;
    default: return 0;
    }
}

static uint64_t fmaxmin(ElemKind k, uint64_t a, uint64_t b, double x, double y, int want_max)
{
    if (x != x || y != y) return num_canonical_nan(ek_fmt(k));
    if (x > y) return want_max ? a : b;
    if (y > x) return want_max ? b : a;
    /* equal: +0 and -0 are the only distinct encodings; max prefers +0, min -0 */
    int aneg = (a & fsignbit(k)) != 0;
    return want_max ? (aneg ? b : a) : (aneg ? a : b);
}

static uint64_t frelu(ElemKind k, uint64_t r)
{
    double v = fdec(k, r);
    if (v != v) return num_canonical_nan(ek_fmt(k));
    return v > 0 ? r : 0;
}

static uint64_t float_eval(ValuOp op, ElemKind k, uint64_t a, uint64_t b, uint64_t c)
{
    const NumFormat f = ek_fmt(k);
    const uint64_t M = ek_mask(k);
    a &= M;
    b &= M;
    c &= M;
    const double x = fdec(k, a), y = fdec(k, b);
    switch (op) {
    case VOP_ADD: return fenc(k, x + y);
    case VOP_SUB: return fenc(k, x - y);
    case VOP_MUL: return fenc(k, x * y);
    case VOP_DIV: return fenc(k, x / y);
    case VOP_MAX: return fmaxmin(k, a, b, x, y, 1);
    case VOP_MIN: return fmaxmin(k, a, b, x, y, 0);
    case VOP_AND: return a & b;
    case VOP_OR: return a | b;
    case VOP_XOR: return a ^ b;
    case VOP_ABS: return a & ~fsignbit(k);
    case VOP_NEG: return a ^ fsignbit(k);
    case VOP_EXP: return fenc(k, exp(x));
    case VOP_LN: return fenc(k, log(x));
    case VOP_SQRT: return fenc(k, sqrt(x));
    case VOP_RSQRT: return fenc(k, 1.0 / sqrt(x));
    case VOP_REC: return fenc(k, 1.0 / x);
    case VOP_RELU: return frelu(k, a);
    case VOP_MOV: return a;
    case VOP_LRELU: case VOP_PRELU:
        if (x != x) return num_canonical_nan(f);
        return x >= 0 ? a : fenc(k, y * x);
    case VOP_ADDRELU: return frelu(k, fenc(k, x + y));
    case VOP_SUBRELU: return frelu(k, fenc(k, x - y));
    case VOP_MULA: return fused_madd(k, y, fdec(k, c), x);     /* acc + a*b */
    case VOP_MADD: return fused_madd(k, x, y, fdec(k, c));     /* acc*a + b */
    case VOP_AXPY: return fused_madd(k, fdec(k, c), x, y);     /* alpha*a + b */
    default: return 0;
    }
}

uint64_t valu_eval(ValuOp op, ElemKind k, uint64_t a, uint64_t b, uint64_t c)
{
    return ek_int(k) ? int_eval(op, k, a, b, c) : float_eval(op, k, a, b, c);
}

/* ------------------------------------------------------------------ generic element-wise handler */

/* imm: 0 ValuOp, 1 ElemKind, 2 mask operand (-1 = all active), 3/4/5 vector operands a, b, c (-1 =
   absent), 6 scalar operand (-1), 7 = scalar slot (1 = b, 2 = c) | scalar width mask bits << 8. */
const Instr *valu_x_ew(Exec *x, const Instr *in)
{
    const ValuOp op = (ValuOp)in->imm[0];
    const ElemKind k = (ElemKind)in->imm[1];
    const unsigned e = ek_bytes(k), n = VREG_BYTES / e;
    const uint8_t *m = in->imm[2] >= 0 ? FR(x, in->arg[in->imm[2]]) : NULL;
    const uint8_t *a = FR(x, in->arg[in->imm[3]]);
    const uint8_t *b = in->imm[4] >= 0 ? FR(x, in->arg[in->imm[4]]) : NULL;
    const uint8_t *c = in->imm[5] >= 0 ? FR(x, in->arg[in->imm[5]]) : NULL;
    uint64_t s = 0;
    int slot = (int)(in->imm[7] & 0xff);
    if (in->imm[6] >= 0) {
        unsigned sw = (unsigned)(in->imm[7] >> 8);
        s = ARG(x, in, (unsigned)in->imm[6]);
        if (sw < 64) s &= (1ull << sw) - 1;
    }
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) {
        uint64_t r = 0;
        if (mask_on(m, e, i)) {
            uint64_t va = lane_get(a, e, i);
            uint64_t vb = b ? lane_get(b, e, i) : slot == 1 ? s : 0;
            uint64_t vc = c ? lane_get(c, e, i) : slot == 2 ? s : 0;
            r = valu_eval(op, k, va, vb, vc);
        }
        lane_set(out, e, i, r);
    }
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ materialization */

/* vbr: imm0 = element bytes. The scalar's low bits fill every lane. */
static const Instr *x_vbr(Exec *x, const Instr *in)
{
    unsigned e = (unsigned)in->imm[0], n = VREG_BYTES / e;
    uint64_t s = ARG(x, in, 0);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) lane_set(out, e, i, s);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* vdup: imm0 = element bytes, imm1 = mask operand (-1), imm2 = source lane for a vreg operand (-1 =
   scalar operand). */
static const Instr *x_vdup(Exec *x, const Instr *in)
{
    unsigned e = (unsigned)in->imm[0], n = VREG_BYTES / e;
    const uint8_t *m = in->imm[1] >= 0 ? FR(x, in->arg[in->imm[1]]) : NULL;
    uint64_t s = in->imm[2] >= 0 ? lane_get(FR(x, in->arg[0]), e, (unsigned)in->imm[2]) : ARG(x, in, 0);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) lane_set(out, e, i, mask_on(m, e, i) ? s : 0);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ carry chains (Q29) */

enum { CY_ADDC, CY_SUBC, CY_ADDCS, CY_SUBCS };

/* imm: 0 kind, 1 ElemKind (32-bit), 2 mask operand (-1), 3 carry-in operand (-1). Results: r, c. */
static const Instr *x_carry(Exec *x, const Instr *in)
{
    const int kind = (int)in->imm[0];
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]);
    const uint8_t *m = in->imm[2] >= 0 ? FR(x, in->arg[in->imm[2]]) : NULL;
    const uint8_t *ci = in->imm[3] >= 0 ? FR(x, in->arg[in->imm[3]]) : NULL;
    uint8_t out[VREG_BYTES], cy[MASK_BYTES];
    memset(cy, 0, sizeof cy);
    for (unsigned i = 0; i < 64; i++) {
        uint64_t r = 0;
        if (mask_on(m, 4, i)) {
            uint64_t va = lane_get(a, 4, i), vb = lane_get(b, 4, i);
            uint64_t cin = ci ? (uint64_t)mask_on(ci, 4, i) : 0;
            int cout;
            switch (kind) {
            case CY_ADDC: case CY_ADDCS: {
                uint64_t s = va + vb + (kind == CY_ADDCS ? cin : 0);
                r = s & 0xFFFFFFFFu;
                cout = (int)(s >> 32);
                break;
            }
            default: {
                /* carry = no borrow; vsubcs subtracts the borrow-in 1 - cin */
                uint64_t bin = kind == CY_SUBCS ? 1 - cin : 0;
                r = (va - vb - bin) & 0xFFFFFFFFu;
                cout = va >= vb + bin;
                break;
            }
            }
            if (cout) mask_set(cy, 4, i);
        }
        lane_set(out, 4, i, r);
    }
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    memcpy(FR(x, in->res[1]), cy, MASK_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ compare and select */

/* imm: 0 CMP token, 1 ElemKind, 2 seed operand, 3 b vector operand (-1), 4 scalar operand (-1). */
static int cmp_lane(int tok, ElemKind k, uint64_t a, uint64_t b)
{
    int lt, eq, un = 0;
    if (ek_int(k)) {
        if (ek_signed(k)) {
            int64_t sa = ek_sext(k, a), sb = ek_sext(k, b);
            lt = sa < sb;
            eq = sa == sb;
        } else {
            lt = a < b;
            eq = a == b;
        }
    } else {
        double x = fdec(k, a), y = fdec(k, b);
        un = x != x || y != y;
        lt = x < y;
        eq = x == y;
    }
    switch (tok) {
    case T_CMP_EQ: return !un && eq;
    case T_CMP_NE: return un || !eq;
    case T_CMP_LT: return !un && lt;
    case T_CMP_LE: return !un && (lt || eq);
    case T_CMP_GT: return !un && !lt && !eq;
    case T_CMP_GE: return !un && !lt;
    default: return 0;
    }
}

static const Instr *x_cmp(Exec *x, const Instr *in)
{
    const int tok = (int)in->imm[0];
    const ElemKind k = (ElemKind)in->imm[1];
    const unsigned e = ek_bytes(k), n = VREG_BYTES / e;
    const uint8_t *a = FR(x, in->arg[0]);
    const uint8_t *seed = FR(x, in->arg[in->imm[2]]);
    const uint8_t *b = in->imm[3] >= 0 ? FR(x, in->arg[in->imm[3]]) : NULL;
    uint64_t s = in->imm[4] >= 0 ? ARG(x, in, (unsigned)in->imm[4]) & ek_mask(k) : 0;
    uint8_t out[MASK_BYTES];
    memset(out, 0, sizeof out);
    for (unsigned i = 0; i < n; i++)
        if (mask_on(seed, e, i) && cmp_lane(tok, k, lane_get(a, e, i), b ? lane_get(b, e, i) : s)) mask_set(out, e, i);
    memcpy(FR(x, in->res[0]), out, MASK_BYTES);
    return valu_done(x, in);
}

/* vsel: imm0 = element bytes. r = m ? a : b */
static const Instr *x_vsel(Exec *x, const Instr *in)
{
    unsigned e = (unsigned)in->imm[0], n = VREG_BYTES / e;
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]), *m = FR(x, in->arg[2]);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) memcpy(out + i * e, (mask_on(m, e, i) ? a : b) + i * e, e);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* vselr: imm0 = element bytes. r[i] = a[idx[i] mod N] (Q33), the index read as unsigned. */
static const Instr *x_vselr(Exec *x, const Instr *in)
{
    unsigned e = (unsigned)in->imm[0], n = VREG_BYTES / e;
    const uint8_t *a = FR(x, in->arg[0]), *idx = FR(x, in->arg[1]);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) memcpy(out + i * e, a + (lane_get(idx, e, i) % n) * e, e);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ vmull (Q31) */

/* imm: 0 ElemKind (32-bit), 1 mask operand (-1). Results lo, hi of the full 64-bit product. */
static const Instr *x_vmull(Exec *x, const Instr *in)
{
    const ElemKind k = (ElemKind)in->imm[0];
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]);
    const uint8_t *m = in->imm[1] >= 0 ? FR(x, in->arg[in->imm[1]]) : NULL;
    uint8_t lo[VREG_BYTES], hi[VREG_BYTES];
    for (unsigned i = 0; i < 64; i++) {
        uint64_t p = 0;
        if (mask_on(m, 4, i)) {
            uint64_t va = lane_get(a, 4, i), vb = lane_get(b, 4, i);
            if (ek_signed(k)) p = (uint64_t)(ek_sext(k, va) * ek_sext(k, vb));
            else p = va * vb;
        }
        lane_set(lo, 4, i, p);
        lane_set(hi, 4, i, p >> 32);
    }
    memcpy(FR(x, in->res[0]), lo, VREG_BYTES);
    memcpy(FR(x, in->res[1]), hi, VREG_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ lowering */

/* Accepted element kinds of an element-wise op. */
enum { TA_NONE, TA_INT, TA_FLOAT, TA_NUM, TA_ANY };

typedef struct EwRule {
    uint8_t vop;
    uint8_t acc;
    const char *a, *b, *c;     /* vector operand groups */
    const char *s;             /* scalar operand group */
    uint8_t slot;              /* the scalar fills b (1) or c (2) */
} EwRule;

#define UN(v, t) {v, t, "a", NULL, NULL, NULL, 0}
#define BIN(v, t) {v, t, "a", "b", NULL, NULL, 0}
#define SCAL(v, t) {v, t, "a", NULL, NULL, "s", 1}
static const EwRule ew_rules[OP__COUNT] = {
    [OP_VABS] = UN(VOP_ABS, TA_NUM), [OP_VNEG] = UN(VOP_NEG, TA_NUM), [OP_VEXP] = UN(VOP_EXP, TA_FLOAT),
    [OP_VLN] = UN(VOP_LN, TA_FLOAT), [OP_VSQRT] = UN(VOP_SQRT, TA_FLOAT), [OP_VRSQRT] = UN(VOP_RSQRT, TA_FLOAT),
    [OP_VREC] = UN(VOP_REC, TA_FLOAT), [OP_VRELU] = UN(VOP_RELU, TA_NUM), [OP_VNOT] = UN(VOP_NOT, TA_INT),
    [OP_VBCNT] = UN(VOP_BCNT, TA_INT), [OP_VCLS] = UN(VOP_CLS, TA_INT), [OP_VMOV] = UN(VOP_MOV, TA_ANY),
    [OP_VADD] = BIN(VOP_ADD, TA_NUM), [OP_VSUB] = BIN(VOP_SUB, TA_NUM), [OP_VMUL] = BIN(VOP_MUL, TA_NUM),
    [OP_VDIV] = BIN(VOP_DIV, TA_FLOAT), [OP_VMAX] = BIN(VOP_MAX, TA_NUM), [OP_VMIN] = BIN(VOP_MIN, TA_NUM),
    [OP_VAND] = BIN(VOP_AND, TA_ANY), [OP_VOR] = BIN(VOP_OR, TA_ANY), [OP_VXOR] = BIN(VOP_XOR, TA_ANY),
    [OP_VSHL] = BIN(VOP_SHL, TA_INT), [OP_VSHR] = BIN(VOP_SHR, TA_INT),
    [OP_VMADD] = {VOP_MADD, TA_FLOAT, "acc", "a", "b", NULL, 0},
    [OP_VADDS] = SCAL(VOP_ADD, TA_NUM), [OP_VSUBS] = SCAL(VOP_SUB, TA_NUM), [OP_VMULS] = SCAL(VOP_MUL, TA_NUM),
    [OP_VMAXS] = SCAL(VOP_MAX, TA_NUM), [OP_VMINS] = SCAL(VOP_MIN, TA_NUM), [OP_VANDS] = SCAL(VOP_AND, TA_INT),
    [OP_VORS] = SCAL(VOP_OR, TA_INT), [OP_VXORS] = SCAL(VOP_XOR, TA_INT), [OP_VSHLS] = SCAL(VOP_SHL, TA_INT),
    [OP_VSHRS] = SCAL(VOP_SHR, TA_INT), [OP_VLRELU] = SCAL(VOP_LRELU, TA_FLOAT),
    [OP_VADDRELU] = BIN(VOP_ADDRELU, TA_NUM), [OP_VSUBRELU] = BIN(VOP_SUBRELU, TA_NUM),
    [OP_VAXPY] = {VOP_AXPY, TA_FLOAT, "a", "b", NULL, "alpha", 2},
    [OP_VPRELU] = {VOP_PRELU, TA_FLOAT, "a", "alpha", NULL, NULL, 0},
    [OP_VMULA] = {VOP_MULA, TA_NUM, "acc", "a", "b", NULL, 0},
};
#undef UN
#undef BIN
#undef SCAL

static int accepts(int acc, ElemKind k)
{
    switch (acc) {
    case TA_INT: return ek_int(k);
    case TA_FLOAT: return ek_arith_float(k);
    case TA_NUM: return ek_int(k) || ek_arith_float(k);
    case TA_ANY: return k != EK_BAD;
    default: return 0;
    }
}

static int lower_ew(LowerView *L, const Op *op, Instr *in, const EwRule *r)
{
    int ia = valu_operand(L, op, r->a);
    if (ia < 0 || !op->nresults) return 0;
    ElemKind k = valu_vreg_ek(op->operands[ia]);
    if (!accepts(r->acc, k)) {
        const char *what = r->acc == TA_INT ? "integer elements only" : r->acc == TA_FLOAT ? "f16, bf16 or f32 elements only"
                                                                                            : "integer, f16, bf16 or f32 elements";
        return valu_bad_type(L, op, what, op->operands[ia]->type);
    }
    in->imm[0] = r->vop;
    in->imm[1] = k;
    in->imm[2] = valu_operand(L, op, "m");
    in->imm[3] = ia;
    in->imm[4] = r->b ? valu_operand(L, op, r->b) : -1;
    in->imm[5] = r->c ? valu_operand(L, op, r->c) : -1;
    in->imm[6] = r->s ? valu_operand(L, op, r->s) : -1;
    in->imm[7] = 0;
    if (in->imm[6] >= 0) {
        /* shift counts are the scalar's unsigned value at its own width (i16 or the element width);
           other scalars are the element's bits */
        unsigned sw = (r->vop == VOP_SHL || r->vop == VOP_SHR) ? ty_bits(op->operands[in->imm[6]]->type) : ek_bits(k);
        in->imm[7] = r->slot | (int64_t)sw << 8;
    }
    in->fn = valu_x_ew;
    /* a constant all-lanes mask (pset PAT_ALL) selects the unmasked handler */
    bool masked = in->imm[2] >= 0 && !pred_all_active(op->operands[in->imm[2]], ek_bytes(k));
    ExecFn f = valu_fast(r->vop, k, masked, in->imm[6] >= 0);
    if (f && in->imm[5] < 0) in->fn = f;
    return 0;
}

static int lower_carry(LowerView *L, const Op *op, Instr *in)
{
    ElemKind k = valu_vreg_ek(op->operands[0]);
    if (ek_bytes(k) != 4 || !ek_int(k)) return valu_bad_type(L, op, "32-bit integer elements only", op->operands[0]->type);
    in->imm[0] = op->kind == OP_VADDC ? CY_ADDC : op->kind == OP_VSUBC ? CY_SUBC : op->kind == OP_VADDCS ? CY_ADDCS : CY_SUBCS;
    in->imm[1] = k;
    in->imm[2] = valu_operand(L, op, "m");
    in->imm[3] = valu_operand(L, op, "cin");
    in->fn = x_carry;
    return 0;
}

static int lower_cmp(LowerView *L, const Op *op, Instr *in)
{
    ElemKind k = valu_vreg_ek(op->operands[0]);
    if (!(ek_int(k) || ek_arith_float(k)))
        return valu_bad_type(L, op, "integer, f16, bf16 or f32 elements", op->operands[0]->type);
    in->imm[0] = op_token_id(op, "cmp");
    in->imm[1] = k;
    in->imm[2] = valu_operand(L, op, "seed");
    in->imm[3] = valu_operand(L, op, "b");
    in->imm[4] = valu_operand(L, op, "s");
    if (in->imm[0] < 0 || in->imm[2] < 0) return 0;
    in->fn = x_cmp;
    return 0;
}

static int lower_mat(LowerView *L, const Op *op, Instr *in)
{
    const Value *r = op->nresults ? op->results[0] : NULL;
    ElemKind k = valu_vreg_ek(r);
    if (k == EK_BAD) return valu_bad_type(L, op, "a vector result", r ? r->type : NULL);
    in->imm[0] = ek_bytes(k);
    if (op->kind == OP_VBR) {
        in->fn = x_vbr;
        return 0;
    }
    in->imm[1] = valu_operand(L, op, "m");
    in->imm[2] = -1;
    if (op->noperands && op->operands[0]->type->kind == TY_VREG) {
        if (ek_bytes(valu_vreg_ek(op->operands[0])) != ek_bytes(k))
            return valu_bad_type(L, op, "a source vector of the result's element width", op->operands[0]->type);
        in->imm[2] = op_token_id(op, "position") == T_POS_HIGHEST ? ek_lanes(k) - 1 : 0;
    }
    in->fn = x_vdup;
    return 0;
}

int lower_vec_alu(LowerView *L, const Op *op, Instr *in)
{
    if (op_info[op->kind].flags & F_NOSIM) return 0;   /* stays "not simulated" */
    if (ew_rules[op->kind].acc != TA_NONE) return lower_ew(L, op, in, &ew_rules[op->kind]);
    switch (op->kind) {
    case OP_VBR: case OP_VDUP:
        return lower_mat(L, op, in);
    case OP_VADDC: case OP_VSUBC: case OP_VADDCS: case OP_VSUBCS:
        return lower_carry(L, op, in);
    case OP_VCMP: case OP_VCMPS:
        return lower_cmp(L, op, in);
    case OP_VSEL: case OP_VSELR: {
        ElemKind k = valu_vreg_ek(op->operands[0]);
        if (k == EK_BAD) return valu_bad_type(L, op, "vector operands", op->operands[0]->type);
        in->imm[0] = ek_bytes(k);
        in->fn = op->kind == OP_VSEL ? x_vsel : x_vselr;
        return 0;
    }
    case OP_VMULL: {
        ElemKind k = valu_vreg_ek(op->operands[0]);
        if (ek_bytes(k) != 4 || !ek_int(k)) return valu_bad_type(L, op, "32-bit integer elements only", op->operands[0]->type);
        in->imm[0] = k;
        in->imm[1] = valu_operand(L, op, "m");
        in->fn = x_vmull;
        return 0;
    }
    case OP_VCVT: case OP_VTRC: case OP_VCI: case OP_VBITCAST: case OP_VADDRELUCONV: case OP_VMULCONV: case OP_VEXPDIF:
    case OP_VMULSCVT:
        return lower_valu_cvt(L, op, in);
    case OP_VCADD: case OP_VCMAX: case OP_VCMIN: case OP_VCGADD: case OP_VCGMAX: case OP_VCGMIN: case OP_VCPADD:
        return lower_valu_red(L, op, in);
    case OP_VBITSORT: case OP_VMRGSORT4: case OP_VTRANSPOSE: case OP_GET_VMS4_SR:
        return lower_valu_sort(L, op, in);
    default:
        return 0;
    }
}

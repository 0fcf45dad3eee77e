/* vec_alu_eval.c — the element-wise engine every vector compute file shares: one active lane of an
 * (operation, element kind) evaluated exactly (valu_eval), the generic element-wise handler built on it
 * (valu_x_ew, also the reference the fast handlers are checked against), and the lowering helpers
 * (operand lookup, element kind of a vreg operand, the "element type not accepted" error).
 * The readings are recorded with their evidence in docs/semantics.md §7. */
#include "vec_alu_int.h"

ElemKind valu_vreg_ek(const Value *v)
{
    if (!v || !v->type || v->type->kind != TY_VREG) return EK_BAD;
    return elem_kind(v->type->elem);
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
    case VOP_DIV:
        /* signed/signless i16 and i32 (the compiler's soft lowering, docs/semantics.md §12): rounded toward zero,
           MIN / -1 wraps to MIN, a zero divisor gives -1 */
        if (!sb) return M;
        if (sb == -1) return (0 - a) & M;
        return (uint64_t)(sa / sb) & M;
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

/* The generic element-wise handler; its operands are the EW_* slots of Instr.imm (vec_alu_int.h). */
const Instr *valu_x_ew(Exec *x, const Instr *in)
{
    const ValuOp op = (ValuOp)in->imm[EW_OP];
    const ElemKind k = (ElemKind)in->imm[EW_EK];
    const unsigned e = ek_bytes(k), n = VREG_BYTES / e;
    const uint8_t *m = in->imm[EW_MASK] >= 0 ? FR(x, in->arg[in->imm[EW_MASK]]) : NULL;
    const uint8_t *a = FR(x, in->arg[in->imm[EW_A]]);
    const uint8_t *b = in->imm[EW_B] >= 0 ? FR(x, in->arg[in->imm[EW_B]]) : NULL;
    const uint8_t *c = in->imm[EW_C] >= 0 ? FR(x, in->arg[in->imm[EW_C]]) : NULL;
    uint64_t s = 0;
    int slot = (int)(in->imm[EW_S_USE] & 0xff);
    if (in->imm[EW_S] >= 0) {
        unsigned sw = (unsigned)(in->imm[EW_S_USE] >> 8);
        s = ARG(x, in, (unsigned)in->imm[EW_S]);
        if (sw < 64) s &= (1ull << sw) - 1;
    }
    uint8_t out[VREG_BYTES];
    if (k == EK_F32 && !b && !c && slot == 0) {
        /* one-operand f32 math (vexp, vln, vsqrt, ...): the same evaluation, with the operation and the
           element kind constant through the loop */
        for (unsigned i = 0; i < 64; i++) {
            uint32_t r = 0, va;
            memcpy(&va, a + 4 * i, 4);
            if (mask_on(m, 4, i)) r = (uint32_t)float_eval(op, EK_F32, va, 0, 0);
            memcpy(out + 4 * i, &r, 4);
        }
        memcpy(FR(x, in->res[0]), out, VREG_BYTES);
        return valu_done(x, in);
    }
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

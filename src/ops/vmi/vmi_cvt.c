/* vmi_cvt.c — VMI conversions: the unified vcvt (and the compiler's earlier per-direction spellings extf,
 * truncf, fptosi, fptoui, sitofp, extsi, extui, trunci), whose lanes are the micro vcvt's lane function
 * lane_cvt, and vinterpret_cast / bitcast (same bits, another lane view). A conversion keeps the lane count;
 * the packed kinds convert each of their two halves (bf16x2 <-> f4x2: docs/vmi.md "Conversions"). */
#include "vmi_int.h"

/* The result of converting lane i. */
static uint64_t cvt_lane(const VmiX *v, const uint8_t *a, uint32_t i)
{
    const ElemKind s = (ElemKind)v->k, d = (ElemKind)v->k2;
    const NumRound rm = (NumRound)v->rnd;
    if (v->sub == 1) {   /* bf16x2 -> f4x2: the low bf16 to the low nibble, the high bf16 to the high nibble */
        uint64_t w = lane_get(a, 4, i);
        uint64_t lo = lane_cvt(EK_BF16, d, w & 0xFFFF, rm, v->sat) & 0xF;
        uint64_t hi = lane_cvt(EK_BF16, d, w >> 16, rm, v->sat) & 0xF;
        return lo | hi << 4;
    }
    if (v->sub == 2) {   /* f4x2 -> bf16x2 */
        uint64_t b = a[i];
        uint64_t lo = lane_cvt(s, EK_BF16, b & 0xF, rm, v->sat), hi = lane_cvt(s, EK_BF16, b >> 4, rm, v->sat);
        return lo | hi << 16;
    }
    return lane_cvt(s, d, lane_get(a, v->e, i), rm, v->sat);
}

static const Instr *x_cvt(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    static _Thread_local uint8_t out[VMI_MAX_BYTES];
    const uint8_t *a = vx_op(x, in, v->a);
    memset(out, 0, (size_t)v->K2 * VREG_BYTES);
    if (!v->sub) lane_cvt_run((ElemKind)v->k, (ElemKind)v->k2, out, a, v->L, (NumRound)v->rnd, v->sat);
    else
        for (uint32_t i = 0; i < v->L; i++) lane_set(out, v->e2, i, cvt_lane(v, a, i));
    memcpy(FR(x, in->res[0]), out, (size_t)v->K2 * VREG_BYTES);
    return vx_done(x, in, v->K > v->K2 ? v->K : v->K2);
}

/* vinterpret_cast: the same bytes (the result's slot may be smaller or larger only in padding). */
static const Instr *x_cast(Exec *x, const Instr *in)
{
    const VmiX *v = VX(in);
    uint32_t n = (v->K < v->K2 ? v->K : v->K2) * VREG_BYTES;
    memmove(FR(x, in->res[0]), vx_op(x, in, v->a), n);
    if (v->K2 > v->K) memset(FR(x, in->res[0]) + n, 0, (size_t)(v->K2 - v->K) * VREG_BYTES);
    return vx_done(x, in, 0);
}

int vmi_lower_cvt(LowerView *L, const Op *op, Instr *in, VmiX *x)
{
    x->a = (int8_t)vmi_operand(L, op, "a");
    const Type *st = op->operands[0]->type, *rt = op->results[0]->type;
    if (op->kind == OP_VMI_VINTERPRET_CAST || op->kind == OP_VMI_BITCAST) {
        in->fn = x_cast;
        return 0;
    }
    const Type *se = st->elem, *de = rt->elem;
    int sbf2 = se->kind == TY_FLOAT && se->fk == FK_BF16X2, dbf2 = de->kind == TY_FLOAT && de->fk == FK_BF16X2;
    ElemKind s = vmi_kind(se), d = vmi_kind(de);
    /* the earlier spellings say the signedness in the op name */
    if (op->kind == OP_VMI_EXTSI || op->kind == OP_VMI_SITOFP) s = elem_kind(se);
    if (op->kind == OP_VMI_FPTOSI) d = elem_kind(de);
    if (sbf2 && (d == EK_F4E2M1 || d == EK_F4E1M2)) {
        x->sub = 1;
        s = EK_BF16;
    } else if (dbf2 && (s == EK_F4E2M1 || s == EK_F4E1M2)) {
        x->sub = 2;
        d = EK_BF16;
    } else if (sbf2 || dbf2 || s == EK_BAD || d == EK_BAD) {
        return vmi_bad_type(L, op, "a supported conversion", sbf2 || s == EK_BAD ? st : rt);
    }
    x->k = (uint8_t)s;
    x->k2 = (uint8_t)d;
    int rt_tok = op_token_id(op, "rounding");
    /* default rounding: nearest-even, hif8 away from zero (the compiler's defaults) */
    x->rnd = (uint8_t)(rt_tok == T_VRND_H ? NUM_RND_A
                       : rt_tok >= 0 ? lane_rnd(T_RND_R + (rt_tok - T_VRND_R))
                       : d == EK_HIF8 ? NUM_RND_A : NUM_RND_R);
    x->sat = op_token_id(op, "saturate") == T_SAT_SAT;
    in->fn = x_cvt;
    return 0;
}

/* vec_alu.c — the vector compute families: materialization (vbr, vdup), unary, binary and
 * vector-scalar ops, carry chains, compare and select, the element-wise SFU ops, and vmull. The
 * per-lane evaluation they share is vec_alu_eval.c; the conversions live in vec_alu_cvt.c, reductions
 * in vec_alu_red.c, the UB-to-UB sorters in vec_alu_sort.c and the tight loops for the common
 * (op, type) pairs in vec_alu_fast.c.
 *
 * Lowering decodes the element kind, tokens and operand positions into Instr.imm and picks a handler;
 * the generic handler evaluates one lane at a time through valu_eval. Every register result is zeroed
 * in inactive lanes (resolutions Q48). The readings are recorded with their evidence in
 * docs/semantics.md §7. */
#include "vec_alu_int.h"
#include <stdio.h>

int lower_vec_alu(LowerView *L, const Op *op, Instr *in);

/* ------------------------------------------------------------------ materialization */

/* vbr: the scalar's low bits fill every lane. */
static const Instr *x_vbr(Exec *x, const Instr *in)
{
    unsigned e = (unsigned)in->imm[MT_E], n = VREG_BYTES / e;
    uint64_t s = ARG(x, in, 0);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) lane_set(out, e, i, s);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

const Instr *valu_x_vdup(Exec *x, const Instr *in)
{
    unsigned e = (unsigned)in->imm[MT_E], n = VREG_BYTES / e;
    const uint8_t *m = in->imm[MT_MASK] >= 0 ? FR(x, in->arg[in->imm[MT_MASK]]) : NULL;
    uint64_t s = in->imm[MT_LANE] >= 0 ? lane_get(FR(x, in->arg[0]), e, (unsigned)in->imm[MT_LANE]) : ARG(x, in, 0);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) lane_set(out, e, i, mask_on(m, e, i) ? s : 0);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ carry chains (Q29) */

enum { CY_ADDC, CY_SUBC, CY_ADDCS, CY_SUBCS };

/* Decoded operands of the carry chains (Instr.imm). */
enum {
    CA_KIND,   /* CY_* */
    CA_EK,     /* ElemKind (32-bit) */
    CA_MASK,   /* mask operand index (-1) */
    CA_CIN,    /* carry-in operand index (-1) */
};

/* vaddc/vsubc/vaddcs/vsubcs: results r and the carry mask c. */
static const Instr *x_carry(Exec *x, const Instr *in)
{
    const int kind = (int)in->imm[CA_KIND];
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]);
    const uint8_t *m = in->imm[CA_MASK] >= 0 ? FR(x, in->arg[in->imm[CA_MASK]]) : NULL;
    const uint8_t *ci = in->imm[CA_CIN] >= 0 ? FR(x, in->arg[in->imm[CA_CIN]]) : NULL;
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

int lane_cmp(int tok, ElemKind k, uint64_t a, uint64_t b)
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

/* Decoded operands of vcmp/vcmps (Instr.imm). */
enum {
    CM_TOK,    /* CMP token */
    CM_EK,     /* ElemKind */
    CM_SEED,   /* seed mask operand index */
    CM_B,      /* vector operand index of b (-1) */
    CM_S,      /* scalar operand index (-1) */
};

static const Instr *x_cmp(Exec *x, const Instr *in)
{
    const int tok = (int)in->imm[CM_TOK];
    const ElemKind k = (ElemKind)in->imm[CM_EK];
    const unsigned e = ek_bytes(k), n = VREG_BYTES / e;
    const uint8_t *a = FR(x, in->arg[0]);
    const uint8_t *seed = FR(x, in->arg[in->imm[CM_SEED]]);
    const uint8_t *b = in->imm[CM_B] >= 0 ? FR(x, in->arg[in->imm[CM_B]]) : NULL;
    uint64_t s = in->imm[CM_S] >= 0 ? ARG(x, in, (unsigned)in->imm[CM_S]) & ek_mask(k) : 0;
    uint8_t out[MASK_BYTES];
    memset(out, 0, sizeof out);
    for (unsigned i = 0; i < n; i++)
        if (mask_on(seed, e, i) && lane_cmp(tok, k, lane_get(a, e, i), b ? lane_get(b, e, i) : s)) mask_set(out, e, i);
    memcpy(FR(x, in->res[0]), out, MASK_BYTES);
    return valu_done(x, in);
}

enum { SL_E };   /* Instr.imm of vsel/vselr: element bytes */

/* vsel: r = m ? a : b */
static const Instr *x_vsel(Exec *x, const Instr *in)
{
    unsigned e = (unsigned)in->imm[SL_E], n = VREG_BYTES / e;
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]), *m = FR(x, in->arg[2]);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) memcpy(out + i * e, (mask_on(m, e, i) ? a : b) + i * e, e);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* vselr: r[i] = a[idx[i] mod N] (Q33), the index read as unsigned. */
static const Instr *x_vselr(Exec *x, const Instr *in)
{
    unsigned e = (unsigned)in->imm[SL_E], n = VREG_BYTES / e;
    const uint8_t *a = FR(x, in->arg[0]), *idx = FR(x, in->arg[1]);
    uint8_t out[VREG_BYTES];
    for (unsigned i = 0; i < n; i++) memcpy(out + i * e, a + (lane_get(idx, e, i) % n) * e, e);
    memcpy(FR(x, in->res[0]), out, VREG_BYTES);
    return valu_done(x, in);
}

/* ------------------------------------------------------------------ vmull (Q31) */

/* Decoded operands of vmull (Instr.imm). */
enum {
    ML_EK,     /* ElemKind (32-bit) */
    ML_MASK,   /* mask operand index (-1) */
};

/* Results lo, hi of the full 64-bit product. */
static const Instr *x_vmull(Exec *x, const Instr *in)
{
    const ElemKind k = (ElemKind)in->imm[ML_EK];
    const uint8_t *a = FR(x, in->arg[0]), *b = FR(x, in->arg[1]);
    const uint8_t *m = in->imm[ML_MASK] >= 0 ? FR(x, in->arg[in->imm[ML_MASK]]) : NULL;
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

/* An element-wise op: its lane computation (VOP_) and operand groups. The element kinds it accepts are the op
   table's TYPES row (isa | sim), the set the verifier admits. */
typedef struct EwRule {
    uint8_t vop;
    const char *a, *b, *c;     /* vector operand groups (a == NULL: not element-wise) */
    const char *s;             /* scalar operand group */
    uint8_t slot;              /* the scalar fills b (1) or c (2) */
} EwRule;

#define UN(v) {v, "a", NULL, NULL, NULL, 0}
#define BIN(v) {v, "a", "b", NULL, NULL, 0}
#define SCAL(v) {v, "a", NULL, NULL, "s", 1}
static const EwRule ew_rules[OP__COUNT] = {
    [OP_VABS] = UN(VOP_ABS), [OP_VNEG] = UN(VOP_NEG), [OP_VEXP] = UN(VOP_EXP), [OP_VLN] = UN(VOP_LN),
    [OP_VSQRT] = UN(VOP_SQRT), [OP_VRSQRT] = UN(VOP_RSQRT), [OP_VREC] = UN(VOP_REC), [OP_VRELU] = UN(VOP_RELU),
    [OP_VNOT] = UN(VOP_NOT), [OP_VBCNT] = UN(VOP_BCNT), [OP_VCLS] = UN(VOP_CLS), [OP_VMOV] = UN(VOP_MOV),
    [OP_VADD] = BIN(VOP_ADD), [OP_VSUB] = BIN(VOP_SUB), [OP_VMUL] = BIN(VOP_MUL), [OP_VDIV] = BIN(VOP_DIV),
    [OP_VMAX] = BIN(VOP_MAX), [OP_VMIN] = BIN(VOP_MIN), [OP_VAND] = BIN(VOP_AND), [OP_VOR] = BIN(VOP_OR),
    [OP_VXOR] = BIN(VOP_XOR), [OP_VSHL] = BIN(VOP_SHL), [OP_VSHR] = BIN(VOP_SHR),
    [OP_VMADD] = {VOP_MADD, "acc", "a", "b", NULL, 0},
    [OP_VADDS] = SCAL(VOP_ADD), [OP_VSUBS] = SCAL(VOP_SUB), [OP_VMULS] = SCAL(VOP_MUL), [OP_VMAXS] = SCAL(VOP_MAX),
    [OP_VMINS] = SCAL(VOP_MIN), [OP_VANDS] = SCAL(VOP_AND), [OP_VORS] = SCAL(VOP_OR), [OP_VXORS] = SCAL(VOP_XOR),
    [OP_VSHLS] = SCAL(VOP_SHL), [OP_VSHRS] = SCAL(VOP_SHR), [OP_VLRELU] = SCAL(VOP_LRELU),
    [OP_VADDRELU] = BIN(VOP_ADDRELU), [OP_VSUBRELU] = BIN(VOP_SUBRELU),
    [OP_VAXPY] = {VOP_AXPY, "a", "b", NULL, "alpha", 2},
    [OP_VPRELU] = {VOP_PRELU, "a", "alpha", NULL, NULL, 0},
    [OP_VMULA] = {VOP_MULA, "acc", "a", "b", NULL, 0},
};
#undef UN
#undef BIN
#undef SCAL

int valu_op_of(int kind)
{
    return kind >= 0 && kind < OP__COUNT && ew_rules[kind].a ? (int)ew_rules[kind].vop : -1;
}

static int lower_ew(LowerView *L, const Op *op, Instr *in, const EwRule *r)
{
    int ia = valu_operand(L, op, r->a);
    if (ia < 0 || !op->nresults) return 0;
    ElemKind k = valu_vreg_ek(op->operands[ia]);
    uint32_t set = op_types[op->kind].isa | op_types[op->kind].sim;
    if (k == EK_BAD || !(set & EK_BIT(k))) {
        const char *what = set == ES_INT ? "integer elements only" : set == ES_FB ? "f16, bf16 or f32 elements only"
                                                                                  : "integer, f16, bf16 or f32 elements";
        return valu_bad_type(L, op, what, op->operands[ia]->type);
    }
    in->imm[EW_OP] = r->vop;
    in->imm[EW_EK] = k;
    in->imm[EW_MASK] = valu_operand(L, op, "m");
    in->imm[EW_A] = ia;
    in->imm[EW_B] = r->b ? valu_operand(L, op, r->b) : -1;
    in->imm[EW_C] = r->c ? valu_operand(L, op, r->c) : -1;
    in->imm[EW_S] = r->s ? valu_operand(L, op, r->s) : -1;
    in->imm[EW_S_USE] = 0;
    if (in->imm[EW_S] >= 0) {
        /* shift counts are the scalar's unsigned value at its own width (i16 or the element width);
           other scalars are the element's bits */
        unsigned sw = (r->vop == VOP_SHL || r->vop == VOP_SHR) ? ty_bits(op->operands[in->imm[EW_S]]->type) : ek_bits(k);
        in->imm[EW_S_USE] = r->slot | (int64_t)sw << 8;
    }
    in->fn = valu_x_ew;
    /* a constant all-lanes mask (pset PAT_ALL) selects the unmasked handler */
    bool masked = in->imm[EW_MASK] >= 0 && !pred_all_active(op->operands[in->imm[EW_MASK]], ek_bytes(k));
    ExecFn f = L->ctx->reference ? NULL : valu_fast(r->vop, k, masked, in->imm[EW_S] >= 0);
    if (f && in->imm[EW_C] < 0) in->fn = f;
    return 0;
}

static int lower_carry(LowerView *L, const Op *op, Instr *in)
{
    ElemKind k = valu_vreg_ek(op->operands[0]);
    if (ek_bytes(k) != 4 || !ek_int(k)) return valu_bad_type(L, op, "32-bit integer elements only", op->operands[0]->type);
    in->imm[CA_KIND] = op->kind == OP_VADDC ? CY_ADDC : op->kind == OP_VSUBC ? CY_SUBC : op->kind == OP_VADDCS ? CY_ADDCS : CY_SUBCS;
    in->imm[CA_EK] = k;
    in->imm[CA_MASK] = valu_operand(L, op, "m");
    in->imm[CA_CIN] = valu_operand(L, op, "cin");
    in->fn = x_carry;
    return 0;
}

static int lower_cmp(LowerView *L, const Op *op, Instr *in)
{
    ElemKind k = valu_vreg_ek(op->operands[0]);
    if (!(ek_int(k) || ek_arith_float(k)))
        return valu_bad_type(L, op, "integer, f16, bf16 or f32 elements", op->operands[0]->type);
    in->imm[CM_TOK] = op_token_id(op, "cmp");
    in->imm[CM_EK] = k;
    in->imm[CM_SEED] = valu_operand(L, op, "seed");
    in->imm[CM_B] = valu_operand(L, op, "b");
    in->imm[CM_S] = valu_operand(L, op, "s");
    if (in->imm[CM_TOK] < 0 || in->imm[CM_SEED] < 0) return 0;
    in->fn = x_cmp;
    return 0;
}

static int lower_mat(LowerView *L, const Op *op, Instr *in)
{
    const Value *r = op->nresults ? op->results[0] : NULL;
    ElemKind k = valu_vreg_ek(r);
    if (k == EK_BAD) return valu_bad_type(L, op, "a vector result", r ? r->type : NULL);
    in->imm[MT_E] = ek_bytes(k);
    if (op->kind == OP_VBR) {
        in->fn = x_vbr;
        return 0;
    }
    in->imm[MT_MASK] = valu_operand(L, op, "m");
    in->imm[MT_LANE] = -1;
    if (op->noperands && op->operands[0]->type->kind == TY_VREG) {
        if (ek_bytes(valu_vreg_ek(op->operands[0])) != ek_bytes(k))
            return valu_bad_type(L, op, "a source vector of the result's element width", op->operands[0]->type);
        in->imm[MT_LANE] = op_token_id(op, "position") == T_POS_HIGHEST ? ek_lanes(k) - 1 : 0;
    }
    in->fn = valu_x_vdup;
    ExecFn f = L->ctx->reference ? NULL : valu_vdup_fast(ek_bytes(k));
    if (f) in->fn = f;
    return 0;
}

int lower_vec_alu(LowerView *L, const Op *op, Instr *in)
{
    if (op_info[op->kind].flags & F_NOSIM) return 0;   /* stays "not simulated" */
    if (ew_rules[op->kind].a) return lower_ew(L, op, in, &ew_rules[op->kind]);
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
        in->imm[SL_E] = ek_bytes(k);
        in->fn = op->kind == OP_VSEL ? x_vsel : x_vselr;
        return 0;
    }
    case OP_VMULL: {
        ElemKind k = valu_vreg_ek(op->operands[0]);
        if (ek_bytes(k) != 4 || !ek_int(k)) return valu_bad_type(L, op, "32-bit integer elements only", op->operands[0]->type);
        in->imm[ML_EK] = k;
        in->imm[ML_MASK] = valu_operand(L, op, "m");
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

/* vmi.c — the VMI family's lowering entry: decodes what every VMI op shares (element kinds, lane and
 * register counts, the governing mask and pmode) into a VmiX record and hands the op to its handler file. */
#include "vmi_int.h"
#include <stdio.h>

/* The shape of a VMI vector or mask value: lanes, registers, element kind and lane bytes. */
static void shape(const Value *v, uint32_t *L, uint32_t *K, uint8_t *k, uint8_t *e)
{
    const Type *t = v ? v->type : NULL;
    if (!t || !ty_is_vmi(t)) return;
    *L = t->lanes;
    if (t->kind == TY_VMI_VREG) {
        *K = ty_vmi_regs(t);
        *k = (uint8_t)vmi_kind(t->elem);
        *e = (uint8_t)vmi_lane_bytes(t->elem);
    } else {
        *K = (t->lanes + 255u) / 256u;
        *k = EK_BAD;
        *e = 1;
    }
}

int vmi_lower(LowerView *L, const Op *op, Instr *in)
{
    VmiX *x = lw_alloc(L, op, sizeof *x);
    if (!x) return -1;
    x->a = x->b = x->c = x->s = x->m = -1;
    x->k = x->k2 = EK_BAD;
    x->e = x->e2 = 1;
    x->tok = -1;
    /* the first VMI operand and the first VMI result fix the shapes */
    for (uint32_t i = 0; i < op->noperands; i++)
        if (op->operands[i] && op->operands[i]->type->kind == TY_VMI_VREG) {
            shape(op->operands[i], &x->L, &x->K, &x->k, &x->e);
            break;
        }
    for (uint32_t i = 0; i < op->nresults; i++)
        if (ty_is_vmi(op->results[i]->type)) {
            shape(op->results[i], &x->L2, &x->K2, &x->k2, &x->e2);
            break;
        }
    if (!x->L) { x->L = x->L2; x->K = x->K2; x->k = x->k2; x->e = x->e2; }
    x->m = (int8_t)vmi_operand(L, op, "m");
    int pm = op_token_id(op, "pmode");
    x->mode = pm == T_PMODE_MERGE ? VM_MERGE : VM_ZERO;
    in->ext = x;
    switch (op->kind) {
    case OP_VMI_VLOAD: case OP_VMI_VLOAD_GROUP: case OP_VMI_VLOAD_BLK: case OP_VMI_LOAD:
    case OP_VMI_VSTORE: case OP_VMI_VSTORE_GROUP: case OP_VMI_VSTORE_BLK: case OP_VMI_VSSTB: case OP_VMI_STORE:
    case OP_VMI_GATHER: case OP_VMI_SCATTER:
    case OP_VMI_MASKED_STORE: case OP_VMI_MASKED_LOAD: case OP_VMI_STRIDE_LOAD: case OP_VMI_STRIDE_STORE: case OP_VMI_DEINTERLEAVE_LOAD: case OP_VMI_INTERLEAVE_STORE: case OP_VMI_GROUP_LOAD:
    case OP_VMI_GROUP_BROADCAST_LOAD: case OP_VMI_GROUP_STORE:
    case OP_VMI_VGATHER: case OP_VMI_VGATHERB: case OP_VMI_VSCATTER:
        return vmi_lower_mem(L, op, in, x);
    case OP_VMI_VCVT: case OP_VMI_VINTERPRET_CAST: case OP_VMI_BITCAST: case OP_VMI_EXTSI: case OP_VMI_EXTUI:
    case OP_VMI_TRUNCI: case OP_VMI_EXTF: case OP_VMI_TRUNCF: case OP_VMI_FPTOSI: case OP_VMI_FPTOUI: case OP_VMI_SITOFP:
        return vmi_lower_cvt(L, op, in, x);
    case OP_VMI_CREATE_MASK: case OP_VMI_CREATE_GROUP_MASK: case OP_VMI_PSET: case OP_VMI_PGE: case OP_VMI_PLT:
    case OP_VMI_CONSTANT_MASK:
        return vmi_lower_mask(L, op, in, x);
    default:
        return vmi_lower_alu(L, op, in, x);
    }
}

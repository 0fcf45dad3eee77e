/* vmi_util.c — helpers every VMI lowering file shares (element kinds, operand lookup, the type error). */
#include "vmi_int.h"
#include <stdio.h>

ElemKind vmi_kind(const Type *t)
{
    if (!t) return EK_BAD;
    ElemKind k = elem_kind(t);
    if (t->kind == TY_INT && t->sign == SIGN_LESS && ek_int(k)) k = (ElemKind)(k | 1);   /* EK_Sn + 1 = EK_Un */
    return k;
}

unsigned vmi_lane_bytes(const Type *t) { return t ? ty_bytes(t) : 1; }

int vmi_operand(LowerView *L, const Op *op, const char *g) { return lw_group_index(L, op, g, 0); }

int vmi_bad_type(LowerView *L, const Op *op, const char *what, const Type *t)
{
    char buf[96] = "?";
    if (t) ty_format(t, buf, sizeof buf);
    lw_error(L, op, DIAG_V_ELEM_TYPE, "'%s' does not accept %s (%s)", op_info[op->kind].name, buf, what);
    return -1;
}


/* vec.c — the vector family's entry points: lowering routed to the memory side (vec_ls.c), the
 * rearrangements (vec_rearr.c) or the compute side (vec_alu.c), and the family's state. */
#include "vec.h"

int lower_vec_ls(LowerView *L, const Op *op, Instr *in);
int lower_vec_rearr(LowerView *L, const Op *op, Instr *in);
int lower_vec_alu(LowerView *L, const Op *op, Instr *in);

int vec_lower(LowerView *L, const Op *op, Instr *in)
{
    switch (op_info[op->kind].fam) {
    case FAM_VLS: case FAM_SPR:
        return lower_vec_ls(L, op, in);
    case FAM_VREARR:
        return lower_vec_rearr(L, op, in);
    default:
        return lower_vec_alu(L, op, in);
    }
}

int vec_reset(Core *c)
{
    memset(c->vec, 0, sizeof *c->vec);
    return 0;
}

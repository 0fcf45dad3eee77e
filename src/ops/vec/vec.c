/* vec.c — routes vector-family lowering: memory-side families to vec_ls.c, compute to vec_alu.c. */
#include "exec/sim.h"

int lower_vec_ls(LowerCtx *L, const Op *op, Instr *in);
int lower_vec_alu(LowerCtx *L, const Op *op, Instr *in);

int lower_family_vector(LowerCtx *L, const Op *op, Instr *in)
{
    in->pipe = PQ_V;
    switch (op_info[op->kind].fam) {
    case FAM_VLS: case FAM_VREARR: case FAM_SPR:
        return lower_vec_ls(L, op, in);
    default:
        return lower_vec_alu(L, op, in);
    }
}

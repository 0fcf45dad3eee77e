/* vec_alu.c — vector compute families (placeholder). */
#include "sim.h"
int lower_vec_alu(LowerCtx *L, const Op *op, Instr *in);
int lower_vec_alu(LowerCtx *L, const Op *op, Instr *in) { (void)L; (void)op; (void)in; return 0; }

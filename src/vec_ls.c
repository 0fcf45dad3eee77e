/* vec_ls.c — vector loads/stores, gathers/scatters, align-state streams and data rearrangement
 * (placeholder). */
#include "sim.h"
int lower_vec_ls(LowerCtx *L, const Op *op, Instr *in);
int lower_vec_ls(LowerCtx *L, const Op *op, Instr *in) { (void)L; (void)op; (void)in; return 0; }

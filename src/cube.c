/* cube.c — cube data movement, MAD and FIXPIPE (issue 6; placeholder). */
#include "sim.h"
int lower_family_cube(LowerCtx *L, const Op *op, Instr *in) { (void)L; (void)op; in->pipe = PQ_M; return 0; }

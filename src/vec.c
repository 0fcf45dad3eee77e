/* vec.c — vector register operations (issue 5; placeholder). */
#include "sim.h"
int lower_family_vector(LowerCtx *L, const Op *op, Instr *in) { (void)L; (void)op; in->pipe = PQ_V; return 0; }

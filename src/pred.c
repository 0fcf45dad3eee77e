/* pred.c — predicate generation, algebra and predicate load/store (issue 4; placeholder). */
#include "sim.h"
int lower_family_pred(LowerCtx *L, const Op *op, Instr *in) { (void)L; in->pipe = PQ_V; (void)op; return 0; }

/* scalar.h — the scalar unit's family: arith with exact integer semantics at every width, float
 * arithmetic without host-mode dependence, pointer ops, scalar loads/stores, block queries and the
 * control register. */
#ifndef PTOSIM_SCALAR_H
#define PTOSIM_SCALAR_H
#include "exec/machine.h"

struct ScalarState {
    uint64_t ctrl;             /* control register (get_ctrl/set_ctrl; FIXPIPE reads its saturation bits) */
};
typedef struct ScalarState ScalarState;

int scalar_lower(LowerView *L, const Op *op, Instr *in);
int scalar_reset(Core *c);
#endif

/* cube.h — the cube family: L1/L0/BT/FB data movement (cube.c), MAD (cube_mad.c), FIXPIPE writeback
 * (cube_fix.c). Semantics: docs/semantics.md §8. */
#ifndef PTOSIM_CUBE_H
#define PTOSIM_CUBE_H
#include "exec/machine.h"

struct CubeState {
    uint8_t *mx_scale;         /* MX scale state: one byte per 32 bytes of L0A, then of L0B */
    size_t mx_bytes;
    void *scratch;             /* MAD's decoded operands and accumulator rows (cube_mad.c), grown on demand */
    size_t scratch_bytes;
};
typedef struct CubeState CubeState;

int cube_lower(LowerView *L, const Op *op, Instr *in);
int cube_reset(Core *c);
void cube_release(Core *c);
#endif

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

/* What a scalar-family instruction computes, for an engine that runs it over many workitems at once (the SIMT
   lockstep path, ops/simt/simt_lock.c): the operation, its width and its decoded constant. SLN_PURE: a handler
   that reads only its operands (8-byte slots) and writes only its result, run as it is per workitem; SLN_NONE:
   anything else (memory, struct and wide values). */
typedef enum {
    SLN_NONE, SLN_PURE, SLN_CONST, SLN_ADD, SLN_SUB, SLN_MUL, SLN_AND, SLN_OR, SLN_XOR, SLN_SHL, SLN_SHRU,
    SLN_CMPI, SLN_ZEXT, SLN_SEXT, SLN_F32,
    SLN_PURE_DIV,              /* SLN_PURE that traps T-DIV-ZERO when operand 1 is 0 in `bits` */
} ScalarLaneKind;
enum { SLN_EQ, SLN_NE, SLN_SLT, SLN_SLE, SLN_SGT, SLN_SGE, SLN_ULT, SLN_ULE, SLN_UGT, SLN_UGE };
typedef struct ScalarLane {
    ScalarLaneKind kind;
    unsigned bits;             /* operand width (the result's for SLN_ZEXT/SLN_SEXT: dbits) */
    unsigned sbits;            /* casts: the source width */
    int op;                    /* SLN_CMPI: SLN_EQ..SLN_UGE; SLN_F32: the NumOp */
    uint64_t value;            /* SLN_CONST */
} ScalarLane;
ScalarLane scalar_lane(const Instr *in);
int scalar_reset(Core *c);
#endif

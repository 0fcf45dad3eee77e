/* vmi.h — the VMI family (`pto.vmi.*`, docs/vmi.md): logical vectors and masks of any length inside a vector
 * scope, each lane computed by the vector family's lane functions. */
#ifndef PTOSIM_VMI_H
#define PTOSIM_VMI_H
#include "exec/machine.h"

/* Lowering hook of every FAM_VMI op (ops/ops.c). */
int vmi_lower(LowerView *L, const Op *op, Instr *in);
#endif

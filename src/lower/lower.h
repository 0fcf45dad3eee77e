/* lower.h — the lowering driver: a verified module's entry function (and every function it calls)
 * becomes a Program (exec/program.h). */
#ifndef PTOSIM_LOWER_H
#define PTOSIM_LOWER_H
#include "exec/program.h"

/* Lowers `entry` and the functions reachable from it through func.call. NULL after diagnostics in
   ctx (an op the simulator cannot execute in that form, E-OOM). */
Program *lower_program(PtoCtx *ctx, const Module *m, const Op *entry);
#endif

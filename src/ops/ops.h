/* ops.h — the op families as the lowering driver and the launch see them: one lowering entry point that
 * dispatches on the op table's family column, and the lifetime of every family's per-core and
 * per-cluster state. */
#ifndef PTOSIM_OPS_H
#define PTOSIM_OPS_H
#include "exec/machine.h"

/* The family hook of op's table row (scalar, sync, dma, pred, vec, cube) fills in `in`. */
int ops_lower(LowerView *L, const Op *op, Instr *in);
/* After a function's code is complete: the families' fusions of instruction sequences into one handler. */
void ops_fuse(LowerView *L, Instr *code, uint32_t n);

/* Allocates (first use) and resets every family's state of core c / cluster cl; -1 when out of memory. */
int ops_core_reset(Core *c);
int ops_cluster_reset(Cluster *cl);
/* Frees what ops_core_reset / ops_cluster_reset allocated. */
void ops_core_free(Core *c);
void ops_cluster_free(Cluster *cl);
/* The deadlock explanation hook of the machine (exec/machine.h DeadlockHook). */
long ops_explain_deadlock(Cluster *cl);
/* A block ran to completion: end-of-block checks (flags left set). */
void ops_block_done(Cluster *cl);
#endif

/* tile.h — the tile family (docs/tile.md): tensor views and tile buffers on the scalar unit, tload/tstore as
 * MTE2/MTE3 jobs through the DMA engine, and the vector tile ops as V jobs over a tile's valid region, each
 * lane computed by the vector family's lane functions (ops/vec/lane.h). */
#ifndef PTOSIM_TILE_H
#define PTOSIM_TILE_H
#include "exec/machine.h"

/* Lowering hook of every FAM_TILE op (ops/ops.c). */
int tile_lower(LowerView *L, const Op *op, Instr *in);

/* The cube<->vector tile pipes of a block (tile_pipe.c, docs/tile.md "Cube<->vector pipes"): the per-cluster
   rings, cleared for each block; a deadlock located at a pop or push that can never proceed (or -1). */
struct TilePipeState;
int tile_pipe_reset(Cluster *cl);   /* allocates on first use; -1 when out of memory */
long tile_pipe_explain_deadlock(Cluster *cl);
#endif

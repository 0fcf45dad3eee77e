/* tile.h — the tile family (docs/tile.md): tensor views and tile buffers on the scalar unit, tload/tstore as
 * MTE2/MTE3 jobs through the DMA engine, and the vector tile ops as V jobs over a tile's valid region, each
 * lane computed by the vector family's lane functions (ops/vec/lane.h). */
#ifndef PTOSIM_TILE_H
#define PTOSIM_TILE_H
#include "exec/machine.h"

/* Lowering hook of every FAM_TILE op (ops/ops.c). */
int tile_lower(LowerView *L, const Op *op, Instr *in);
#endif

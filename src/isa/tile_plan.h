/* tile_plan.h — the address plan of the tiles a function allocates without an address (docs/tile.md
 * "Allocation"): a pure analysis of the IR and the target profile. The verifier reports the tiles that do not
 * fit (E-TILE-ALLOC); the lowering reads the addresses of the others. */
#ifndef PTOSIM_TILE_PLAN_H
#define PTOSIM_TILE_PLAN_H
#include "ir.h"
#include "target.h"

typedef struct TileSlot {
    const Op *op;              /* the pto.alloc_tile */
    AddrSpace as;
    uint64_t addr, size;       /* bytes; size rounded up to the space's alignment */
    uint32_t start, end;       /* live range: positions in the function's pre-order */
    int fits;                  /* 0: no room (addr meaningless) */
    int fixed;                 /* its address is a constant operand (not planned, kept out of the others' way) */
} TileSlot;

typedef struct TilePlan { TileSlot *t; uint32_t n; } TilePlan;

/* Plans every alloc_tile of function `func` (ops nested in other functions are not looked at) for the
   capacities of `tp` (NULL: unlimited; the placement is the same, only `fits` differs). Returns 0, or -1 when
   out of memory. Free with tile_plan_free. */
int tile_plan_build(const Op *func, const TargetProfile *tp, TilePlan *p);
void tile_plan_free(TilePlan *p);
/* The slot of an alloc_tile in a plan, or NULL. */
const TileSlot *tile_plan_find(const TilePlan *p, const Op *alloc);
/* Bytes between planned tiles of a space: 32 in UB (the vector unit's block), 512 elsewhere (a fractal). */
uint64_t tile_plan_align(AddrSpace as);
/* Bytes from one slot of a !pto.multi_tile_buf to the next: the slot tile's bytes rounded up to its location's
   alignment (PTOAS places slot k at the base plus k such strides; a 32-byte left tile takes 512). */
uint64_t tile_plan_multi_stride(const Type *t);
#endif

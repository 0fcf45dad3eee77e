/* tile.c — the tile family's lowering hook: each op to its group (tile_view.c, tile_dma.c, tile_ew.c). */
#include "tile_int.h"

int tile_lower(LowerView *L, const Op *op, Instr *in)
{
    switch (op_info[op->kind].pipe) {
    case PIPE_S_: return tile_lower_view(L, op, in);
    case PIPE_MTE2_: case PIPE_MTE3_: return tile_lower_dma(L, op, in);
    default: return tile_lower_ew(L, op, in);
    }
}

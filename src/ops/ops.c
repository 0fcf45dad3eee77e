/* ops.c — dispatch of op lowering to the families, and the families' state lifetime. */
#include "ops.h"
#include "base/alloc.h"
#include "cube/cube.h"
#include "dma/dma.h"
#include "pred/pred.h"
#include "scalar/scalar.h"
#include "simt/simt.h"
#include "sync/sync.h"
#include "vec/vec.h"
#include "vmi/vmi.h"
#include "tile/tile.h"
#include <stdlib.h>

int ops_lower(LowerView *L, const Op *op, Instr *in)
{
    switch (op_info[op->kind].fam) {
    case FAM_STRUCT:
        return op->kind == OP_CALL ? simt_lower(L, op, in) : 0;   /* the driver hands over calls that launch SIMT */
    case FAM_SCF:
        return 0;   /* structure: the driver's */
    case FAM_PTR:
        /* scalar memory of SIMT workitems takes part in the race check between workitems */
        if ((op->kind == OP_LOAD_SCALAR || op->kind == OP_STORE_SCALAR) && simt_inside(op)) return simt_lower(L, op, in);
        return scalar_lower(L, op, in);
    case FAM_ARITH: case FAM_QUERY:
        return scalar_lower(L, op, in);
    case FAM_SIMT:
        return simt_lower(L, op, in);
    case FAM_DMA: case FAM_DMA_CFG:
        return dma_lower(L, op, in);
    case FAM_SYNC:
        return sync_lower(L, op, in);
    case FAM_PRED_LS: case FAM_PRED_GEN:
        return pred_lower(L, op, in);
    case FAM_MAD: case FAM_CUBE_DMA:
        return cube_lower(L, op, in);
    case FAM_VMI:
        return vmi_lower(L, op, in);
    case FAM_TILE:
        return tile_lower(L, op, in);
    case FAM_MISC:
        return op->kind == OP_INIT_ALIGN ? pred_lower(L, op, in) : 0;
    default:
        return vec_lower(L, op, in);
    }
}

#define ALLOC_STATE(p) ((p) || ((p) = mem_calloc(1, sizeof *(p))) != NULL)

int ops_core_reset(Core *c)
{
    if (!ALLOC_STATE(c->scalar) || !ALLOC_STATE(c->sync) || !ALLOC_STATE(c->dma) || !ALLOC_STATE(c->vec) ||
        !ALLOC_STATE(c->cube) || !ALLOC_STATE(c->simt))
        return -1;
    return scalar_reset(c) | sync_reset(c) | dma_reset(c) | vec_reset(c) | cube_reset(c) | simt_reset(c);
}

int ops_cluster_reset(Cluster *cl)
{
    if (!ALLOC_STATE(cl->sync) || tile_pipe_reset(cl)) return -1;
    return sync_cluster_reset(cl);
}

void ops_core_free(Core *c)
{
    if (c->cube) cube_release(c);
    simt_free(c);
    mem_free(c->scalar);
    mem_free(c->sync);
    mem_free(c->dma);
    mem_free(c->vec);
    mem_free(c->cube);
    mem_free(c->simt);
    c->scalar = NULL;
    c->sync = NULL;
    c->dma = NULL;
    c->vec = NULL;
    c->cube = NULL;
    c->simt = NULL;
}

void ops_cluster_free(Cluster *cl)
{
    mem_free(cl->sync);
    cl->sync = NULL;
    mem_free(cl->tpipe);
    cl->tpipe = NULL;
}

void ops_block_done(Cluster *cl) { sync_report_leftovers(cl); }

void ops_fuse(LowerView *L, Instr *code, uint32_t n) { vec_fuse(L, code, n); }

long ops_explain_deadlock(Cluster *cl)
{
    long r = tile_pipe_explain_deadlock(cl);   /* a pop or push of a cube<->vector tile pipe */
    return r >= 0 ? r : sync_explain_deadlock(cl);
}

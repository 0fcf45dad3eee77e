/* tile.c — the tile family's lowering hook: each op to its group (tile_view.c, tile_dma.c, tile_ew.c, tile_cvt.c,
 * tile_sort.c, tile_rand.c, tile_mov.c, tile_quant.c, tile_pow.c, tile_gather.c). */
#include "tile_int.h"

int tile_lower(LowerView *L, const Op *op, Instr *in)
{
    if (tile_is_reduce(op->kind)) return tile_lower_reduce(L, op, in);
    const Attr *ra = op_attr(op, "reluPreMode");   /* FIXPIPE's: only moves out of an acc tile honour it (tile_cube.c) */
    int si = lw_group_index(L, op, "src", 0);
    if (ra && ra->s && !strstr(ra->s, "no_relu") &&
        (si < 0 || op->operands[si]->type->kind != TY_TILE_BUF || op->operands[si]->type->space != AS_L0C)) {
        lw_error(L, op, DIAG_T_UNSUPPORTED, "'%s' with a reluPreMode other than no_relu reads an acc tile through "
                 "FIXPIPE; from this source it is not simulated", op_info[op->kind].name);
        return -1;
    }
    switch (op->kind) {
    case OP_TCVT: return tile_lower_cvt(L, op, in);
    case OP_TSORT32: case OP_TMRGSORT: return tile_lower_sort(L, op, in);
    case OP_TRANDOM: return tile_lower_rand(L, op, in);
    case OP_TMOV: case OP_TEXTRACT: case OP_TINSERT: {
        int r = tile_lower_cube_mov(L, op, in);   /* moves that involve cube buffers (tile_cube.c) */
        if (r == 1) r = tile_lower_cube_fix(L, op, in);
        return r == 1 ? tile_lower_mov(L, op, in) : r;
    }
    case OP_TLOAD: {
        int r = tile_lower_cube_load(L, op, in);   /* tload into an NZ mat tile (tile_cube.c) */
        if (r != 1) return r;
        break;
    }
    case OP_TSTORE: {
        int r = tile_lower_cube_fix(L, op, in);   /* tstore from an acc tile: FIXPIPE (tile_cube.c) */
        if (r != 1) return r;
        break;
    }
    case OP_TMATMUL: case OP_TMATMUL_ACC: case OP_TMATMUL_BIAS: case OP_TMATMUL_MX: case OP_TMATMUL_MX_ACC:
    case OP_TMATMUL_MX_BIAS: case OP_TGEMV: case OP_TGEMV_ACC: case OP_TGEMV_BIAS: case OP_TGEMV_MX:
    case OP_TGEMV_MX_ACC: case OP_TGEMV_MX_BIAS:
        return tile_lower_cube(L, op, in);
    case OP_AIC_INITIALIZE_PIPE: case OP_AIV_INITIALIZE_PIPE: case OP_TPUSH_TO_AIV: case OP_TPUSH_TO_AIC:
    case OP_TPOP_FROM_AIC: case OP_TPOP_FROM_AIV: case OP_TFREE_FROM_AIC: case OP_TFREE_FROM_AIV:
    case OP_SET_QUANT_SCALAR: case OP_SET_QUANT_VECTOR:
        return tile_lower_pipe(L, op, in);   /* tile_pipe.c */
    case OP_TQUANT: case OP_TQUANT_MX: case OP_TDEQUANT: return tile_lower_quant(L, op, in);   /* tile_quant.c */
    case OP_TGATHER:   /* the index form: tile_extra.c; the mask-pattern and compare forms: tile_gather.c */
        if (op_attr(op, "maskPattern") || lw_group_index(L, op, "dsts", 1) >= 0 || lw_group_index(L, op, "rest", 0) < 0)
            return tile_lower_gather(L, op, in);
        return tile_lower_extra(L, op, in);
    case OP_TGATHERB: case OP_TSCATTER: case OP_MGATHER: case OP_MSCATTER: case OP_THISTOGRAM:
        return tile_lower_gather(L, op, in);   /* tile_gather.c */
    case OP_TPOW: case OP_TPOWS: return tile_lower_pow(L, op, in);           /* tile_pow.c */
    case OP_COMM_TWAIT: case OP_COMM_TTEST: case OP_MAKE_PREFETCH_ASYNC_CONTEXT: case OP_GET_PREFETCH_ASYNC_SESSION:
    case OP_TPREFETCH_ASYNC: case OP_COMM_WAIT_ASYNC_EVENT: case OP_COMM_TEST_ASYNC_EVENT:
        return tile_lower_comm(L, op, in);   /* tile_comm.c */
    case OP_TCI: case OP_TAXPY: case OP_TADDC: case OP_TSUBC: case OP_TADDSC: case OP_TSUBSC: case OP_TTRI:
    case OP_TCONCAT: case OP_TCONCATIDX: case OP_TTRANS:
    case OP_TPRINT: case OP_TPREFETCH: case OP_TSYNC: case OP_TRESHAPE: case OP_TASSIGN:
        return tile_lower_extra(L, op, in);   /* tile_extra.c */
    default: break;
    }
    switch (op_info[op->kind].pipe) {
    case PIPE_S_: return tile_lower_view(L, op, in);
    case PIPE_MTE2_: case PIPE_MTE3_: return tile_lower_dma(L, op, in);
    default: return tile_lower_ew(L, op, in);
    }
}

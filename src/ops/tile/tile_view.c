/* tile_view.c — the tile layer's ops without data movement, run by the scalar unit (tile_buf_addr also inside a
 * vector scope): tensor and partition views, their dims, strides and address, tile allocation (the address a
 * constant operand gives, or the plan of isa/tile_plan.c), valid shapes, tile addresses. docs/tile.md. */
#include "tile_int.h"
#include "isa/tile_plan.h"
#include <inttypes.h>

/* Decoded operands (Instr.imm). */
enum {
    TV_RANK,       /* views: rank of the result (or source) view */
    TV_ELEM,       /* element bytes */
    TV_SHAPE,      /* make_tensor_view / partition_view: first operand of the shape / offsets group */
    TV_STRIDE,     /* first operand of the strides / sizes group */
};
/* alloc_tile's (Instr.imm). */
enum {
    TV_ADDR,       /* operand index of addr (-1: the planned address in TV_PLANNED) */
    TV_PLANNED,
    TV_VR,         /* operand index of valid_row (-1: the static value in TV_VR_STATIC) */
    TV_VC,
    TV_VR_STATIC,
    TV_VC_STATIC,
};

static const Instr *done(Exec *x, const Instr *in)
{
    (void)x;
    return in + 1;
}

static const Instr *x_make_view(Exec *x, const Instr *in)
{
    ViewRt v;
    memset(&v, 0, sizeof v);
    unsigned r = (unsigned)in->imm[TV_RANK];
    v.addr = ARG(x, in, 0);
    for (unsigned i = 0; i < r; i++) {
        v.shape[i] = (int64_t)ARG(x, in, (unsigned)in->imm[TV_SHAPE] + i);
        v.stride[i] = (int64_t)ARG(x, in, (unsigned)in->imm[TV_STRIDE] + i);
    }
    view_put(FR(x, in->res[0]), &v);
    return done(x, in);
}

static const Instr *x_partition(Exec *x, const Instr *in)
{
    ViewRt s = view_get(FR(x, in->arg[0])), v = s;
    unsigned r = (unsigned)in->imm[TV_RANK];
    uint64_t e = (uint64_t)in->imm[TV_ELEM];
    for (unsigned i = 0; i < r; i++) {
        int64_t off = (int64_t)ARG(x, in, (unsigned)in->imm[TV_SHAPE] + i);
        int64_t sz = (int64_t)ARG(x, in, (unsigned)in->imm[TV_STRIDE] + i);
        if (off < 0 || sz < 0 || off + sz > s.shape[i]) {
            sim_trap(x, in, DIAG_T_TILE, "partition dimension %u (offset %" PRId64 ", size %" PRId64 ") leaves the "
                     "view's %" PRId64 " elements", i, off, sz, s.shape[i]);
            return NULL;
        }
        int64_t k;   /* off x stride elements, exactly: a product that wraps poisons the address (T-WRAP on access) */
        v.addr = __builtin_mul_overflow(off, s.stride[i], &k) ? SIM_ADDR_WRAP : sim_index_addr(v.addr, k, e);
        v.shape[i] = sz;
    }
    view_put(FR(x, in->res[0]), &v);
    return done(x, in);
}

static const Instr *x_view_query(Exec *x, const Instr *in)
{
    ViewRt v = view_get(FR(x, in->arg[0]));
    uint64_t d = ARG(x, in, 1);
    if (d >= (uint64_t)in->imm[TV_RANK]) {
        sim_trap(x, in, DIAG_T_TILE, "dimension %" PRIu64 " of a rank-%d view", d, (int)in->imm[TV_RANK]);
        return NULL;
    }
    fr_set_u64(x, in->res[0], (uint64_t)(in->kind == OP_GET_TENSOR_VIEW_DIM ? v.shape[d] : v.stride[d]));
    return done(x, in);
}

static const Instr *x_view_addr(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], view_get(FR(x, in->arg[0])).addr);
    return done(x, in);
}

static const Instr *x_alloc(Exec *x, const Instr *in)
{
    TileRt t;
    t.addr = in->imm[TV_ADDR] >= 0 ? ARG(x, in, (unsigned)in->imm[TV_ADDR]) : (uint64_t)in->imm[TV_PLANNED];
    uint64_t vr = in->imm[TV_VR] >= 0 ? ARG(x, in, (unsigned)in->imm[TV_VR]) : (uint64_t)in->imm[TV_VR_STATIC];
    uint64_t vc = in->imm[TV_VC] >= 0 ? ARG(x, in, (unsigned)in->imm[TV_VC]) : (uint64_t)in->imm[TV_VC_STATIC];
    const Type *ty = in->op->results[0]->type;
    if (vr > (uint64_t)ty->dims[0] || vc > (uint64_t)ty->dims[1]) {
        sim_trap(x, in, DIAG_T_TILE, "valid region %" PRIu64 "x%" PRIu64 " exceeds the tile's %lldx%lld shape", vr, vc,
                 (long long)ty->dims[0], (long long)ty->dims[1]);
        return NULL;
    }
    t.vr = (uint32_t)vr;
    t.vc = (uint32_t)vc;
    tile_put(FR(x, in->res[0]), t);
    return done(x, in);
}

static const Instr *x_set_valid(Exec *x, const Instr *in)
{
    uint8_t *slot = FR(x, in->arg[0]);
    TileRt t = tile_get(slot);
    uint64_t vr = ARG(x, in, 1), vc = ARG(x, in, 2);
    const Type *ty = in->op->operands[0]->type;
    if (vr > (uint64_t)ty->dims[0] || vc > (uint64_t)ty->dims[1]) {
        sim_trap(x, in, DIAG_T_TILE, "valid region %" PRIu64 "x%" PRIu64 " exceeds the tile's %lldx%lld shape", vr, vc,
                 (long long)ty->dims[0], (long long)ty->dims[1]);
        return NULL;
    }
    t.vr = (uint32_t)vr;
    t.vc = (uint32_t)vc;
    tile_put(slot, t);
    return done(x, in);
}

static const Instr *x_get_valid(Exec *x, const Instr *in)
{
    TileRt t = tile_get(FR(x, in->arg[0]));
    switch (in->kind) {
    case OP_TILE_VALID_ROWS: fr_set_u64(x, in->res[0], t.vr); break;
    case OP_TILE_VALID_COLS: fr_set_u64(x, in->res[0], t.vc); break;
    default:
        fr_set_u64(x, in->res[0], t.vr);
        if (in->res[1] >= 0) fr_set_u64(x, in->res[1], t.vc);
        break;
    }
    return done(x, in);
}

static const Instr *x_tile_addr(Exec *x, const Instr *in)
{
    fr_set_u64(x, in->res[0], tile_get(FR(x, in->arg[0])).addr);
    return done(x, in);
}

/* The planned address of an alloc_tile: the plan of its function is computed once and kept in each alloc's
   Op.aux (the address + 1; a lowering-time scratch, docs/internals.md) until the module is freed. */
static int planned_addr(LowerView *L, const Op *op, uint64_t *addr)
{
    if (!op->aux) {
        const Op *f = ir_parent_op(op);
        while (f && f->kind != OP_FUNC) f = ir_parent_op(f);
        TilePlan p;
        if (!f || tile_plan_build(f, NULL, &p)) {
            lw_error(L, op, DIAG_OOM, "out of memory planning the tile addresses");
            return -1;
        }
        /* the verifier checked the capacity of the target; the placement does not depend on it */
        for (uint32_t i = 0; i < p.n; i++)
            if (!p.t[i].fixed && p.t[i].fits) ((Op *)p.t[i].op)->aux = (void *)(uintptr_t)(p.t[i].addr + 1);
        tile_plan_free(&p);
    }
    if (!op->aux) {   /* the verifier reported it (E-TILE-ALLOC) */
        lw_error(L, op, DIAG_TILE_ALLOC, "the tile does not fit its address space");
        return -1;
    }
    *addr = (uint64_t)(uintptr_t)op->aux - 1;
    return 0;
}

int tile_lower_view(LowerView *L, const Op *op, Instr *in)
{
    in->cost = 1;
    switch (op->kind) {
    case OP_MAKE_TENSOR_VIEW: case OP_PARTITION_VIEW: {
        const Type *t = op->results[0]->type;
        in->imm[TV_RANK] = t->rank;
        in->imm[TV_ELEM] = ty_bytes(t->elem);
        in->imm[TV_SHAPE] = 1;
        in->imm[TV_STRIDE] = 1 + t->rank;
        if (op->noperands != 1u + 2u * t->rank) {
            lw_error(L, op, DIAG_TILE_SHAPE, "'%s' needs %u sizes and %u strides for its rank-%u view", op_info[op->kind].name,
                     t->rank, t->rank, t->rank);
            return -1;
        }
        in->fn = op->kind == OP_MAKE_TENSOR_VIEW ? x_make_view : x_partition;
        return 0;
    }
    case OP_GET_TENSOR_VIEW_DIM: case OP_GET_TENSOR_VIEW_STRIDE:
        in->imm[TV_RANK] = op->operands[0]->type->rank;
        in->fn = x_view_query;
        return 0;
    case OP_TENSOR_VIEW_ADDR: in->fn = x_view_addr; return 0;
    case OP_ALLOC_TILE: {
        const Type *t = op->results[0]->type;
        in->imm[TV_ADDR] = lw_group_index(L, op, "addr", 0);
        in->imm[TV_VR] = lw_group_index(L, op, "valid_row", 0);
        in->imm[TV_VC] = lw_group_index(L, op, "valid_col", 0);
        /* a dynamic valid dimension without its operand starts as the whole dimension */
        in->imm[TV_VR_STATIC] = t->dims[2] >= 0 ? t->dims[2] : t->dims[0];
        in->imm[TV_VC_STATIC] = t->dims[3] >= 0 ? t->dims[3] : t->dims[1];
        if (in->imm[TV_ADDR] < 0) {
            uint64_t a;
            if (planned_addr(L, op, &a)) return -1;
            in->imm[TV_PLANNED] = (int64_t)a;
        }
        in->fn = x_alloc;
        return 0;
    }
    case OP_SET_VALIDSHAPE: in->fn = x_set_valid; return 0;
    case OP_GET_VALIDSHAPE: case OP_TILE_VALID_ROWS: case OP_TILE_VALID_COLS: in->fn = x_get_valid; return 0;
    case OP_TILE_BUF_ADDR: in->fn = x_tile_addr; return 0;
    default:
        return 0;
    }
}
